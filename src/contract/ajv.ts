import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

// ajv-formats is CommonJS; under NodeNext its default export arrives as the module namespace.
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

/** The id under which the bundled spec is registered; validators are `$ref`s into it. */
export const SPEC_ID = 'urn:workplace-admin:openapi';

// OpenAPI 3.1 keywords that are not JSON Schema 2020-12: known, not errors (strictness stays on).
const OPENAPI_SCHEMA_KEYWORDS = ['example', 'xml', 'externalDocs', 'discriminator'];
// The document's own top-level members, so the spec can be registered whole and referenced into.
const OPENAPI_DOCUMENT_KEYWORDS = ['openapi', 'info', 'jsonSchemaDialect', 'servers', 'paths', 'webhooks', 'components', 'security', 'tags'];

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

  constructor(doc: unknown) {
    this.ajv = new Ajv2020({
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
    });
    addFormats(this.ajv);
    rememberLast(this.ajv, 'uri');
    this.ajv.addVocabulary([...OPENAPI_SCHEMA_KEYWORDS, ...OPENAPI_DOCUMENT_KEYWORDS, ...extensionKeywords(doc)]);
    this.ajv.addSchema(doc as object, SPEC_ID, undefined, false);
  }

  /** The validator of the schema at `pointer` (`#/components/schemas/Desk`); throws if it cannot compile. */
  validator(pointer: string): ValidateFunction {
    const key = pointer.startsWith('#') ? pointer : `#${pointer}`;
    let fn = this.#cache.get(key);
    if (!fn) {
      fn = this.ajv.compile({ $ref: `${SPEC_ID}${key}` });
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

/**
 * The `uri` format checks a string against a long regular expression; a fixture's items are all
 * validated with the same url (built by the stub, the same shape for each), so the last answer is
 * kept: a million items cost one check, any other string the full one.
 */
function rememberLast(ajv: Ajv2020, name: string): void {
  const format = ajv.formats[name];
  const check = typeof format === 'function' ? format : format instanceof RegExp ? (s: string) => format.test(s) : typeof format === 'object' && typeof format.validate === 'function' ? format.validate : undefined;
  if (!check) return;
  let lastInput: string | undefined;
  let lastResult = false;
  ajv.addFormat(name, (s: string) => {
    if (s !== lastInput) {
      lastResult = Boolean((check as (x: string) => boolean)(s));
      lastInput = s;
    }
    return lastResult;
  });
}

/** Every `x-…` specification extension the document uses: annotations to Ajv, not errors. */
function extensionKeywords(doc: unknown): string[] {
  const found = new Set<string>();
  const seen = new Set<object>();
  // Only objects are walked into (a spec has some hundred thousand values, most of them scalars).
  const walk = (node: object): void => {
    if (seen.has(node)) return;
    seen.add(node);
    if (Array.isArray(node)) {
      for (const v of node) if (v !== null && typeof v === 'object') walk(v);
      return;
    }
    for (const k of Object.keys(node)) {
      if (k.charCodeAt(0) === 120 && k.charCodeAt(1) === 45) found.add(k);
      const v = (node as Record<string, unknown>)[k];
      if (v !== null && typeof v === 'object') walk(v);
    }
  };
  if (doc !== null && typeof doc === 'object') walk(doc);
  return [...found];
}

export function toViolation(e: ErrorObject): SchemaViolation {
  return {
    pointer: e.instancePath || '',
    keyword: e.keyword,
    schemaPath: e.schemaPath,
    params: e.params,
    message: e.message ?? 'is invalid',
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
