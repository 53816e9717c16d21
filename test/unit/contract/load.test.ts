import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadContract } from '../../../src/contract/load.js';
import { LoadError } from '../../../src/load/errors.js';
import { DEFAULTS } from '../../../src/server/config.js';
import { thingListSpec } from '../../spec-parts.js';

const dir = await mkdtemp(path.join(tmpdir(), 'contract-load-'));
afterAll(() => rm(dir, { recursive: true, force: true }));

/** A spec of one collection whose item schema carries `extra`. */
async function spec(name: string, extra: object = {}): Promise<string> {
  const file = path.join(dir, name);
  const page = {
    type: 'object',
    required: ['count', 'results'],
    properties: {
      count: { type: 'integer' },
      results: { type: 'array', items: { type: 'object', properties: { pk: { type: 'integer' } }, ...extra } },
    },
  };
  const doc = thingListSpec(page);
  await writeFile(file, JSON.stringify(doc));
  return file;
}

describe('loadContract: the spec read once, its operations and validators ready', () => {
  it('the bundled spec: every collection, a validator for every declared response', async () => {
    const c = await loadContract(DEFAULTS.specFile);
    expect(c.spec.rootFile).toBe(DEFAULTS.specFile);
    expect(c.operations.lists.map((l) => l.resource)).toContain('desk');
    const desk = c.operations.lists.find((l) => l.resource === 'desk');
    const pointer = desk?.responses['200']?.schemaPointer as string;
    expect(c.ajv.validate(pointer, { count: 0, next: null, previous: null, results: [] })).toEqual([]);
    expect(
      c.ajv.validate(pointer, { count: -1, next: null, previous: null, results: [] }).map((v) => v.pointer),
    ).toEqual(['/count']);
  });

  it('a spec of its own', async () => {
    const c = await loadContract(await spec('ok.json'));
    expect(c.operations.lists.map((l) => [l.path, l.operationId])).toEqual([['/api/v1/thing', 'listThings']]);
  });

  it.each<[string, () => Promise<string>, RegExp]>([
    [
      'an operation the model refuses: every problem, with its place',
      () => spec('bad.json', { 'x-stub-count': -1 }),
      /x-stub-count.*must be an integer from 0 to 100000/,
    ],
    ['no such file', async () => path.join(dir, 'missing.yaml'), /missing\.yaml/],
  ])('refused: %s', async (_name, file, message) => {
    const error = await loadContract(await file()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LoadError);
    expect((error as Error).message).toMatch(message);
  });
});
