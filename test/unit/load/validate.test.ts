import { cp, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { LoadError } from '../../../src/load/errors.js';
import { bundleSpec, loadSpec } from '../../../src/load/spec.js';
import { loadState } from '../../../src/load/state.js';
import { OFF_THREAD_MIN_CHARS, SpecValidation, ValidationWorker } from '../../../src/load/validate.js';
import { FIXTURES, SPEC } from '../../helpers.js';

type Doc = {
  info: Record<string, unknown>;
  paths: Record<string, { get: { responses: Record<string, Record<string, unknown>> } }>;
  components: { schemas: Record<string, unknown> };
};

/** A copy of the bundled spec's folder, its root edited; answers the root's path. */
async function specWith(edit: (doc: Doc) => void): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'validate-'));
  await cp(path.dirname(SPEC), dir, { recursive: true });
  const root = path.join(dir, path.basename(SPEC));
  const doc = parse(await readFile(root, 'utf8')) as Doc;
  edit(doc);
  await writeFile(root, stringify(doc));
  return root;
}

/** Large enough to be validated on a worker thread when the place is `auto`. */
const large = (doc: Doc) => {
  doc.info.description = 'A spec grown past the threshold. '.repeat(Math.ceil(OFF_THREAD_MIN_CHARS / 30));
};
const deskList = (doc: Doc) => doc.paths['/api/v1/desk']?.get.responses['200'] as Record<string, unknown>;

async function problemsOf(p: Promise<unknown>): Promise<string[]> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(LoadError);
  return (e as LoadError).problems.map((q) => `${q.file} ${q.pointer}: ${q.reason}`);
}

describe('validation answers the same on a worker thread as on this one', () => {
  const docOf = async (root: string) => (await bundleSpec(root, undefined, undefined, 'inline')).spec.doc;
  /** Validated in both places; the worker's answer must be the worker's own. */
  const both = async (doc: unknown) => {
    const here = await new SpecValidation('inline').validate(doc);
    const there = await new SpecValidation('worker').validate(doc);
    expect(here.thread).toBe('main');
    expect(there.thread).toBe('worker');
    return { here: here.failure, there: there.failure };
  };

  it('a valid spec passes in both places', async () => {
    const { here, there } = await both(await docOf(SPEC));
    expect(here).toBeUndefined();
    expect(there).toBeUndefined();
  });

  it.each<[string, (doc: Doc) => void, RegExp]>([
    [
      'a response without its description (the OpenAPI 3.1 schema)',
      (doc) => void delete deskList(doc).description,
      /must have required property 'description'/,
    ],
    [
      'a response that is a $ref to a schema (found only once dereferenced)',
      (doc) =>
        void ((doc.paths['/api/v1/desk'] as Doc['paths'][string]).get.responses['404'] = {
          $ref: '#/components/schemas/Desk',
        }),
      /responses\/404 must NOT have unevaluated properties/,
    ],
  ])('%s: the same failure, message and details, in both places', async (_name, edit, expected) => {
    const { here, there } = await both(await docOf(await specWith(edit)));
    expect(`${here?.message} ${JSON.stringify(here?.details)}`).toMatch(expected);
    expect(there).toEqual(here);
  });

  // The document reaches the other thread as JSON: objects that YAML aliases share arrive apart,
  // which no check of the OpenAPI 3.1 schema tells. (YAML's `.inf` and `.nan`, which JSON cannot
  // hold, never reach the bundled form: yaml-text.test.ts.)
  it.each([
    ['valid', '', "'1'"],
    ['a shared response without its description', 'description', "'1'"],
  ])(
    "a spec written with YAML anchors and aliases (objects shared in the bundled form), %s: the library's outcome in both places",
    async (_name, drop, version) => {
      const dir = await mkdtemp(path.join(tmpdir(), 'validate-aliases-'));
      const root = path.join(dir, 'openapi.yaml');
      const ok = drop === 'description' ? '&ok\n          content: {}' : '&ok\n          description: fine';
      await writeFile(
        root,
        `openapi: 3.1.0\ninfo:\n  title: t\n  version: ${version}\npaths:\n  /a:\n    get:\n      responses:\n        '200': ${ok}\n  /b:\n    get:\n      responses:\n        '200': *ok\n  /c:\n    get:\n      responses:\n        '200': *ok\n`,
      );
      const doc = (await docOf(root)) as { paths: Record<string, { get: { responses: Record<string, unknown> } }> };
      // The bundled form shares the aliased object: the place a copy to the other thread must not change the outcome.
      expect(doc.paths['/a']?.get.responses['200']).toBe(doc.paths['/b']?.get.responses['200']);
      const { here, there } = await both(doc);
      let library: unknown;
      try {
        await SwaggerParser.validate(structuredClone(doc) as never, { resolve: { external: false } } as never);
      } catch (e) {
        library = { message: (e as Error).message, details: (e as { details?: unknown }).details };
      }
      expect(here).toEqual(library);
      expect(there).toEqual(library);
      if (drop) expect((here as { message: string }).message.match(/description/g)?.length).toBe(3);
    },
  );

  it("a chain of 3,000 $refs overflows the stack in both places (the worker's stack is this thread's size)", async () => {
    const schemas: Record<string, unknown> = {};
    for (let i = 0; i < 3000; i++)
      schemas[`S${i}`] =
        i + 1 < 3000
          ? { type: 'object', properties: { next: { $ref: `#/components/schemas/S${i + 1}` } } }
          : { type: 'object' };
    const { here, there } = await both({
      openapi: '3.1.0',
      info: { title: 't', version: '1' },
      paths: {},
      components: { schemas },
    });
    expect(here?.message).toMatch(/Maximum call stack size exceeded/);
    expect(there).toEqual(here);
  });

  it.each([
    ['dies at start', "throw new Error('no worker today')"],
    ['exits without an answer', 'process.exit(3)'],
    ['never reads its message but ends', "require('node:worker_threads').parentPort.close()"],
  ])('a worker that %s gives way to validation here, with the same outcome', async (_name, source) => {
    const valid = await docOf(SPEC);
    expect(await new ValidationWorker(source).validate(valid)).toEqual({ failure: undefined, thread: 'main' });
    const invalid = await docOf(await specWith((doc) => void delete deskList(doc).description));
    const fallback = await new ValidationWorker(source).validate(invalid);
    expect(fallback.thread).toBe('main');
    expect(fallback.failure).toEqual((await new SpecValidation('inline').validate(invalid)).failure);
  });

  it('the bundled form is kept: validation dereferences a copy, in both places', async () => {
    const doc = await docOf(SPEC);
    const before = JSON.stringify(doc);
    await both(doc);
    expect(JSON.stringify(doc)).toBe(before);
  });
});

