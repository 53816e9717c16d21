import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ErrorObject } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContractAjv, contractAjv } from '../../../src/openapi/ajv.js';
import {
  metaCheckFingerprint,
  metaCheckModule,
  metaCheckOrigin,
  metaSchemaCheck,
} from '../../../src/load/meta-check.js';
import { lintSchemas } from '../../../src/load/schema-lint.js';
import { bundleSpec } from '../../../src/load/spec.js';
import { ROOT } from '../../cli-helpers.js';
import { SPEC } from '../../helpers.js';
import { firstDifference as firstDifferenceOf } from './broken-everywhere.js';

// The schema lint checks each schema against the JSON Schema 2020-12 meta-schema with a validator
// the build precompiles (dist/load/meta2020-check.cjs) instead of Ajv compiling the meta-schema on
// every start. It must answer as the contract's Ajv does (`validateSchema`): the same verdict and
// errors on every schema, valid or broken.

/** Every schema of a spec's components, as the lint is given them. */
async function schemasOf(file: string): Promise<object[]> {
  const doc = (await bundleSpec(file, undefined, undefined, 'inline')).spec.doc as {
    components?: { schemas?: Record<string, object> };
  };
  return Object.values(doc.components?.schemas ?? {});
}

type Check = (schema: object) => ErrorObject[] | null;

/** The first schema, of the schemas broken everywhere, on which the two checks answer differently. */
const firstDifference = (a: Check, b: Check, schemas: readonly object[]) =>
  firstDifferenceOf(
    (s) => a(s as object),
    (s) => b(s as object),
    (errors) => errors !== null,
    schemas,
  );

describe('the precompiled meta-schema check of the schema lint', () => {
  let schemas: object[];
  let file: string;
  let dir: string;
  const ajvCheck: Check = (schema) => {
    const ajv = shared;
    return ajv.validateSchema(schema) ? null : structuredClone(ajv.errors ?? []);
  };
  const shared = contractAjv();
  beforeAll(async () => {
    schemas = (
      await Promise.all(
        [
          SPEC,
          path.resolve('test/fixtures/designer/openapi.yaml'),
          path.resolve('test/fixtures/mini/openapi.yaml'),
        ].map(schemasOf),
      )
    ).flat();
    // Inside the repository: the module requires Ajv's runtime, resolved from where it stands.
    await mkdir(path.join(ROOT, 'node_modules/.cache'), { recursive: true });
    dir = await mkdtemp(path.join(ROOT, 'node_modules/.cache/meta-check-test-'));
    file = path.join(dir, 'meta2020-check.cjs');
    await writeFile(file, metaCheckModule());
  });

  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("answers as the contract's Ajv, verdict and errors, on every schema of the repository's specs broken at every place", () => {
    expect(metaCheckOrigin(file)).toBe('precompiled');
    const check = metaSchemaCheck(contractAjv(), file);
    const outcome = firstDifference((s) => structuredClone(check(s)), ajvCheck, schemas);
    expect(outcome.difference).toBeUndefined();
    expect(outcome.runs).toBeGreaterThan(1000);
    expect(outcome.invalid).toBeGreaterThan(outcome.runs / 4);
  });

  it('the corpus tells a check that lets one rule through (a negative minimum length)', () => {
    const check = metaSchemaCheck(contractAjv(), file);
    const loose: Check = (s) => {
      const errors = check(s)?.filter((e) => !(e.keyword === 'minimum' && e.instancePath.endsWith('Length')));
      return errors === undefined || errors.length === 0 ? null : structuredClone(errors);
    };
    expect(firstDifference(loose, ajvCheck, schemas).difference).toBeDefined();
  });

  it('is used only when made from the Ajv and formats installed: a stale, broken or missing module is not', async () => {
    const module = metaCheckModule();
    const stale = path.join(dir, 'stale.cjs');
    await writeFile(stale, module.replace(metaCheckFingerprint(), 'f'.repeat(64)));
    expect(metaCheckOrigin(stale)).toBe('compiled');
    const broken = path.join(dir, 'broken.cjs');
    await writeFile(broken, module.slice(0, module.length / 2));
    expect(metaCheckOrigin(broken)).toBe('compiled');
    expect(metaCheckOrigin(path.join(dir, 'absent.cjs'))).toBe('compiled');
    // Compiled or precompiled, the lint finds the same problem.
    const doc = {
      openapi: '3.1.0',
      components: { schemas: { S: { type: 'object', properties: { n: { type: 'strin', minLength: -1 } } } } },
    };
    const lint = (meta: string) =>
      lintSchemas(doc, new ContractAjv(doc), ['/components/schemas/S'], 'openapi.yaml', meta).problems;
    expect(lint(file)).toEqual(lint(stale));
    expect(lint(file).map((p) => p.pointer)).toContain('/components/schemas/S/properties/n/minLength');
  });

  it('a schema naming a meta-schema the contract does not know is a problem placed at its $schema, not a crash', () => {
    const doc = {
      openapi: '3.1.0',
      components: { schemas: { S: { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object' } } },
    };
    const { problems } = lintSchemas(doc, new ContractAjv(doc), ['/components/schemas/S'], 'openapi.yaml', file);
    expect(problems).toEqual([
      {
        file: 'openapi.yaml',
        pointer: '/components/schemas/S/$schema',
        reason: expect.stringContaining(
          'names a meta-schema the contract does not know ("http://json-schema.org/draft-07/schema#")',
        ),
      },
    ]);
  });
});
