import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readOperations, statusRecord } from '../../../src/openapi/operations.js';
import {
  appendPointer,
  type At,
  childAt,
  follow,
  followChild,
  followFrom,
  getAt,
  getFrom,
} from '../../../src/openapi/pointer.js';
import { loadState } from '../../../src/load/state.js';
import { lintSchemas } from '../../../src/load/schema-lint.js';
import { ContractAjv } from '../../../src/openapi/ajv.js';
import { ask, coreOf } from '../../helpers.js';

const ROOM = {
  type: 'object',
  required: ['pk', 'name'],
  properties: { pk: { type: 'integer' }, name: { type: 'string' } },
  examples: [{ pk: 1, name: 'Boardroom' }],
};
const okList = {
  description: 'One page.',
  content: {
    'application/json': {
      schema: {
        type: 'object',
        required: ['count', 'next', 'previous', 'results'],
        properties: {
          count: { type: 'integer' },
          next: { type: ['string', 'null'] },
          previous: { type: ['string', 'null'] },
          results: { type: 'array', items: { $ref: '#/components/schemas/Room' } },
        },
      },
    },
  },
};

// OpenAPI 3.1 lets a Path Item be a `$ref` (components.pathItems): its operations are the target's.
const PATH_ITEM_SPEC = {
  openapi: '3.1.0',
  info: { title: 'Path Item refs', version: '1' },
  paths: {
    '/api/v1/room': { $ref: '#/components/pathItems/Rooms' },
    '/api/v1/room/{pk}': { $ref: '#/components/pathItems/Room' },
  },
  components: {
    schemas: { Room: ROOM },
    pathItems: {
      Rooms: {
        get: { operationId: 'listRooms', responses: { '200': okList } },
        post: {
          operationId: 'createRoom',
          requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Room' } } } },
          responses: {
            '201': {
              description: 'Created.',
              content: { 'application/json': { schema: { $ref: '#/components/schemas/Room' } } },
            },
          },
        },
      },
      Room: {
        parameters: [{ name: 'pk', in: 'path', required: true, schema: { type: 'integer' } }],
        get: {
          operationId: 'getRoom',
          responses: {
            '200': {
              description: 'One room.',
              content: { 'application/json': { schema: { $ref: '#/components/schemas/Room' } } },
            },
          },
        },
      },
    },
  },
};

describe('readOperations', () => {
  it('reads a Path Item that is a $ref from its target: the collection, its POST and its item path are served', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'path-item-ref-'));
    await mkdir(path.join(dir, 'fixtures'));
    await writeFile(path.join(dir, 'openapi.json'), JSON.stringify(PATH_ITEM_SPEC));
    const state = await loadState({
      specFile: path.join(dir, 'openapi.json'),
      fixturesDir: path.join(dir, 'fixtures'),
      seed: 1,
      defaultGenerateCount: 3,
    });
    const list = state.model.collections.get('/api/v1/room');
    expect(list?.list).toMatchObject({
      operationId: 'listRooms',
      pointer: '#/components/pathItems/Rooms/get',
      itemPointer: '#/components/schemas/Room',
    });
    const route = state.model.operations.routes.find((r) => r.path === '/api/v1/room');
    expect([...(route?.methods.keys() ?? [])]).toEqual(['GET', 'POST']);
    expect(state.model.operations.detailOf.get('/api/v1/room')).toMatchObject({
      operationId: 'getRoom',
      pkParam: 'pk',
      pkIsInteger: true,
    });
    const core = coreOf(state);
    expect(JSON.parse(ask(core, '/api/v1/room').body.toString())).toMatchObject({
      count: 1,
      results: [{ pk: 1, name: 'Boardroom' }],
    });
    expect(JSON.parse(ask(core, '/api/v1/room/1').body.toString())).toEqual({ pk: 1, name: 'Boardroom' });
  });

  it('an operation that is a dangling $ref is read with its defaults, not a crash (validation says why)', () => {
    const doc = structuredClone(PATH_ITEM_SPEC) as Record<string, unknown>;
    const room = (doc.components as { pathItems: { Room: Record<string, unknown> } }).pathItems.Room;
    room.put = { $ref: '#/components/nowhere' };
    const { operations } = readOperations(doc, 'openapi.json');
    expect(operations.writes.find((w) => w.method === 'PUT')).toMatchObject({
      operationId: 'put /api/v1/room/{pk}',
      summary: '',
      bodyPointer: undefined,
    });
  });

  it('a path with a lone `%` (not percent-encoding) is read as written, not a URIError', () => {
    const doc = structuredClone(PATH_ITEM_SPEC) as {
      paths: Record<string, unknown>;
      components: { pathItems: Record<string, unknown> };
    };
    doc.paths = { '/api/v1/100%': doc.components.pathItems.Rooms };
    const { operations, problems } = readOperations(doc, 'openapi.json');
    expect(problems).toEqual([]);
    expect(operations.lists.map((l) => [l.path, l.pointer, l.itemPointer])).toEqual([
      ['/api/v1/100%', '#/paths/~1api~1v1~1100%/get', '#/components/schemas/Room'],
    ]);
  });
});

