import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BLOCK_ITEMS, PackedItems } from '../../../src/core/packed-items.js';
import { type ItemSet, ItemSetBuilder, type PreparedItem } from '../../../src/core/store.js';

/**
 * Items kept as bytes (src/core/packed-items.ts) read back exactly as they were given, whichever
 * way each was given (a prepared item, or an ASCII item's bytes where they stand among others),
 * across blocks; and a set built again with the one it replaces keeps the blocks that did not change.
 */

/** How one item is given: as a prepared item, or as the bytes of its text in a shared buffer. */
interface Given {
  readonly item: PreparedItem;
  readonly asBytes: boolean;
}

const asciiText = fc.string({ unit: fc.constantFrom(...'abcXYZ019 :,{}"-_'), maxLength: 12 });
/** A flat item's string pk: no character JSON escapes (its text stands in the item's as it is). */
const plainText = fc.string({ unit: fc.constantFrom(...'abcXYZ019 :,{}-_'), maxLength: 12 });
const anyText = fc.string({
  unit: fc.oneof(fc.constantFrom(...'abc019 "'), fc.constantFrom('é', '€', '𝄞', '\u2028', '\u00ff')),
  maxLength: 12,
});

/** An item: its pk (a text inside its JSON for an ASCII one), its JSON, its urlAt. */
const given: fc.Arbitrary<Given> = fc.oneof(
  // An integer pk written as a number, a text one as a string.
  fc
    .record({
      pk: fc.option(
        fc.oneof(
          fc.integer({ min: -5, max: 99_999 }).map((n) => ({ pk: String(n), literal: String(n) })),
          plainText.map((t) => ({ pk: t, literal: JSON.stringify(t) })),
        ),
        { nil: undefined },
      ),
      body: asciiText,
      urlAt: fc.constantFrom(-1, 1),
    })
    .map(({ pk, body, urlAt }) => ({
      item: {
        pk: pk?.pk,
        json: pk === undefined ? `{"b":${JSON.stringify(body)}}` : `{"pk":${pk.literal},"b":${JSON.stringify(body)}}`,
        urlAt,
      },
      asBytes: true,
    })),
  fc
    .record({ pk: fc.option(anyText, { nil: undefined }), body: anyText, urlAt: fc.integer({ min: -1, max: 40 }) })
    .map(({ pk, body, urlAt }) => ({ item: { pk, json: JSON.stringify({ b: body, p: pk }), urlAt }, asBytes: false })),
);

/**
 * Builds a set from items, each given its way; ASCII items given as bytes stand in one buffer,
 * separated as a fixture separates them, and with `junk`, every seventh after bytes that are no
 * item given (an item the loader refused: non-ASCII here).
 */
function build(items: readonly Given[], previous?: ItemSet, separator = ',\n', junk = false): ItemSet {
  const builder = new ItemSetBuilder(previous?.items);
  // The buffer of a run of ASCII items, written again (as the loader's chunks are) after each flush.
  let buffer = Buffer.alloc(0);
  let at = 0;
  for (const [k, { item, asBytes }] of items.entries()) {
    if (!asBytes || /[^\x00-\x7f]/.test(item.json)) {
      builder.add(item);
      continue;
    }
    const before = junk && k % 7 === 0 ? `${separator}"é"${separator}` : separator;
    const text = `${before}${item.json}`;
    if (at + Buffer.byteLength(text) > buffer.length) {
      builder.flush();
      buffer.fill(0x7e);
      buffer = Buffer.alloc(Math.max(4096, Buffer.byteLength(text)));
      at = 0;
    }
    buffer.write(text, at, 'utf8');
    const start = at + Buffer.byteLength(before);
    const end = start + item.json.length;
    at = end;
    // The pk's text: a JSON string's contents, or an integer's digits, where `"pk":` puts them.
    const pkAt = item.pk === undefined ? -1 : start + '{"pk":'.length + (item.json.startsWith('{"pk":"') ? 1 : 0);
    const n = Number(item.pk);
    builder.addAscii(
      buffer,
      start,
      end,
      pkAt,
      pkAt + (item.pk?.length ?? 0),
      item.json.startsWith('{"pk":"') || !Number.isSafeInteger(n) ? Number.NaN : n,
      item.urlAt,
    );
  }
  builder.flush();
  buffer.fill(0x7e);
  return builder.finish();
}

