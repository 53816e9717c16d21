import { describe, expect, it } from 'vitest';
import { FieldColumns } from '../../../src/core/field-columns.js';
import { LiveCollection, prepareQueryset, QuerysetOrder } from '../../../src/core/live.js';
import type { CollectionModel } from '../../../src/core/model.js';
import type { ItemSet, PreparedItem } from '../../../src/core/prepared-items.js';
import { tinyModel } from './tiny-model.js';

const live = (path: string, items?: unknown[]) => {
  const model = tinyModel(items ? { [path]: { source: 'fixture', from: 'test', items, examples: {} } } : {});
  return new LiveCollection(model.collections.get(path) as CollectionModel);
};
const pks = (set: ItemSet) => set.items.map((i) => i.pk);
const at = (l: LiveCollection, pk: string) => l.set.byPk.get(pk) as PreparedItem;

describe('QuerysetOrder: rows followed one at a time, do they stand as the queryset holds them?', () => {
  const q = {
    filter: { active: true },
    ordering: [
      { field: 'building', desc: false },
      { field: 'floor', desc: true },
    ],
    anonymous: 'all' as const,
    anonymousModel: undefined,
  };
  const row = (building: unknown, floor: unknown, active: unknown = true) => ({ building, floor, active });
  it.each<[string, Record<string, unknown>[], boolean[]]>([
    ['no row', [], []],
    ['in order; ties stand', [row('P', 2), row('P', 2), row('P', 1), row('S', 9)], [true, true, true, true]],
    [
      'a row the filter leaves out, and every answer after it',
      [row('P', 2), row('P', 1, false), row('S', 1)],
      [true, false, false],
    ],
    ['a row before the one it follows', [row('S', 1), row('P', 1)], [true, false]],
    ['descending: a higher floor after a lower one', [row('S', 1), row('S', 2)], [true, false]],
    ['code points: "Z" before "a", "a" before "é"', [row('Z', 1), row('a', 1), row('é', 1)], [true, true, true]],
    ['null first, as SQLite orders NULL ascending', [row(null, 1), row('A', 1)], [true, true]],
  ])('%s', (_name, rows, want) => {
    const order = new QuerysetOrder(q);
    expect(rows.map((r) => order.nextMembers(r))).toEqual(want);
    expect(order.holds).toBe(want.every(Boolean));
  });

  it('reads the fields of the filter and the ordering, each once', () => {
    expect(new QuerysetOrder(q).fields).toEqual(['active', 'building', 'floor']);
    expect(new QuerysetOrder({ ...q, filter: { floor: 1 } }).fields).toEqual(['floor', 'building']);
  });
});

describe('prepareQueryset: the queryset made ahead of the first request, a chunk at a time', () => {
  const rows = (n: number, inOrder: boolean) =>
    Array.from({ length: n }, (_, i) => ({ pk: i + 1, rank: inOrder ? n - i : (i * 7919) % n, active: i % 10 !== 3 }));
  it.each<[string, number, boolean, number]>([
    ['in order, all kept: the snapshot set itself, paused between chunks', 45_000, true, 2],
    ['out of order: sorted as the first request would, after the pass', 45_000, false, 0],
    ['small: no pause', 10, true, 0],
  ])('%s', async (_name, n, inOrder, pauses) => {
    const items = rows(n, inOrder).map((r) => (inOrder ? { ...r, active: true } : r));
    const prepared = live('/api/v1/sorted', items);
    let paused = 0;
    await prepareQueryset(prepared.model, async () => {
      paused++;
    });
    expect(paused).toBe(pauses);
    // What a first request reads then is what it would have made itself, and made once.
    const fresh = live('/api/v1/sorted', items);
    expect(pks(prepared.set)).toEqual(pks(fresh.set));
    expect(prepared.set).toBe(new LiveCollection(prepared.model).set);
    if (inOrder) expect(prepared.set).toBe(prepared.model.items);
  });
});

describe("a collection's queryset before any write", () => {
  it.each<[string, unknown[] | undefined, (string | undefined)[]]>([
    ["the filter's items, in the model's ordering", undefined, ['2', '4', '1']],
    ['an empty table', [], []],
    [
      'items the ordering ties keep the fixture order',
      [
        { pk: 9, rank: 5, active: true },
        { pk: 3, rank: 5, active: true },
        { pk: 4, rank: 7, active: false },
      ],
      ['9', '3'],
    ],
  ])('%s', (_name, items, want) => {
    expect(pks(live('/api/v1/sorted', items).set)).toEqual(want);
  });

  it("the snapshot's own set where the queryset leaves it as it is", () => {
    const inOrder = [
      { pk: 2, rank: 9, active: true },
      { pk: 1, rank: 8, active: true },
    ];
    const sorted = live('/api/v1/sorted', inOrder);
    expect(sorted.set).toBe(sorted.model.items);
    const thing = live('/api/v1/thing');
    expect(thing.set).toBe(thing.model.items);
  });
});

