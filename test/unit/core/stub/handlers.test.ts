import { describe, expect, it } from 'vitest';
import { itemUrlParts } from '../../../../src/core/drf/renderers.js';
import { LiveCollection } from '../../../../src/core/live.js';
import type { CollectionModel } from '../../../../src/core/model.js';
import { parseQuery } from '../../../../src/core/python/query.js';
import { collectionAccess, handlerRequest, paramNames } from '../../../../src/core/stub/handlers.js';
import { tinyModel } from '../tiny-model.js';

describe('the request a handler gets', () => {
  const headers: Record<string, string> = { 'x-trace': 't1', accept: 'application/json' };
  const request = handlerRequest({
    method: 'POST',
    path: '/api/v1/thing/3/ping',
    operationId: 'pingThing',
    paramNames: ['pk', 'extra'],
    params: ['3'],
    query: parseQuery('a=1&b=&a=2'),
    body: { x: 1 },
    header: (n) => headers[n],
    user: true,
  });

  it('its parts, each parameter by name, a query value the last given, all kept apart', () => {
    expect({ ...request, header: undefined }).toEqual({
      method: 'POST',
      path: '/api/v1/thing/3/ping',
      operationId: 'pingThing',
      params: { pk: '3', extra: '' },
      query: { a: '2', b: '' },
      queryAll: { a: ['1', '2'], b: [''] },
      body: { x: 1 },
      header: undefined,
      user: true,
    });
  });

  it.each<[string, string | undefined]>([
    ['x-trace', 't1'],
    ['X-Trace', 't1'],
    ['ACCEPT', 'application/json'],
    ['cookie', undefined],
  ])('header(%s)', (name, want) => {
    expect(request.header(name)).toBe(want);
  });

  it('cannot be changed by the handler', () => {
    expect([Object.isFrozen(request), Object.isFrozen(request.params), Object.isFrozen(request.query)]).toEqual([
      true,
      true,
      true,
    ]);
    expect(Object.isFrozen(request.queryAll)).toBe(true);
  });

  it.each<[string, string[]]>([
    ['/api/v1/thing', []],
    ['/api/v1/thing/{pk}', ['pk']],
    ['/api/v1/org/{org}/thing/{pk}/ping', ['org', 'pk']],
  ])('paramNames(%s)', (template, names) => {
    expect(paramNames(template)).toEqual(names);
  });
});

describe("a collection's items for a handler", () => {
  const access = (path = '/api/v1/thing') => {
    const model = tinyModel();
    const collection = model.collections.get(path) as CollectionModel;
    const live = new LiveCollection(collection);
    let changes = 0;
    const detail = collection.detail ?? { path: '', pkParam: 'pk' };
    const url = collection.withUrl ? itemUrlParts('http://h', detail, undefined, undefined) : undefined;
    const items = collectionAccess({ model, collection, live, pageSize: 10 }, url, () => void changes++);
    return { items, live, changes: () => changes };
  };

  it('all and get: plain copies without urls; by pk as number or text', () => {
    const { items } = access();
    const all = items.all();
    expect(all).toEqual([
      { pk: 1, name: 'one', size: 1 },
      { pk: 2, name: 'two', size: 2 },
      { pk: 10, name: 'ten', size: 10 },
    ]);
    (all[0] as Record<string, unknown>).name = 'changed';
    expect([items.get(1), items.get('10'), items.get(3)]).toEqual([
      { pk: 1, name: 'one', size: 1 },
      { pk: 10, name: 'ten', size: 10 },
      undefined,
    ]);
  });

  it("lookup: a path's {pk} text as get_object reads it, Python's int() for an integer pk", () => {
    const { items } = access();
    const texts = ['10', '010', '+10', ' 10\t', '1_0', '\u0661\u0660', '-0', 'ten', '10.0', '1__0', ''];
    expect(texts.map((t) => items.lookup(t))).toEqual([
      '10',
      '10',
      '10',
      '10',
      '10',
      '10',
      '0',
      ...Array(4).fill(undefined),
    ]);
    // Then found by get, as the view finds it.
    expect(items.get(items.lookup('\u0661\u0660') as string)).toEqual({ pk: 10, name: 'ten', size: 10 });
  });

  it("create: the next pk, the schema's defaults, other members given; served without writeOnly ones", () => {
    const { items, live, changes } = access();
    const made = items.create({ name: 'new', url: 'ignored', colour: 'red' });
    expect(made).toEqual({ pk: 11, name: 'new', secret: null, size: 3, colour: 'red' });
    expect(live.set.byPk.get('11')?.json).toBe('{"pk":11,"name":"new","size":3,"colour":"red"}');
    expect(changes()).toBe(1);
    expect(items.create({ pk: 40, name: 'own pk', secret: 's', size: 0 })).toEqual({
      pk: 40,
      name: 'own pk',
      secret: 's',
      size: 0,
    });
  });

  it('update and remove: the item of that pk, false or undefined when there is none', () => {
    const { items, changes } = access();
    expect(items.update(2, { name: 'TWO', url: 'ignored' })).toEqual({ pk: 2, name: 'TWO', size: 2 });
    expect(items.get(2)).toEqual({ pk: 2, name: 'TWO', size: 2 });
    expect(items.update(99, { name: 'x' })).toBeUndefined();
    expect(changes()).toBe(1);
    expect([items.remove('2'), items.remove(2), items.get(2)]).toEqual([true, false, undefined]);
    expect(changes()).toBe(2);
    expect(items.all().map((i) => i.pk)).toEqual([1, 10]);
  });

  it('represent: as the collection answers it, url first, members in order, writeOnly ones out', () => {
    const { items } = access();
    expect(JSON.stringify(items.represent({ size: 5, secret: 's', name: 'n', pk: 7, url: 'x' }))).toBe(
      '{"url":"http://h/api/v1/thing/7","pk":7,"name":"n","size":5}',
    );
  });

  it("rows without a pk field: each by its row's pk", () => {
    const { items } = access('/api/v1/row');
    expect([items.get(2), items.get('3')]).toEqual([{ name: 'b' }, undefined]);
    expect(items.create({ name: 'c' })).toEqual({ name: 'c' });
    expect(items.get(3)).toEqual({ name: 'c' });
  });
});
