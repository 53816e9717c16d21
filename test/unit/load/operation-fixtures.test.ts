import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_LOAD_LIMITS } from '../../../src/load/limits.js';
import { readOperationFixtures } from '../../../src/load/operation-fixtures.js';
import { ContractAjv } from '../../../src/openapi/ajv.js';
import { readOperations } from '../../../src/openapi/operations.js';
import { smallSpec } from './helpers.js';

// Two views naming a fixture (x-stub-fixture): one answers a count, one anything.
const DOC = smallSpec(
  {},
  {
    paths: {
      '/api/v1/stats': {
        get: {
          operationId: 'stats',
          'x-stub-fixture': 'stats',
          responses: {
            '200': {
              description: 'ok',
              content: {
                'application/json': {
                  schema: { type: 'object', required: ['count'], properties: { count: { type: 'integer' } } },
                },
              },
            },
          },
        },
      },
      '/api/v1/anything': {
        get: {
          operationId: 'anything',
          'x-stub-fixture': 'anything.json',
          responses: { '200': { description: 'ok' } },
        },
      },
      '/api/v1/plain': { get: { operationId: 'plain', responses: { '200': { description: 'ok' } } } },
    },
  },
);
const { operations } = readOperations(DOC, 'openapi.json');
const ajv = new ContractAjv(DOC);
const STATS = '#/paths/~1api~1v1~1stats/get';
const ANYTHING = '#/paths/~1api~1v1~1anything/get';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'operation-fixtures-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The two fixtures written (undefined: not written) into a folder of their own, then read. */
async function read(stats: string | undefined, anything: string | undefined, limits = DEFAULT_LOAD_LIMITS) {
  const folder = await mkdtemp(path.join(dir, 'f-'));
  if (stats !== undefined) await writeFile(path.join(folder, 'stats.json'), stats);
  if (anything !== undefined) await writeFile(path.join(folder, 'anything.json'), anything);
  const out = await readOperationFixtures(operations, folder, ajv, limits);
  expect(out.files).toEqual([path.join(folder, 'stats.json'), path.join(folder, 'anything.json')]);
  return {
    bodies: out.bodies,
    problems: out.problems.map((p) => `${path.basename(p.file)} ${p.pointer}: ${p.reason}`),
  };
}

describe('readOperationFixtures: the bodies of operations that name a fixture', () => {
  it.each<[string, string | undefined, string | undefined, Record<string, unknown>, string[]]>([
    ['both valid: any JSON value', '{"count": 3}', 'false', { [STATS]: { count: 3 }, [ANYTHING]: false }, []],
    ['a bare array', '{"count": 0}', '[1, "two"]', { [STATS]: { count: 0 }, [ANYTHING]: [1, 'two'] }, []],
    [
      'a body its success schema refuses: told, and kept',
      '{"count": "3"}',
      'null',
      { [STATS]: { count: '3' }, [ANYTHING]: null },
      ['stats.json /count: must be integer'],
    ],
    [
      'missing: the operation names it',
      undefined,
      '1',
      { [ANYTHING]: 1 },
      ['stats.json : stats names this fixture (x-stub-fixture), which does not exist'],
    ],
    ['invalid JSON', '{"count": }', '1', { [ANYTHING]: 1 }, [expect.stringMatching(/^stats\.json : invalid JSON: /)]],
  ] as [string, string | undefined, string | undefined, Record<string, unknown>, string[]][])(
    '%s',
    async (_name, stats, anything, bodies, problems) => {
      expect(await read(stats, anything)).toEqual({ bodies, problems });
    },
  );

  it('not UTF-8: refused, placed', async () => {
    const folder = await mkdtemp(path.join(dir, 'h-'));
    await writeFile(path.join(folder, 'stats.json'), Buffer.from([0x7b, 0x0a, 0x20, 0xe9, 0x7d]));
    await writeFile(path.join(folder, 'anything.json'), '1');
    const out = await readOperationFixtures(operations, folder, ajv);
    expect(out.problems.map((p) => [path.basename(p.file), p.pointer, p.reason])).toEqual([
      ['stats.json', 'line 2:2', 'is not valid UTF-8 (byte E9): save the file as UTF-8'],
    ]);
    expect(out.bodies).toEqual({ [ANYTHING]: 1 });
  });

  it('nested deeper than the limit: refused from the text, never parsed', async () => {
    const limits = { ...DEFAULT_LOAD_LIMITS, maxDepth: 3 };
    expect(await read('{"count": 1}', '[[[[1]]]]', limits)).toEqual({
      bodies: { [STATS]: { count: 1 } },
      problems: ['anything.json : nested deeper than 3 levels'],
    });
  });

  it('a fixture named that is a folder: why it cannot be read', async () => {
    const folder = await mkdtemp(path.join(dir, 'g-'));
    await mkdir(path.join(folder, 'stats.json'));
    await writeFile(path.join(folder, 'anything.json'), '1');
    const out = await readOperationFixtures(operations, folder, ajv);
    expect(out.problems.map((p) => [path.basename(p.file), p.reason])).toEqual([
      ['stats.json', 'cannot read the file (EISDIR): a directory, not a regular file'],
    ]);
  });

  it('no operation names a fixture: nothing read, the folder not even looked at', async () => {
    const none = readOperations(smallSpec({}), 'openapi.json').operations;
    expect(await readOperationFixtures(none, path.join(dir, 'absent'), ajv)).toEqual({
      bodies: {},
      files: [],
      problems: [],
    });
  });
});
