import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isIntegerText, PkIndex } from '../../../src/core/pk-index.js';
import { itemSetOf, type PreparedItem } from '../../../src/core/prepared-items.js';

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
        const first = new Map<string, PreparedItem>();
        const items = order.map((pk, i) => ({ pk, json: `{"i":${i}}`, urlAt: -1 }));
        for (const item of items) if (item.pk !== undefined && !first.has(item.pk)) first.set(item.pk, item);
        const set = itemSetOf(items);
        expect(set.items).toEqual(items);
        for (const pk of [...POOL, ...order.filter((p): p is string => p !== undefined), '4', '-0', '1.5'])
          expect(set.byPk.get(pk)).toBe(first.get(pk));
      }),
      { numRuns: 2000, seed: 22 },
    );
  });

  it('places given with gaps (items left out between them): each pk at its place, the first repeat named', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.oneof(fc.constantFrom(...POOL), fc.integer({ min: -3, max: 50 }).map(String)), fc.nat(3))),
        fc.boolean(),
        (list, sorted) => {
          const pks = sorted
            ? [...new Set(list.map(([p]) => p).filter(isIntegerText))].sort((a, b) => Number(a) - Number(b))
            : list.map(([p]) => p);
          const index = new PkIndex();
          const first = new Map<string, number>();
          let place = 0;
          pks.forEach((pk, k) => {
            place += 1 + ((list[k]?.[1] ?? 0) % 3);
            expect(index.add(pk, place)).toBe(first.get(pk) ?? -1);
            if (!first.has(pk)) first.set(pk, place);
          });
          for (const pk of [...POOL, ...pks]) expect(index.get(pk)).toBe(first.get(pk) ?? -1);
        },
      ),
      { numRuns: 1000, seed: 24 },
    );
  });
});

describe('items by pk under writes', () => {
  // What a collection that writes change looked its items up with before: a map of pk to item, the
  // first item of a pk at the start, then each write's item set (a repeated pk: the latest write's).
  type Op = ['put', string] | ['replace', number, string] | ['remove', number];
  const pk = fc.oneof(fc.integer({ min: 1, max: 60 }).map(String), fc.constantFrom('a', '01', '-2'));
  const op: fc.Arbitrary<Op> = fc.oneof(
    pk.map((p): Op => ['put', p]),
    fc.tuple(fc.nat(), pk).map(([at, p]): Op => ['replace', at, p]),
    fc.nat().map((at): Op => ['remove', at]),
  );
  it('finds each pk where a map of the same writes finds it (property)', () => {
    fc.assert(
      fc.property(
        fc.array(pk, { maxLength: 30 }),
        fc.boolean(),
        fc.array(op, { maxLength: 20 }),
        (start, sorted, ops) => {
          const initial = sorted
            ? [...new Set(start.filter(isIntegerText))].sort((a, b) => Number(a) - Number(b))
            : start;
          const items: PreparedItem[] = initial.map((p, i) => ({ pk: p, json: `{"i":${i}}`, urlAt: -1 }));
          const map = new Map<string, PreparedItem>();
          for (const item of items) if (!map.has(item.pk as string)) map.set(item.pk as string, item);
          const original = PkIndex.of(items);
          const index = original.copy();
          ops.forEach((o, k) => {
            if (o[0] === 'put') {
              const item = { pk: o[1], json: `{"w":${k}}`, urlAt: -1 };
              items.push(item);
              map.set(o[1], item);
              index.put(o[1], items.length - 1);
            } else if (items.length > 0) {
              const at = o[1] % items.length;
              const old = items[at] as PreparedItem;
              map.delete(old.pk as string);
              if (o[0] === 'remove') {
                items.splice(at, 1);
                index.remove(old.pk, at);
              } else {
                const item = { pk: o[2], json: `{"w":${k}}`, urlAt: -1 };
                items[at] = item;
                map.set(o[2], item);
                index.replace(old.pk, o[2], at);
              }
            }
            for (const p of [...POOL, ...start, 'a', '01', '-2']) {
              const want = map.get(p);
              expect(index.get(p), p).toBe(want === undefined ? -1 : items.indexOf(want));
            }
          });
          // The index copied from stays as it was.
          initial.forEach((p, i) => expect(original.get(p)).toBe(initial.indexOf(p) === i ? i : initial.indexOf(p)));
        },
      ),
      { numRuns: 2000, seed: 25 },
    );
  });
});
