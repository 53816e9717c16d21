import { describe, expect, it } from 'vitest';
import { FieldColumns } from '../../../src/core/field-columns.js';
import { type PreparedItem, prepareItem } from '../../../src/core/prepared-items.js';

const item = (value: Record<string, unknown>): PreparedItem =>
  prepareItem(value, { fields: ['pk', 'a', 'b'], withUrl: false, pkField: 'pk' });
const items = () => [item({ pk: 1, a: 'x', b: 1 }), item({ pk: 2, a: 'y' }), item({ pk: 3, a: null, b: [2] })];

describe("the columns of a list's fields", () => {
  it('one value per item, in order; an absent member undefined', () => {
    const columns = FieldColumns.of(items());
    expect(columns.columns(['b', 'a', 'c'])).toEqual([
      [1, undefined, [2]],
      ['x', 'y', null],
      [undefined, undefined, undefined],
    ]);
  });

  it('made once per list and per field: the same list, the same columns', () => {
    const list = items();
    const first = FieldColumns.of(list);
    expect(FieldColumns.of(list)).toBe(first);
    expect(FieldColumns.of(items())).not.toBe(first);
    const [a] = first.columns(['a']);
    expect(first.columns(['b', 'a'])[1]).toBe(a);
  });

  it('a copy for a list that writes change: the columns made so far copied, then kept in step', () => {
    const list = items();
    const base = FieldColumns.of(list);
    base.columns(['a']);
    const own = list.slice();
    const copy = base.copyFor(own);
    expect(FieldColumns.of(own)).toBe(copy);
    const steps: [string, () => void, unknown[]][] = [
      ['inserted at the end', () => copy.inserted(item({ pk: 4, a: 'w' })), ['x', 'y', null, 'w']],
      ['inserted at a place', () => copy.inserted(item({ pk: 5, a: 'v' }), 1), ['x', 'v', 'y', null, 'w']],
      ['replaced', () => copy.replaced(0, item({ pk: 1, a: 'z' })), ['z', 'v', 'y', null, 'w']],
      ['removed', () => copy.removed(2), ['z', 'v', null, 'w']],
    ];
    for (const [_step, write, want] of steps) {
      write();
      expect(copy.columns(['a'])[0]).toEqual(want);
    }
    // The list's own columns are untouched.
    expect(base.columns(['a'])[0]).toEqual(['x', 'y', null]);
  });

  it('a field first asked for after writes is read from the items of the copy', () => {
    const list = items();
    const own = [list[2] as PreparedItem, item({ pk: 9, b: 'new' })];
    const copy = FieldColumns.of(list).copyFor(own);
    copy.inserted(item({ pk: 10, b: 'ignored: no column yet' }));
    expect(copy.columns(['b'])[0]).toEqual([[2], 'new']);
  });
});
