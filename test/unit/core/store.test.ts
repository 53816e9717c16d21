import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isIntegerText, ItemSetBuilder, type PreparedItem } from '../../../src/core/store.js';
import { reverseQuote } from '../../../src/core/django/urls.js';

const POOL = [
  '0',
  '1',
  '2',
  '3',
  '10',
  '11',
  '01',
  '-0',
  '-1',
  '-2',
  '1.0',
  '1e1',
  '+1',
  ' 1',
  'a',
  '',
  '9007199254740991',
  '9007199254740992',
  '9007199254740993',
  '99999999999999999',
];

describe('items by pk', () => {
  it('an integer is recognised from its characters exactly as String(Number(s)) === s says (property)', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.constantFrom(...POOL),
          fc.integer().map(String),
          fc.double().map(String),
          fc.string({ maxLength: 20 }),
          fc.bigInt().map(String),
        ),
        (s) => {
          const n = Number(s);
          expect(Number.isSafeInteger(isIntegerText(s) ? Number(s) : Number.NaN)).toBe(
            Number.isSafeInteger(n) && String(n) === s,
          );
        },
      ),
      { numRuns: 5000, seed: 21 },
    );
  });

  it('finds the first item of each pk, and nothing for any other text, whichever index it builds (property)', () => {
    const pks = fc.array(
      fc.oneof(fc.constantFrom(...POOL), fc.integer({ min: -3, max: 50 }).map(String), fc.constant(undefined)),
      { maxLength: 40 },
    );
    fc.assert(
      fc.property(pks, fc.boolean(), (list, sorted) => {
        // Ascending integers (the common fixture) take a binary search; anything else a map.
        const order = sorted
          ? [...new Set(list.filter((p) => p !== undefined && isIntegerText(p)))].sort((a, b) => Number(a) - Number(b))
          : list;
        const builder = new ItemSetBuilder();
        const first = new Map<string, PreparedItem>();
        const items = order.map((pk, i) => ({ pk, json: `{"i":${i}}`, urlAt: -1 }));
        for (const item of items) {
          builder.add(item);
          if (item.pk !== undefined && !first.has(item.pk)) first.set(item.pk, item);
        }
        const set = builder.finish();
        expect([...set.items]).toEqual(items);
        for (const pk of [...POOL, ...order.filter((p): p is string => p !== undefined), '4', '-0', '1.5'])
          expect(set.byPk.get(pk)).toEqual(first.get(pk));
        expect([...set.byPk.keys()].sort()).toEqual([...first.keys()].sort());
      }),
      { numRuns: 2000, seed: 22 },
    );
  });
});

describe("a pk in an item's url, as Django's reverse() quotes it", () => {
  // django.urls.resolvers: quote(arg, safe=RFC3986_SUBDELIMS + '/~:@'), per character, UTF-8 percent-encoded.
  const reference = (value: string) => {
    let out = '';
    for (const ch of value) {
      if (/[A-Za-z0-9_.\-~!$&'()*+,;=:@]/.test(ch)) out += ch;
      else for (const b of new TextEncoder().encode(ch)) out += `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
    }
    return out;
  };
  it('writes every text as quote() does, a text of safe characters as it is (property)', () => {
    const safe = fc.string({ unit: fc.constantFrom(..."az09_.-~!$&'()*+,;=:@") });
    fc.assert(
      fc.property(fc.oneof(safe, fc.string(), fc.string({ unit: 'grapheme' }), fc.integer().map(String)), (s) => {
        expect(reverseQuote(s)).toBe(reference(s));
      }),
      { numRuns: 3000, seed: 23 },
    );
    expect(reverseQuote('12')).toBe('12');
    expect(reverseQuote('a b/é')).toBe('a%20b%2F%C3%A9');
  });
});
