import { Ajv2020, type ErrorObject, type FuncKeywordDefinition, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { type DocumentScan, scanDocument } from './document-scan.js';
import { NEVER_ANSWERED, responseView } from './response-view.js';

// ajv-formats is CommonJS; under NodeNext its default export arrives as the module namespace.
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

/** The id under which the bundled spec is registered; validators are `$ref`s into it. */
export const SPEC_ID = 'urn:workplace-admin:openapi';

// OpenAPI 3.1 keywords that are not JSON Schema 2020-12: known, not errors (strictness stays on).
// And `$anchor`: Ajv resolves a `$ref` to one (it indexes anchors as it registers a schema) but has
// no keyword of that name, so that strict mode refused a schema carrying one when it compiled.
const OPENAPI_SCHEMA_KEYWORDS = ['example', 'xml', 'externalDocs', 'discriminator', '$anchor'];
// The document's own top-level members, so the spec can be registered whole and referenced into.
export const OPENAPI_DOCUMENT_KEYWORDS = [
  'openapi',
  'info',
  'jsonSchemaDialect',
  'servers',
  'paths',
  'webhooks',
  'components',
  'security',
  'tags',
];

/** One violation of a schema: where in the instance, what the schema wanted, what was found. */
export interface SchemaViolation {
  readonly pointer: string;
  readonly message: string;
  readonly keyword: string;
  readonly schemaPath: string;
  readonly params: Readonly<Record<string, unknown>>;
  /** The value found at `pointer`. */
  readonly data: unknown;
}

/**
 * The contract's own Ajv: JSON Schema 2020-12 (OpenAPI 3.1's dialect), all errors, nothing coerced,
 * removed or defaulted, strict. Independent of Fastify's Ajv, which coerces and strips
 * (house style 11). Validators compile once per schema pointer and are cached.
 */
export class ContractAjv {
  readonly ajv: Ajv2020;
  readonly #cache = new Map<string, ValidateFunction>();

  /**
   * `doc`: the bundled spec. What is registered is its response view (src/core/spec/response-view.ts):
   * every check made here is of an answer (a fixture's items are answers, as are a deployment's),
   * and an answer never holds a `writeOnly` property, `required` or not. `scan`: what the document
   * uses (core/spec/document-scan.ts), when the caller has it.
   */
  constructor(doc: unknown, scan?: DocumentScan) {
    this.ajv = contractAjv();
    // What the loader gathered as it read the spec's files, else a walk of the document.
    const scanned = scan ?? scanDocument(doc);
    this.ajv.addVocabulary([...OPENAPI_SCHEMA_KEYWORDS, ...OPENAPI_DOCUMENT_KEYWORDS, ...scanned.extensions]);
    // A format Ajv does not know is an annotation (OpenAPI 3.1 lets a spec name its own): not
    // checked, and said so by the loader's lint; strict Ajv would refuse the whole spec on it.
    for (const f of scanned.formats) if (!(f in this.ajv.formats)) this.ajv.addFormat(f, true);
    if (scanned.writeOnly) this.ajv.addKeyword(neverAnswered);
    const view = responseView(doc as object, scanned.writeOnly);
    this.ajv.addSchema(scanned.identifies ? view : opaqueRoot(view), SPEC_ID, undefined, false);
  }

  /** The validator of the schema at `pointer` (`#/components/schemas/Desk`); throws if it cannot compile. */
  validator(pointer: string): ValidateFunction {
    const key = pointer.startsWith('#') ? pointer : `#${pointer}`;
    let fn = this.#cache.get(key);
    if (!fn) {
      // What `ajv.compile({ $ref })` makes, without its check of that `$ref` against the
      // meta-schema: a `$ref` alone always passes it, and the check compiled the meta-schema on
      // first use, in every start (the spec's own schemas are checked by the lint, with the check
      // precompiled: src/load/meta-check.ts).
      const id = `${SPEC_ID}:validator:${this.#cache.size}`;
      this.ajv.addSchema({ $ref: `${SPEC_ID}${key}` }, id, undefined, false);
      try {
        fn = this.ajv.getSchema(id) as ValidateFunction;
      } catch (e) {
        this.ajv.removeSchema(id);
        throw e;
      }
      this.#cache.set(key, fn);
    }
    return fn;
  }

  /** Every violation of `value` against the schema at `pointer` (empty when valid). */
  validate(pointer: string, value: unknown): SchemaViolation[] {
    const fn = this.validator(pointer);
    return fn(value) ? [] : (fn.errors ?? []).map(toViolation);
  }
}

/** A writeOnly property present in an answer (its schema in the response view): always a violation. */
const neverAnswered: FuncKeywordDefinition = { keyword: NEVER_ANSWERED, schemaType: 'boolean', validate: () => false };
const NEVER_ANSWERED_MESSAGE = 'is writeOnly in the spec: never in an answer (DRF never represents a write_only field)';

/**
 * The contract's Ajv options: JSON Schema 2020-12, all errors, nothing coerced, removed or
 * defaulted, strict.
 */
export const CONTRACT_AJV_OPTIONS = {
  allErrors: true,
  // verbose: each error carries the value it is about, so reports show what was found.
  verbose: true,
  strict: true,
  // Valid JSON Schema that OpenAPI authors write (`properties` without `type: object` in an
  // allOf member, `required` naming a member another allOf member types) is not an error;
  // unknown keywords still are (strictSchema).
  strictTypes: false,
  strictRequired: false,
  allowUnionTypes: true,
  coerceTypes: false,
  removeAdditional: false,
  useDefaults: false,
  validateFormats: true,
} as const;

/**
 * A new Ajv as the contract configures it, with ajv-formats' formats, before any document is
 * registered; `source`: its validators keep their code (for Ajv's standalone code).
 */
export function contractAjv(source = false): Ajv2020 {
  const ajv = new Ajv2020(source ? { ...CONTRACT_AJV_OPTIONS, code: { source: true } } : CONTRACT_AJV_OPTIONS);
  addFormats(ajv);
  rememberLast(ajv, 'uri');
  return ajv;
}

/**
 * The `uri` format checks a string against a long regular expression; a fixture's items are all
 * validated with the same url (built by the stub, the same shape for each), so the last answer is
 * kept: a million items cost one check, any other string the full one.
 */
function rememberLast(ajv: Ajv2020, name: string): void {
  const check = formatCheck(ajv.formats[name]);
  if (!check) return;
  let lastInput: string | undefined;
  let lastResult = false;
  ajv.addFormat(name, (s: string) => {
    if (s !== lastInput) {
      lastResult = check(s);
      lastInput = s;
    }
    return lastResult;
  });
}

/**
 * The document as Ajv registers it when no object in it has an `$id` or an anchor: a root whose
 * members are the document's, not enumerable. Ajv indexes a schema it is given by walking all of
 * it for ids and anchors (getSchemaRefs, ~0.15 s for a spec of 2,000 paths), and finds none in such
 * a document; a `$ref` into it is resolved member by member, by name, as before.
 * `test/unit/openapi/ajv.registration.test.ts` holds the validators to those of the plain registration.
 */
function opaqueRoot(doc: object): object {
  const root = {};
  for (const [key, value] of Object.entries(doc)) Object.defineProperty(root, key, { value, enumerable: false });
  return root;
}

export function toViolation(e: ErrorObject): SchemaViolation {
  return {
    pointer: e.instancePath || '',
    keyword: e.keyword,
    schemaPath: e.schemaPath,
    params: e.params,
    message: e.keyword === NEVER_ANSWERED ? NEVER_ANSWERED_MESSAGE : (e.message ?? 'is invalid'),
    data: e.data,
  };
}

/** "must match pattern \"^[A-Z]$\"" style text with the allowed values where Ajv lists them. */
export function describeViolation(v: SchemaViolation): string {
  if (v.keyword === 'required') return `must have required property "${String(v.params.missingProperty)}"`;
  if (v.keyword === 'enum') return `${v.message}: ${JSON.stringify(v.params.allowedValues)}`;
  if (v.keyword === 'additionalProperties' || v.keyword === 'unevaluatedProperties') {
    return `${v.message}: "${String(v.params.additionalProperty ?? v.params.unevaluatedProperty)}"`;
  }
  return v.message;
}

/** A format of Ajv's as a function of a string, when it is a synchronous check (a RegExp or a function). */
export function formatCheck(format: unknown): ((s: string) => boolean) | undefined {
  const check =
    format !== null && typeof format === 'object' && !(format instanceof RegExp)
      ? (format as { validate?: unknown; async?: unknown }).async === true
        ? undefined
        : (format as { validate?: unknown }).validate
      : format;
  if (check instanceof RegExp) return (s) => check.test(s);
  if (typeof check === 'function') return (s) => Boolean((check as (s: string) => unknown)(s));
  return undefined;
}
