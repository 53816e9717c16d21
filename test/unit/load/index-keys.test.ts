import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { compactIndexKeys } from '../../../src/load/index-keys.js';
import { bundleSpec } from '../../../src/load/spec.js';

setFlagsFromString('--expose-gc');
setFlagsFromString('--allow-natives-syntax');
const gc = runInNewContext('gc') as () => void;
/** Whether V8 keeps an object's index-named members in a dictionary (its intrinsic, allowed above). */
const dictionaryElements = new Function('o', 'return %HasDictionaryElements(o)') as (o: object) => boolean;

/** An object built member by member, as the yaml package's toJS builds a map. */
function built(entries: [string, unknown][]): Record<string, unknown> {
  const o: Record<string, unknown> = {};
  for (const [k, v] of entries) o[k] = v;
  return o;
}

const heapAfterGc = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};

describe('compactIndexKeys: index-named members kept as JSON.parse keeps them', () => {
  it('leaves every member, its order and its value as they were, each object once', () => {
    const shared = built([['404', { description: 'x' }]]);
    const doc = {
      paths: {
        '/a': {
          get: {
            responses: built([
              ['200', { description: 'ok' }],
              ['default', 1],
              ['404', shared],
            ]),
          },
        },
        '/b': { get: { responses: shared } },
      },
      list: [
        built([
          ['0', 'a'],
          ['10', 'b'],
        ]),
        [shared],
      ],
      keys: built([
        ['007', 1],
        ['4294967295', 2],
        ['4294967294', 3],
        ['-1', 4],
        ['1.5', 5],
        ['9', 6],
      ]),
    };
    const before = JSON.stringify(doc);
    const order = (o: object) => Object.keys(o);
    const orders = [doc.paths['/a'].get.responses, shared, doc.list[0] as object, doc.keys].map(order);
    compactIndexKeys(doc);
    expect(JSON.stringify(doc)).toBe(before);
    expect([doc.paths['/a'].get.responses, shared, doc.list[0] as object, doc.keys].map(order)).toEqual(orders);
    expect(doc.paths['/b'].get.responses).toBe(shared);
    expect(Object.hasOwn(shared, String(2 ** 31))).toBe(false);
  });

  it('a map of status codes takes a few hundred bytes, not an array of as many slots as its largest code', () => {
    const maps: Record<string, unknown>[] = [];
    for (let i = 0; i < 4000; i++)
      maps.push(
        built([
          ['200', i],
          ['400', i],
          ['404', i],
        ]),
      );
    const built_ = heapAfterGc();
    compactIndexKeys(maps);
    const compacted = heapAfterGc();
    // About 5 KB each before (405 slots), about 240 bytes after.
    expect((built_ - compacted) / maps.length).toBeGreaterThan(2000);
    expect(maps[3999]).toEqual({ 200: 3999, 400: 3999, 404: 3999 });
  });

  it('the bundled document of a spec is compacted: its responses as JSON.parse keeps them', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'index-keys-'));
    try {
      const file = path.join(dir, 'openapi.yaml');
      const ok = { description: 'ok', content: { 'application/json': { schema: { type: 'object' } } } };
      const paths = Object.fromEntries(
        Array.from({ length: 30 }, (_, i) => [
          `/c${i}`,
          { get: { responses: { 200: ok, 404: { description: 'no' } } } },
        ]),
      );
      await writeFile(file, stringify({ openapi: '3.1.0', info: { title: 't', version: '1' }, paths }));
      const { spec } = await bundleSpec(file);
      const responses = Object.values(spec.doc.paths as Record<string, { get: { responses: object } }>).map(
        (item) => item.get.responses,
      );
      expect(responses).toHaveLength(30);
      expect(responses.filter((r) => !dictionaryElements(r))).toEqual([]);
      expect(responses[0]).toEqual({ 200: ok, 404: { description: 'no' } });
      // What the check tells: a map built member by member is not, JSON.parse's is.
      expect([built([['200', 1]]), JSON.parse('{"200":1}')].map(dictionaryElements)).toEqual([false, true]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
