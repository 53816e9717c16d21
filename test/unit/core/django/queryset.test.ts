import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FieldColumns } from '../../../../src/core/field-columns.js';
import { compareValues } from '../../../../src/core/drf/filters.js';
import { filterAndOrder, querysetRows } from '../../../../src/core/django/queryset.js';
import { type PreparedItem, prepareItem } from '../../../../src/core/prepared-items.js';
import { recordedTable } from '../recorded/recording.js';

/**
 * filterAndOrder reads members from columns made once per list (field-columns.ts): it must keep
 * and order exactly what a filter over each item's parsed members and a stable sort keep and order.
 */
const value = fc.oneof(
  fc.constantFrom(null, true, false, 0, 1, 2, -1, 1.5, 'a', 'B', 'é', '', '10', '9'),
  fc.integer({ min: -3, max: 3 }),
);
const member = fc.constantFrom('a', 'b', 'c', '__proto__', 'constructor');
const items = fc.array(fc.dictionary(member, value, { maxKeys: 4 }), { maxLength: 40 });
/** A filter that keeps the items whose member equals a value, or none. */
const equalTest = fc.option(fc.tuple(member, value), { nil: undefined });
const orderings = (maxLength: number) => fc.array(fc.record({ field: member, desc: fc.boolean() }), { maxLength });
const keepOf = (test: [string, unknown] | undefined) =>
  test && ((o: Record<string, unknown>) => o[test[0]] === test[1]);
const prepared = (o: Record<string, unknown>) => prepareItem(o, { fields: [], withUrl: false, pkField: undefined });

function reference(
  list: readonly PreparedItem[],
  keep: ((o: Record<string, unknown>) => boolean) | undefined,
  ordering: readonly { field: string; desc: boolean }[],
): PreparedItem[] {
  const parsed = (i: PreparedItem) => JSON.parse(i.json) as Record<string, unknown>;
  const kept = keep ? list.filter((i) => keep(parsed(i))) : [...list];
  return kept.sort((x, y) => {
    for (const { field, desc } of ordering) {
      const d = compareValues(parsed(x)[field], parsed(y)[field]);
      if (d !== 0) return desc ? -d : d;
    }
    return 0;
  });
}

describe('filterAndOrder', () => {
  it('keeps and orders what a filter over parsed items and a stable sort do (property)', () => {
    fc.assert(
      fc.property(items, equalTest, orderings(2), fc.nat(40), (raw, test, ordering, start) => {
        const list = raw.map((o) => prepared(o));
        const keep = keepOf(test);
        const want = reference(list, keep, ordering);
        const got = filterAndOrder(list, keep && test ? { keep, fields: [test[0]] } : undefined, ordering);
        expect(got.length).toBe(want.length);
        expect(got.slice(0, got.length)).toEqual(want);
        expect(got.slice(start, start + 5)).toEqual(want.slice(start, start + 5));
      }),
      { numRuns: 1500, seed: 31 },
    );
  });

  it('QuerysetRows keeps and orders rows of values as the reference does its parsed items (property)', () => {
    fc.assert(
      fc.property(items, equalTest, orderings(3), (raw, test, ordering) => {
        const list = raw.map((o) => prepared(o));
        const filter = test && { [test[0]]: test[1] };
        const keep = keepOf(test);
        const rows = querysetRows({ filter, ordering, anonymous: 'all', anonymousModel: undefined });
        const valued = list.map((item) => ({ item, values: rows.valuesOf(JSON.parse(item.json)) }));
        const got = valued
          .filter((r) => rows.keeps(r.values))
          .sort((a, b) => rows.compare(a.values, b.values))
          .map((r) => r.item);
        expect(got).toEqual(reference(list, keep, ordering));
      }),
      { numRuns: 1000, seed: 37 },
    );
  });

  it('QuerysetRows reads a row at its place in a longer array, and is made once per queryset', () => {
    const q = {
      filter: { active: true },
      ordering: [{ field: 'floor', desc: true }],
      anonymous: 'all' as const,
      anonymousModel: undefined,
    };
    const rows = querysetRows(q);
    expect(querysetRows(q)).toBe(rows);
    expect(rows.fields).toEqual(['active', 'floor']);
    // Two rows side by side: [active, floor] of each.
    const table = [true, 1, false, 2];
    expect([rows.keeps(table, 0), rows.keeps(table, 2)]).toEqual([true, false]);
    // Descending: floor 2 comes before floor 1.
    expect(Math.sign(rows.compare([true, 1], table, 2))).toBe(1);
    expect(rows.compare([true, 2], table, 2)).toBe(0);
  });

  it('columns are made once per list, and follow a copy that writes change', () => {
    const list = [1, 2, 3].map((n) => prepared({ n, s: `x${n}` }));
    const columns = FieldColumns.of(list);
    expect(FieldColumns.of(list)).toBe(columns);
    const [n] = columns.columns(['n']);
    expect(columns.columns(['n'])[0]).toBe(n);
    const copy = list.slice();
    const theirs = columns.copyFor(copy);
    expect(FieldColumns.of(copy)).toBe(theirs);
    copy.splice(1, 1);
    theirs.removed(1);
    const added = prepared({ n: 9, s: 'y' });
    copy.push(added);
    theirs.inserted(added);
    copy[0] = prepared({ n: 7 });
    theirs.replaced(0, copy[0]);
    expect(theirs.columns(['n', 's'])).toEqual([
      [7, 3, 9],
      [undefined, 'x3', 'y'],
    ]);
    // The list copied from keeps its own.
    expect(columns.columns(['n'])[0]).toEqual([1, 2, 3]);
  });
});

const { cases, replay } = recordedTable('django/queryset.json');

describe('the desk queryset, as the reference deployment answers (recorded in ../recorded/django/queryset.json)', () => {
  it.each(cases)('%s', async (_name, given, want) => expect(await replay(given)).toEqual(want));
});
