import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { Ajv2020, ErrorObject } from 'ajv/dist/2020.js';
import { CONTRACT_AJV_OPTIONS, contractAjv } from '../openapi/ajv.js';
import { fingerprintOf, loadPrecompiled, precompiledModule } from './precompiled.js';

/**
 * The schema lint's check of a schema against the JSON Schema 2020-12 meta-schema: what the
 * contract's Ajv answers (`ajv.validateSchema`), from the validator the build precompiled
 * (src/load/precompiled.ts) where there is one made from the Ajv and formats installed. Ajv
 * would compile the meta-schema on first use, in every start.
 */

/** The meta-schema a schema without `$schema` is checked against (Ajv2020's default). */
const META_2020 = 'https://json-schema.org/draft/2020-12/schema';

const require = createRequire(import.meta.url);
const versionOf = (pkg: string) => (require(`${pkg}/package.json`) as { version: string }).version;

/** What the meta-schema check is made from: Ajv and ajv-formats (the meta-schema ships with Ajv), the contract's options. */
export function metaCheckFingerprint(): string {
  return fingerprintOf(['json-schema-2020-12', versionOf('ajv'), versionOf('ajv-formats'), CONTRACT_AJV_OPTIONS]);
}

/** The meta-schema check of a new contract Ajv as a CommonJS module (what the build writes to PRECOMPILED_META). */
export function metaCheckModule(): string {
  const standaloneCode = (require('ajv/dist/standalone') as { default: (ajv: Ajv2020, check: unknown) => string })
    .default;
  const ajv = contractAjv(true);
  const check = ajv.getSchema(META_2020);
  if (!check) throw new Error(`Ajv has no ${META_2020}`);
  return precompiledModule(
    'the JSON Schema 2020-12 meta-schema check (src/load/meta-check.ts)',
    standaloneCode(ajv, check),
    metaCheckFingerprint(),
  );
}

/** Where the build writes the precompiled meta-schema check (absent where this module runs from src/). */
const PRECOMPILED_META = fileURLToPath(new URL('./meta2020-check.cjs', import.meta.url));

type MetaCheck = ((schema: unknown) => boolean) & { errors?: ErrorObject[] | null };
const loaded = new Map<string, MetaCheck | null>();

/** The precompiled check in `file`, loaded once; null when there is none made from what is installed. */
function precompiledMeta(file: string): MetaCheck | null {
  let check = loaded.get(file);
  if (check === undefined) {
    check = loadPrecompiled<MetaCheck>(file, metaCheckFingerprint()) ?? null;
    loaded.set(file, check);
  }
  return check;
}

/**
 * A check of schemas against the meta-schema, answering as `ajv.validateSchema` does on the
 * contract's Ajv: the errors, or null for a valid schema. A schema naming its own `$schema` is
 * left to Ajv. `file`: the precompiled module (tests give their own).
 */
export function metaSchemaCheck(ajv: Ajv2020, file = PRECOMPILED_META): (schema: object) => ErrorObject[] | null {
  const check = precompiledMeta(file);
  return (schema) => {
    if (check && (schema as { $schema?: unknown }).$schema === undefined)
      return check(schema) ? null : (check.errors ?? []);
    try {
      return ajv.validateSchema(schema) ? null : (ajv.errors ?? []);
    } catch {
      // A `$schema` Ajv has no meta-schema for (draft-07, say): Ajv throws; the lint tells where.
      const named = (schema as { $schema?: unknown }).$schema;
      return [
        {
          instancePath: '/$schema',
          schemaPath: '',
          keyword: '$schema',
          params: {},
          message: `names a meta-schema the contract does not know (${JSON.stringify(named)}): only JSON Schema 2020-12, OpenAPI 3.1's dialect, is checked`,
        },
      ];
    }
  };
}

/** Where this process's meta-schema check comes from. */
export function metaCheckOrigin(file = PRECOMPILED_META): 'precompiled' | 'compiled' {
  return precompiledMeta(file) ? 'precompiled' : 'compiled';
}