describe('lintSchemas', () => {
  it('walks nested schemas from their parent: a property named with `%` is checked where it stands', () => {
    const doc = {
      components: {
        schemas: {
          Room: { type: 'object', properties: { '100%': { type: 'string', maxLenght: 3 }, 'a%20b': { typo: true } } },
        },
      },
    };
    const { problems } = lintSchemas(doc, new ContractAjv(doc), ['#/components/schemas/Room'], 'openapi.json');
    expect(problems.map((p) => [p.pointer, p.reason.split(' (')[0]])).toEqual([
      ['/components/schemas/Room/properties/a%20b/typo', 'unknown keyword "typo"'],
      ['/components/schemas/Room/properties/100%/maxLenght', 'unknown keyword "maxLenght"'],
    ]);
  });
});

describe('lintSchemas: a schema that is only a $ref', () => {
  it.each([
    '#/components/schemas/Room',
    '#/a%20b',
    'other.yaml#/X',
    'http://example.org/s#/x',
    '#anchor',
    '',
    'a b',
    '#/a b',
    '%zz',
    '\\',
    'http://[bad',
    'ht tp://x',
    '#/\u00e9',
    5,
    null,
    ['#/x'],
    { $ref: '#/x' },
  ])('$ref %j: the meta-schema verdict, told as it would tell it', (ref) => {
    const doc = { components: { schemas: { R: { $ref: ref as unknown } } } };
    const ajv = new ContractAjv(doc);
    const { problems } = lintSchemas(doc, ajv, ['#/components/schemas/R'], 'openapi.json');
    const valid = ajv.ajv.validateSchema({ $ref: ref as unknown });
    const expected = valid ? [] : (ajv.ajv.errors ?? []).map((e) => `/components/schemas/R${e.instancePath}`);
    expect(problems.filter((p) => p.reason.startsWith('invalid JSON Schema')).map((p) => p.pointer)).toEqual(expected);
  });

  it('a $ref with a sibling keyword is run through the meta-schema whole', () => {
    const doc = {
      components: { schemas: { R: { $ref: '#/components/schemas/R2', minLength: 'two' }, R2: { type: 'string' } } },
    };
    const { problems } = lintSchemas(doc, new ContractAjv(doc), ['#/components/schemas/R'], 'openapi.json');
    expect(problems.map((p) => p.pointer)).toEqual(['/components/schemas/R/minLength']);
  });
});

describe('statusRecord', () => {
  it('is a plain record: the keys, their order and the values of `{}` given the same assignments', () => {
    const keys = ['404', 'default', '200', '2XX', '201', '500', '405'];
    const plain: Record<string, number> = {};
    const record = statusRecord<number>();
    keys.forEach((k, i) => {
      plain[k] = i;
      record[k] = i;
    });
    expect(Object.keys(record)).toEqual(Object.keys(plain));
    expect(Object.entries(record)).toEqual(Object.entries(plain));
    expect(JSON.stringify(record)).toBe(JSON.stringify(plain));
    expect(Object.getPrototypeOf(record)).toBe(Object.prototype);
  });
});

