import { describe, expect, it } from 'vitest';
import { isIntegerText, PkIndex } from '../../../src/core/pk-index.js';
import { itemSetOf } from '../../../src/core/prepared-items.js';

// The properties over random pks and writes: pk-index.property.test.ts (npm run test:slow).

describe('an integer as String(n) writes one', () => {
  it.each<[string, boolean]>([
    ['0', true],
    ['7', true],
    ['10', true],
    ['-1', true],
    ['9007199254740991', true],
    ['99999999999999999', true],
    ['999999999999999999', false],
    ['01', false],
    ['-0', false],
    ['-', false],
    ['', false],
    ['+1', false],
    [' 1', false],
    ['1 ', false],
    ['1.0', false],
    ['1e1', false],
    ['a', false],
    ['١', false],
  ])('%j: %s', (s, want) => {
    expect(isIntegerText(s)).toBe(want);
  });
});

const items = (pks: (string | undefined)[]) => pks.map((pk, i) => ({ pk, json: `{"i":${i}}`, urlAt: -1 }));

describe('items by pk', () => {
  it.each<[string, (string | undefined)[], [string, number][]]>([
    [
      'ascending integers',
      ['1', '2', '5'],
      [
        ['1', 0],
        ['5', 2],
        ['3', -1],
        ['01', -1],
        ['-0', -1],
        ['5.0', -1],
      ],
    ],
    [
      'a repeated pk: its first item',
      ['1', '2', '2', '1'],
      [
        ['1', 0],
        ['2', 1],
      ],
    ],
    [
      'out of order',
      ['5', '2', '9'],
      [
        ['2', 1],
        ['9', 2],
        ['3', -1],
      ],
    ],
    [
      'texts',
      ['b', 'a', '3'],
      [
        ['a', 1],
        ['3', 2],
        ['c', -1],
      ],
    ],
    [
      'items without a pk',
      [undefined, '3', undefined, '4'],
      [
        ['3', 1],
        ['4', 3],
        ['undefined', -1],
      ],
    ],
    [
      'negative and large integers',
      ['-5', '0', '9007199254740991'],
      [
        ['-5', 0],
        ['0', 1],
        ['9007199254740991', 2],
      ],
    ],
    ['none', [], [['1', -1]]],
  ])('%s', (_name, pks, lookups) => {
    const set = itemSetOf(items(pks));
    const index = PkIndex.of(items(pks));
    for (const [pk, at] of lookups) {
      expect([pk, index.get(pk)]).toEqual([pk, at]);
      expect(set.byPk.get(pk)).toBe(at < 0 ? undefined : set.items[at]);
    }
  });

  it('places with gaps (items left out between them): each pk at its place, a repeat names the first', () => {
    const index = new PkIndex();
    expect([index.add('1', 0), index.add('3', 2), index.add('7', 5), index.add('3', 6)]).toEqual([-1, -1, -1, 2]);
    expect(['1', '3', '7', '2'].map((pk) => index.get(pk))).toEqual([0, 2, 5, -1]);
    expect(index.add(undefined, 8, 9)).toBe(-1);
    expect(index.get('9')).toBe(8);
  });
});

describe('items by pk under writes', () => {
  type Write =
    | ['put', string, number]
    | ['insertAt', string, number]
    | ['remove', string, number]
    | ['replace', string, string, number];
  const write = (index: PkIndex, w: Write) => {
    if (w[0] === 'put') index.put(w[1], w[2]);
    else if (w[0] === 'insertAt') index.insertAt(w[1], w[2]);
    else if (w[0] === 'remove') index.remove(w[1], w[2]);
    else index.replace(w[1], w[2], w[3]);
  };
  it.each<[string, (string | undefined)[], Write[], Record<string, number>]>([
    ['put after the last', ['1', '2'], [['put', '3', 2]], { '1': 0, '2': 1, '3': 2 }],
    ['put of a pk there is: the write wins', ['1', '2'], [['put', '1', 2]], { '1': 2, '2': 1 }],
    ['put out of order', ['1', '5'], [['put', '3', 2]], { '1': 0, '3': 2, '5': 1 }],
    [
      'insertAt moves every later place up',
      ['1', '2', '3'],
      [['insertAt', '9', 1]],
      { '1': 0, '9': 1, '2': 2, '3': 3 },
    ],
    ['remove moves every later place down', ['1', '2', '3'], [['remove', '2', 1]], { '1': 0, '2': -1, '3': 1 }],
    ['remove of texts', ['a', 'b', 'c'], [['remove', 'a', 0]], { a: -1, b: 0, c: 1 }],
    [
      'remove of the last, then put',
      ['1', '2'],
      [
        ['remove', '2', 1],
        ['put', '2', 1],
      ],
      { '1': 0, '2': 1 },
    ],
    ['replace with another pk', ['1', '2', '3'], [['replace', '2', 'x', 1]], { '1': 0, '2': -1, x: 1, '3': 2 }],
    ['replace with the same pk', ['1', '2'], [['replace', '2', '2', 1]], { '1': 0, '2': 1 }],
    [
      'remove where items without a pk left gaps',
      ['1', undefined, '2', '3'],
      [['remove', '2', 2]],
      { '1': 0, '2': -1, '3': 2 },
    ],
  ])('%s', (_name, start, writes, want) => {
    const original = PkIndex.of(items(start));
    const index = original.copy();
    for (const w of writes) write(index, w);
    expect(Object.fromEntries(Object.keys(want).map((pk) => [pk, index.get(pk)]))).toEqual(want);
    // The index copied from stays as it was.
    expect(start.map((pk) => (pk === undefined ? -1 : original.get(pk)))).toEqual(
      start.map((pk, i) => (pk === undefined ? -1 : i)),
    );
  });
});
