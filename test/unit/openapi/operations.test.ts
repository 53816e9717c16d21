import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readOperations, statusRecord } from '../../../src/openapi/operations.js';
import { loadState } from '../../../src/load/state.js';
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