describe('childAt, followChild, getFrom and followFrom: what getAt and follow answer from the root, walked from a node at hand', () => {
  // Random documents of objects, arrays and internal $refs (dangling, cyclic, self, to the root),
  // with keys that need escaping (`/`, `~`) or look percent-encoded.
  function randomDoc(seed: number): { doc: Record<string, unknown>; pointers: string[] } {
    let s = seed;
    const rnd = () => (s = (s * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
    const keys = ['a', 'b', 'c/d', 'e~f', 'g%20h', 'i j', '0', '1'];
    const pointers: string[] = ['#'];
    const refs: Record<string, unknown>[] = [];
    const make = (depth: number, at: string): unknown => {
      const r = rnd();
      if (depth > 3 || r < 0.15) return r < 0.05 ? null : Math.floor(r * 100);
      if (r < 0.3) {
        const ref = { $ref: '' };
        refs.push(ref);
        return ref;
      }
      if (r < 0.45) {
        const arr: unknown[] = [];
        for (let i = 0; i < 1 + Math.floor(rnd() * 3); i++) arr.push(make(depth + 1, appendPointer(at, i)));
        arr.forEach((_, i) => pointers.push(appendPointer(at, i)));
        return arr;
      }
      const obj: Record<string, unknown> = {};
      for (const k of keys) if (rnd() < 0.4) obj[k] = make(depth + 1, appendPointer(at, k));
      for (const k of Object.keys(obj)) pointers.push(appendPointer(at, k));
      return obj;
    };
    const doc = make(0, '#') as Record<string, unknown>;
    const root = doc !== null && typeof doc === 'object' ? doc : { a: doc };
    for (const ref of refs)
      ref.$ref =
        rnd() < 0.1 ? '#/nowhere' : rnd() < 0.1 ? '#/g%20h' : (pointers[Math.floor(rnd() * pointers.length)] ?? '#');
    return { doc: root, pointers };
  }

  it('agree on 150 random documents, every pointer, every token', () => {
    const tokens: (string | number)[] = ['a', 'b', 'c/d', 'e~f', 'g%20h', 'i j', '0', 0, 1, '$ref', 'none'];
    let compared = 0;
    for (let seed = 1; seed <= 150; seed++) {
      const { doc, pointers } = randomDoc(seed);
      for (const p of pointers) {
        const fromGet: At = { pointer: p, node: getAt(doc, p) };
        const fromFollow = follow(doc, p);
        for (const t of tokens) {
          expect(getFrom(doc, fromGet, t)).toEqual({
            pointer: appendPointer(p, t),
            node: getAt(doc, appendPointer(p, t)),
          });
          expect(followFrom(doc, fromGet, t)).toEqual(follow(doc, appendPointer(p, t)));
          expect(followFrom(doc, fromFollow, t, 'a')).toEqual(follow(doc, appendPointer(fromFollow.pointer, t, 'a')));
          expect(getFrom(doc, fromFollow, 'a', t)).toEqual({
            pointer: appendPointer(fromFollow.pointer, 'a', t),
            node: getAt(doc, appendPointer(fromFollow.pointer, 'a', t)),
          });
          expect(childAt(doc, fromGet, t)).toEqual({
            pointer: appendPointer(p, t),
            node: getAt(doc, appendPointer(p, t)),
          });
          expect(followChild(doc, fromFollow, t)).toEqual(follow(doc, appendPointer(fromFollow.pointer, t)));
          compared += 6;
        }
        expect(followFrom(doc, fromGet)).toEqual(follow(doc, p));
        expect(getFrom(doc, fromFollow)).toEqual({ pointer: fromFollow.pointer, node: getAt(doc, fromFollow.pointer) });
      }
    }
    expect(compared).toBeGreaterThan(3_000);
  });
});
