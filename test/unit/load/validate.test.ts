import { cp, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { LoadError } from '../../../src/core/errors.js';
import { bundleSpec, loadSpec } from '../../../src/load/spec.js';
import { loadState } from '../../../src/load/state.js';
import { OFF_THREAD_MIN_CHARS, validateBundled } from '../../../src/load/validate.js';
import { FIXTURES, SPEC } from '../../helpers.js';

type Doc = { info: Record<string, unknown>; paths: Record<string, { get: { responses: Record<string, Record<string, unknown>> } }>; components: { schemas: Record<string, unknown> } };

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

  it('a valid spec passes in both places', async () => {
    const doc = await docOf(SPEC);
    expect(await validateBundled(doc, 0, 'inline')).toBeUndefined();
    expect(await validateBundled(doc, 0, 'worker')).toBeUndefined();
  });

  it.each<[string, (doc: Doc) => void, RegExp]>([
    ['a response without its description (the OpenAPI 3.1 schema)', (doc) => void delete deskList(doc).description, /must have required property 'description'/],
    [
      'a response that is a $ref to a schema (found only once dereferenced)',
      (doc) => void ((doc.paths['/api/v1/desk'] as Doc['paths'][string]).get.responses['404'] = { $ref: '#/components/schemas/Desk' }),
      /responses\/404 must NOT have unevaluated properties/,
    ],
  ])('%s: the same failure, message and details, in both places', async (_name, edit, expected) => {
    const { doc } = (await bundleSpec(await specWith(edit), undefined, undefined, 'inline')).spec;
    const here = await validateBundled(doc, 0, 'inline');
    const there = await validateBundled(doc, 0, 'worker');
    expect(`${here?.message} ${JSON.stringify(here?.details)}`).toMatch(expected);
    expect(there).toEqual(here);
  });

  it('the bundled form is kept: validation dereferences a copy, in both places', async () => {
    const doc = await docOf(SPEC);
    const before = JSON.stringify(doc);
    await validateBundled(doc, 0, 'inline');
    await validateBundled(doc, 0, 'worker');
    expect(JSON.stringify(doc)).toBe(before);
  });
});

describe('a large spec is validated while the state is built, and its problems still come first', () => {
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
    const problems = await problemsOf(loadState({ specFile: root, fixturesDir: FIXTURES, seed: 1, defaultGenerateCount: 25 }));
    expect(problems.join('\n')).toMatch(/paths\/~1api~1v1~1desk\/get\/responses\/200: must have required property 'description'.*\(OpenAPI 3\.1 schema\)/);
    expect(problems.join('\n')).not.toMatch(/cannot serve/);
    // As loadSpec, validating on this thread before anything is built, reports it.
    expect(await problemsOf(loadSpec(root))).toEqual(problems);
  });

  it('a large spec whose only problem is the stub\'s own is told that problem', async () => {
    const root = await specWith((doc) => {
      large(doc);
      deskList(doc).content = { 'application/json': { schema: { type: 'object' } } };
    });
    expect((await problemsOf(loadState({ specFile: root, fixturesDir: FIXTURES, seed: 1, defaultGenerateCount: 25 }))).join('\n')).toMatch(/cannot serve/);
  });
});
