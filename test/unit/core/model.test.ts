import { describe, expect, it } from 'vitest';
import { compileModel, compileSnapshot, shapeOf } from '../../../src/core/model.js';
import { SNAPSHOT_FORMAT } from '../../../src/core/snapshot.js';
import { EMPTY_SET, prepareItems } from '../../../src/core/prepared-items.js';
import { readOperations } from '../../../src/openapi/operations.js';
import { TINY_SPEC, tinyModel } from './tiny-model.js';

const { operations } = readOperations(TINY_SPEC, 'tiny');
const listOf = (path: string) => operations.lists.find((l) => l.path === path) as (typeof operations.lists)[number];
const jsons = (set: { items: readonly { json: string }[] }) => set.items.map((i) => i.json);

describe("a collection's shape, read from the spec", () => {
  it.each<[string, unknown, ReturnType<typeof shapeOf>]>([
    [
      '/api/v1/thing',
      undefined,
      {
        fields: ['url', 'pk', 'name', 'secret', 'size'],
        writeOnly: ['secret'],
        withUrl: true,
        lookup: 'pk',
        pkParam: 'pk',
      },
    ],
    [
      '/api/v1/sorted',
      undefined,
      { fields: ['pk', 'rank', 'active'], writeOnly: [], withUrl: false, lookup: 'pk', pkParam: 'pk' },
    ],
    ['/api/v1/row', undefined, { fields: ['name'], writeOnly: [], withUrl: false, lookup: undefined, pkParam: 'pk' }],
    [
      '/api/v1/row',
      { id: 4, name: 'a' },
      { fields: ['name'], writeOnly: [], withUrl: false, lookup: 'id', pkParam: 'pk' },
    ],
  ])('%s (first item %j)', (path, sample, want) => {
    expect(shapeOf(TINY_SPEC, operations, listOf(path), sample)).toEqual(want);
  });
});

describe('the model of a snapshot', () => {
  it('holds each collection of the spec, in its order, with its source and count', () => {
    const model = tinyModel({
      '/api/v1/row': { source: 'generated', from: 'the schema', items: [{}, {}, {}], examples: {} },
    });
    expect(
      [...model.collections].map(([path, c]) => [
        path,
        c.source,
        c.from,
        c.count,
        c.list.operationId,
        c.detail?.operationId,
      ]),
    ).toEqual([
      ['/api/v1/thing', 'fixture', 'test', 3, 'listThings', 'getThing'],
      ['/api/v1/sorted', 'fixture', 'test', 4, 'listSorted', 'getSorted'],
      ['/api/v1/row', 'generated', 'the schema', 3, 'listRows', 'getRow'],
    ]);
    expect(model.authenticators).toEqual([{ kind: 'token', keyword: 'Token' }]);
    expect(model.spec).toBe(TINY_SPEC);
    const match = model.router.match('/api/v1/thing/3');
    expect(match?.kind === 'route' ? [match.route.path, match.params] : match).toEqual(['/api/v1/thing/{pk}', ['3']]);
  });

  it("serves items without their writeOnly members and their own url, members in the schema's order", () => {
    const thing = tinyModel().collections.get('/api/v1/thing');
    expect(jsons(thing?.items ?? EMPTY_SET)).toEqual([
      '{"pk":1,"name":"one","size":1}',
      '{"pk":2,"name":"two","size":2}',
      '{"pk":10,"name":"ten","size":10}',
    ]);
    expect(thing?.items.byPk.get('10')?.json).toBe('{"pk":10,"name":"ten","size":10}');
    // No parameter the list declares filters, searches, orders or sizes pages.
    expect(thing?.filters).toEqual({
      fields: [],
      search: undefined,
      ordering: undefined,
      pageSize: undefined,
      unsupported: [],
    });
  });

  it("numbers the rows of items without a lookup field, as Django's AutoField would", () => {
    const row = tinyModel().collections.get('/api/v1/row');
    expect(row?.items.items.map((i) => [i.pk, i.json])).toEqual([
      ['1', '{"name":"a"}'],
      ['2', '{"name":"b"}'],
    ]);
    expect(row?.items.byPk.get('2')?.json).toBe('{"name":"b"}');
  });

  it('named examples and dynamic items, each a set of its own; none where the snapshot has none', () => {
    const model = tinyModel();
    const thing = model.collections.get('/api/v1/thing');
    expect([...(thing?.examples.keys() ?? [])]).toEqual(['two', 'none']);
    expect(jsons(thing?.examples.get('two') ?? EMPTY_SET)).toEqual([
      '{"pk":7,"name":"seven"}',
      '{"pk":8,"name":"eight"}',
    ]);
    expect(thing?.examples.get('none')).toBe(EMPTY_SET);
    expect([thing?.examples.has('two'), thing?.examples.has('three'), thing?.examples.get('three')]).toEqual([
      true,
      false,
      undefined,
    ]);
    expect(jsons(thing?.dynamic ?? EMPTY_SET)).toEqual(['{"pk":100,"name":"made up","size":5}']);
    expect(model.collections.get('/api/v1/sorted')?.dynamic).toBeUndefined();
  });

  it('a collection the snapshot has no items for: empty, from nothing', () => {
    const model = compileSnapshot({ format: SNAPSHOT_FORMAT, spec: TINY_SPEC, collections: {}, generatedBodies: {} });
    const row = model.collections.get('/api/v1/row');
    expect([row?.source, row?.from, row?.count, row?.items]).toEqual(['empty', 'nothing', 0, EMPTY_SET]);
    expect([model.generatedBodies, model.fixtureBodies]).toEqual([{}, {}]);
  });

  it('items made on first use, once; counted before; prepared ones used as they are', () => {
    let made = 0;
    const prepared = prepareItems([{ pk: 5, rank: 1, active: true }], {
      fields: ['pk', 'rank', 'active'],
      withUrl: false,
      pkField: 'pk',
    });
    const model = compileModel(
      TINY_SPEC,
      operations,
      {
        '/api/v1/thing': {
          source: 'generated',
          from: 'the schema',
          items: { lazy: () => (made++, [{ pk: 1, name: 'a' }]), count: 1 },
          examples: {},
        },
        '/api/v1/sorted': { source: 'fixture', from: 'sorted.json', items: { prepared }, examples: {} },
      },
      { 'a 200': 1 },
      { b: 2 },
    );
    const thing = model.collections.get('/api/v1/thing');
    expect([made, thing?.count]).toEqual([0, 1]);
    expect(jsons(thing?.items ?? EMPTY_SET)).toEqual(['{"pk":1,"name":"a"}']);
    expect(thing?.items).toBe(thing?.items);
    expect(made).toBe(1);
    expect(model.collections.get('/api/v1/sorted')?.items).toBe(prepared);
    expect(model.collections.get('/api/v1/sorted')?.count).toBe(1);
    expect([model.generatedBodies, model.fixtureBodies]).toEqual([{ 'a 200': 1 }, { b: 2 }]);
  });

  it('a snapshot whose spec cannot be served is refused, with its problems', () => {
    const spec = {
      ...TINY_SPEC,
      paths: { ...TINY_SPEC.paths, '/api/v1/row': { ...TINY_SPEC.paths['/api/v1/row'], put: { responses: {} } } },
    };
    expect(() => compileSnapshot({ format: SNAPSHOT_FORMAT, spec, collections: {}, generatedBodies: {} })).toThrow(
      /^the snapshot's spec cannot be served:\n.*\/paths\/~1api~1v1~1row\/put.*PUT on a collection path/,
    );
    expect(() => compileSnapshot({ format: 'x' })).toThrow(/not a stub snapshot/);
  });
});
