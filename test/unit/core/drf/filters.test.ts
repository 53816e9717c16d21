import { describe, expect, it } from 'vitest';
import { type Filters, filterPredicate, orderingTerms, searchTerms } from '../../../../src/core/drf/filters.js';
import { parseQuery } from '../../../../src/core/python/query.js';
import { recordedTable } from '../recorded/recording.js';

// The designer spec's desk list: ordering by floor, number or pk, search over number and building.
const DESKS: Filters = {
  fields: [],
  pageSize: undefined,
  unsupported: [],
  ordering: { param: 'ordering', allowed: new Set(['floor', 'number', 'pk']) },
  search: {
    param: 'search',
    fields: [
      { field: 'number', lookup: 'icontains' },
      { field: 'building', lookup: 'icontains' },
    ],
  },
};

describe('OrderingFilter terms', () => {
  it.each<[string, string, { field: string; desc: boolean }[]]>([
    ['one field', 'floor', [{ field: 'floor', desc: false }]],
    [
      'descending, then another',
      '-floor,number',
      [
        { field: 'floor', desc: true },
        { field: 'number', desc: false },
      ],
    ],
    ['a field not allowed is dropped', 'colour,floor', [{ field: 'floor', desc: false }]],
    [
      'spaces around a term',
      ' floor , -pk',
      [
        { field: 'floor', desc: false },
        { field: 'pk', desc: true },
      ],
    ],
    [
      'a field named again counts once (its first direction)',
      'floor,-floor,number,floor',
      [
        { field: 'floor', desc: false },
        { field: 'number', desc: false },
      ],
    ],
    ['a thousand repeats are one term', `${'floor,'.repeat(1000)}floor`, [{ field: 'floor', desc: false }]],
    ['nothing valid: the collection order', 'colour,,', []],
  ])('%s: %j', (_name, value, want) => {
    expect(orderingTerms(DESKS, parseQuery(`ordering=${encodeURIComponent(value)}`))).toEqual(want);
  });
});

describe('SearchFilter terms', () => {
  it.each<[string, string, string[]]>([
    ['words', 'a b', ['a', 'b']],
    ['commas split', 'a,b', ['a', 'b']],
    ['a quoted phrase is one term', '"a b" c', ['a b', 'c']],
    ['empty', '  ', []],
  ])('%s: %j', (_name, value, want) => {
    expect(searchTerms(value)).toEqual(want);
  });

  it('a term repeated is tested once per item: the terms are ANDed', () => {
    const seen: string[] = [];
    const item = new Proxy({ number: '112', building: 'S' } as Record<string, unknown>, {
      get: (t, k) => {
        if (typeof k === 'string') seen.push(k);
        return t[k as string];
      },
    });
    const r = filterPredicate(DESKS, parseQuery(`search=${encodeURIComponent('1 '.repeat(5000))}`));
    if (!r.ok) throw new Error('refused');
    expect(r.keep(item)).toBe(true);
    // One term "1": the number field read once (it matches), the building never.
    expect(seen).toEqual(['number']);
    const differentCase = filterPredicate(DESKS, parseQuery('search=s%20S%20s'));
    if (!differentCase.ok) throw new Error('refused');
    seen.length = 0;
    expect(differentCase.keep(item)).toBe(true);
    expect(seen).toEqual(['number', 'building']);
  });
});

const { cases, replay } = recordedTable('drf/filters.json');

describe('filter parameters, as the reference deployment answers (recorded in ../recorded/drf/filters.json)', () => {
  it.each(cases)('%s', async (_name, given, want) => expect(await replay(given)).toEqual(want));
});