describe('packed items read back as given', () => {
  it('every item, at, slice, iteration and the pk index, across blocks, whichever way each was given (property)', () => {
    fc.assert(
      fc.property(
        fc.array(given, { maxLength: 60 }),
        fc.integer({ min: 0, max: 2 }),
        fc.integer({ min: -70, max: 70 }),
        fc.integer({ min: -70, max: 70 }),
        fc.boolean(),
        (sample, blocks, a, b, junk) => {
          // Sometimes more than a block: the sample repeated, each copy of an item an item of its own.
          const items =
            sample.length === 0
              ? []
              : Array.from(
                  { length: sample.length + blocks * BLOCK_ITEMS },
                  (_, i) => sample[i % sample.length] as Given,
                );
          const want = items.map((g) => g.item);
          const set = build(items, undefined, ',\n', junk);
          expect(set.items.length).toBe(want.length);
          expect([...set.items]).toEqual(want);
          for (const i of [
            0,
            1,
            want.length - 1,
            want.length,
            -1,
            -want.length,
            -want.length - 1,
            BLOCK_ITEMS,
            BLOCK_ITEMS - 1,
            a,
            b,
            1.5,
            -0.5,
            -1.5,
            Number.NaN,
            Number.POSITIVE_INFINITY,
            Number.NEGATIVE_INFINITY,
          ])
            expect(set.items.at(i)).toEqual(want.at(i));
          expect(set.items.slice(a, b)).toEqual(want.slice(a, b));
          expect(set.items.slice(a)).toEqual(want.slice(a));
          expect(set.items.slice(BLOCK_ITEMS - 2, BLOCK_ITEMS + 3)).toEqual(
            want.slice(BLOCK_ITEMS - 2, BLOCK_ITEMS + 3),
          );
          const first = new Map<string, PreparedItem>();
          for (const item of want) if (item.pk !== undefined && !first.has(item.pk)) first.set(item.pk, item);
          for (const item of want.slice(0, 80))
            expect(set.byPk.get(item.pk ?? '')).toEqual(item.pk === undefined ? first.get('') : first.get(item.pk));
          expect(new Set(set.byPk.keys())).toEqual(new Set(first.keys()));
        },
      ),
      { numRuns: 150, seed: 31 },
    );
  });

  it('the same objects each time, for a set of up to 32 blocks; past that, the blocks last read (the rest made again, equal)', () => {
    const items = Array.from({ length: 40 * BLOCK_ITEMS }, (_, i): Given => ({
      item: { pk: String(i + 1), json: `{"pk":${i + 1}}`, urlAt: 1 },
      asBytes: true,
    }));
    const set = build(items);
    const first = set.items.at(0);
    expect(set.items.at(0)).toBe(first);
    for (let b = 1; b < 32; b++) set.items.at(b * BLOCK_ITEMS);
    expect(set.items.at(0)).toBe(first);
    for (let b = 1; b < 40; b++) set.items.at(b * BLOCK_ITEMS);
    const again = set.items.at(0);
    expect(again).not.toBe(first);
    expect(again).toEqual(first);
    expect(set.byPk.get(String(39 * BLOCK_ITEMS + 7))).toEqual({
      pk: String(39 * BLOCK_ITEMS + 7),
      json: `{"pk":${39 * BLOCK_ITEMS + 7}}`,
      urlAt: 1,
    });
  });

  it('a look at one item (peek) makes that item alone: the blocks kept made stay as they were', () => {
    const items = Array.from({ length: 40 * BLOCK_ITEMS }, (_, i): Given => ({
      item: { pk: String(i + 1), json: `{"pk":${i + 1}}`, urlAt: 1 },
      asBytes: true,
    }));
    const packed = build(items).items as PackedItems;
    const first = packed.at(0);
    for (let b = 1; b < 32; b++) packed.at(b * BLOCK_ITEMS);
    for (let i = 32 * BLOCK_ITEMS; i < 40 * BLOCK_ITEMS; i += 97) expect(packed.peek(i)).toEqual(items[i]?.item);
    expect(packed.at(0)).toBe(first);
    expect(packed.peek(40 * BLOCK_ITEMS)).toBeUndefined();
  });
});

describe('a set built again with the one it replaces keeps the blocks that did not change', () => {
  const items = Array.from({ length: 3 * BLOCK_ITEMS + 100 }, (_, i): Given => ({
    item: { pk: String(i + 1), json: `{"pk":${i + 1},"f":${i % 7}}`, urlAt: 1 },
    asBytes: i % 1000 !== 0,
  }));
  const edit = (at: number) =>
    items.map((g, i) => (i === at ? { ...g, item: { ...g.item, json: `{"pk":${i + 1},"f":99}` } } : g));
  it.each<[string, readonly Given[], number]>([
    ['nothing changed', items, items.length],
    ['an item of the second block edited', edit(BLOCK_ITEMS + 5), items.length - BLOCK_ITEMS],
    ['an item of the last block edited', edit(3 * BLOCK_ITEMS + 50), 3 * BLOCK_ITEMS],
    ['the last item removed', items.slice(0, -1), 3 * BLOCK_ITEMS],
    ['the first item removed (everything after it moved)', items.slice(1), 0],
  ])('%s', (_name, next, kept) => {
    const before = build(items);
    const after = build(next, before);
    expect([...after.items]).toEqual([...build(next).items]);
    expect((after.items as PackedItems).sharedWith(before.items as PackedItems)).toBe(kept);
  });

  it('other separators between the same items are other bytes: nothing kept, the same items', () => {
    const before = build(items);
    const after = build(items, before, ', ');
    expect([...after.items]).toEqual([...before.items]);
    expect((after.items as PackedItems).sharedWith(before.items as PackedItems)).toBe(0);
  });

  it('compares an item with the bytes of its text without making it', () => {
    const set = build(items);
    const bytes = Buffer.from(`xx${items[BLOCK_ITEMS + 3]?.item.json}yy`);
    expect((set.items as PackedItems).sameBytesAt(BLOCK_ITEMS + 3, bytes, 2, bytes.length - 2)).toBe(true);
    expect((set.items as PackedItems).sameBytesAt(BLOCK_ITEMS + 4, bytes, 2, bytes.length - 2)).toBe(false);
    expect((set.items as PackedItems).sameBytesAt(items.length, bytes, 2, bytes.length - 2)).toBe(false);
  });
});