describe('writes to a live collection', () => {
  it('insert: at its place in the ordering, after those it ties with; out of the set when the filter drops it', () => {
    const l = live('/api/v1/sorted');
    const steps: [Record<string, unknown>, (string | undefined)[]][] = [
      [{ pk: 5, rank: 2, active: true }, ['2', '4', '5', '1']],
      [{ pk: 6, rank: 3, active: true }, ['2', '4', '6', '5', '1']],
      [{ pk: 7, rank: 0, active: true }, ['2', '4', '6', '5', '1', '7']],
      [{ pk: 8, rank: 9, active: false }, ['2', '4', '6', '5', '1', '7']],
    ];
    for (const [values, want] of steps) {
      const item = l.insert(values);
      expect(item.json).toBe(JSON.stringify(values));
      expect(pks(l.set)).toEqual(want);
    }
    expect(l.set.byPk.get('6')?.json).toBe('{"pk":6,"rank":3,"active":true}');
    expect(l.set.byPk.get('8')).toBeUndefined();
    expect(l.isTaken('pk', 8)).toBe(true);
    expect(pks(l.model.items)).toEqual(['1', '2', '3', '4']);
  });

  it('insert without a pk field: the next row pk, unseen but addressable', () => {
    const l = live('/api/v1/row');
    const item = l.insert({ name: 'c' });
    expect([item.pk, item.json]).toEqual(['3', '{"name":"c"}']);
    expect(at(l, '3')).toBe(item);
  });

  it('nextPk: one more than the highest ever given, a removed one never again', () => {
    const l = live('/api/v1/thing');
    expect(l.nextPk()).toBe(11);
    const made = l.insert({ pk: l.nextPk(), name: 'twelve' });
    l.remove(made);
    expect(l.nextPk()).toBe(13);
    expect(live('/api/v1/thing', [{ pk: 'abc' }, { pk: 4 }]).nextPk()).toBe(5);
  });

  it('replace: in place where no ordering moves it, in the set, its pk index and its columns', () => {
    const l = live('/api/v1/thing');
    FieldColumns.of(l.model.items.items).columns(['name']);
    const old = at(l, '2');
    const item = l.replace(old, { pk: 2, name: 'TWO', size: 2 });
    expect(l.set.items.map((i) => i.json)).toEqual([
      '{"pk":1,"name":"one","size":1}',
      '{"pk":2,"name":"TWO","size":2}',
      '{"pk":10,"name":"ten","size":10}',
    ]);
    expect(at(l, '2')).toBe(item);
    expect(FieldColumns.of(l.set.items).columns(['name'])[0]).toEqual(['one', 'TWO', 'ten']);
    // A replacement without its pk keeps the old one's.
    expect(l.replace(item, { name: 'no pk' }).pk).toBe('2');
  });

  it('replace: moved by the ordering, or out of the set when the filter no longer keeps it', () => {
    const l = live('/api/v1/sorted');
    l.replace(at(l, '1'), { pk: 1, rank: 5, active: true });
    expect(pks(l.set)).toEqual(['1', '2', '4']);
    l.replace(at(l, '2'), { pk: 2, rank: 3, active: false });
    expect(pks(l.set)).toEqual(['1', '4']);
    expect(l.set.byPk.get('2')).toBeUndefined();
  });

  it('remove: the first write a DELETE removes the item it names, and only it', () => {
    const l = live('/api/v1/thing');
    l.remove(at(l, '2'));
    expect(pks(l.set)).toEqual(['1', '10']);
    expect([l.set.byPk.get('2'), at(l, '10').json]).toEqual([undefined, '{"pk":10,"name":"ten","size":10}']);
    expect(pks(l.model.items)).toEqual(['1', '2', '10']);
  });

  it('isTaken: over the whole table (the rows its queryset filters out too), the updated item excepted', () => {
    const l = live('/api/v1/sorted');
    const cases: [string, unknown, PreparedItem | undefined, boolean][] = [
      ['a rank of a kept item', 1, undefined, true],
      ['a rank of an item filtered out', 2, undefined, true],
      ['a rank no item has', 4, undefined, false],
      ["the item's own rank, excepted", 1, at(l, '1'), false],
      ['a rank two items have, one excepted', 3, at(l, '2'), true],
    ];
    for (const [name, value, except, want] of cases)
      expect([name, l.isTaken('rank', value, except)]).toEqual([name, want]);
    // Kept in step with writes.
    l.remove(at(l, '1'));
    expect(l.isTaken('rank', 1)).toBe(false);
    l.insert({ pk: 9, rank: 4, active: false });
    expect(l.isTaken('rank', 4)).toBe(true);
    // A row filtered out, removed (its item as the snapshot holds it).
    l.remove(l.model.items.byPk.get('3') as PreparedItem);
    expect([l.isTaken('rank', 2), l.isTaken('pk', 3)]).toEqual([false, false]);
    expect(pks(l.set)).toEqual(['2', '4']);
  });
});