describe('a large spec is validated while the state is built, and its problems still come first', () => {
  it('a large spec is validated on a worker thread, a small one on this thread', async () => {
    expect(await (await bundleSpec(await specWith(large))).validated).toBe('worker');
    expect(await (await bundleSpec(SPEC)).validated).toBe('main');
  });

  it('a valid large spec loads as a small one does', async () => {
    const root = await specWith(large);
    const state = await loadState({ specFile: root, fixturesDir: FIXTURES, seed: 1, defaultGenerateCount: 25 });
    expect(state.model.collections.size).toBe(20);
    expect(state.spec.doc).toEqual((await loadSpec(root)).doc);
  });

  it('an invalid large spec stops the load with its validation problems, not what was built from it', async () => {
    // The desk list's 200 answer loses its description (the OpenAPI 3.1 schema refuses it) and its
    // content (the stub, reading operations meanwhile, finds a GET it cannot serve).
    const root = await specWith((doc) => {
      large(doc);
      delete deskList(doc).description;
      delete deskList(doc).content;
    });
    const problems = await problemsOf(
      loadState({ specFile: root, fixturesDir: FIXTURES, seed: 1, defaultGenerateCount: 25 }),
    );
    expect(problems.join('\n')).toMatch(
      /paths\/~1api~1v1~1desk\/get\/responses\/200: a response lacks the required field `description`/,
    );
    expect(problems.join('\n')).not.toMatch(/cannot serve/);
    // As loadSpec, validating on this thread before anything is built, reports it.
    expect(await problemsOf(loadSpec(root))).toEqual(problems);
  });

  it("a large spec whose only problem is the stub's own is told that problem", async () => {
    const root = await specWith((doc) => {
      large(doc);
      // A PUT on a collection path: valid OpenAPI that DRF's router cannot route.
      (doc.paths['/api/v1/desk'] as Record<string, unknown>).put = {
        operationId: 'replaceDesks',
        responses: { '200': { description: 'never' } },
      };
    });
    expect(
      (await problemsOf(loadState({ specFile: root, fixturesDir: FIXTURES, seed: 1, defaultGenerateCount: 25 }))).join(
        '\n',
      ),
    ).toMatch(/PUT on a collection path/);
  });
});
