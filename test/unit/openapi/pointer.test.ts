import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import {
  appendPointer,
  type At,
  childAt,
  escapeToken,
  follow,
  followAt,
  followChild,
  getAt,
  isObject,
  pointerOf,
  unescapeToken,
} from '../../../src/openapi/pointer.js';

describe('tokens and pointers (RFC 6901)', () => {
  it.each([
    ['plain', 'desk', 'desk'],
    ['a slash', 'a/b', 'a~1b'],
    ['a tilde', 'a~b', 'a~0b'],
    ['a tilde before a 1 (not read back as a slash)', '~1', '~01'],
    ['both, in order', '/~/', '~1~0~1'],
    ['empty', '', ''],
  ])('%s: %j escaped is %j, and read back', (_name, token, escaped) => {
    expect(escapeToken(token)).toBe(escaped);
    expect(unescapeToken(escaped)).toBe(token);
  });

  it.each<[(string | number)[], string]>([
    [[], ''],
    [['paths', '/api/v1/desk', 'get'], '/paths/~1api~1v1~1desk/get'],
    [['items', 0, 'a~b'], '/items/0/a~0b'],
    [[''], '/'],
  ])('pointerOf(%j) is %j', (tokens, want) => {
    expect(pointerOf(tokens)).toBe(want);
    expect(appendPointer('#/components', ...tokens)).toBe(`#/components${want}`);
  });
});

describe('getAt: the value at a pointer, or undefined', () => {
  const doc = {
    'a/b': { 'c~d': [10, 20] },
    'e f': 1,
    '100%': 'lone',
    '': { '': 'empty' },
    n: null,
    o: { toString: 'own' },
  };
  it.each<[string, unknown]>([
    ['', doc],
    ['#', doc],
    ['/a~1b/c~0d/1', 20],
    ['#/a~1b/c~0d/0', 10],
    ['#/e%20f', 1],
    ['/e f', 1],
    ['#/100%', 'lone'],
    ['#/100%25', 'lone'],
    ['/', { '': 'empty' }],
    ['//', 'empty'],
    ['/n', null],
    ['/n/x', undefined],
    ['/a~1b/c~0d/2', undefined],
    ['/missing', undefined],
    ['/o/toString', 'own'],
    ['/a~1b/hasOwnProperty', undefined],
    ['/e f/x', undefined],
  ])('%j → %j', (pointer, want) => {
    expect(getAt(doc, pointer)).toEqual(want);
  });
});

describe('follow: through internal $refs to a node without one', () => {
  const doc = {
    a: { $ref: '#/b' },
    b: { $ref: '#/c' },
    c: { type: 'string' },
    self: { $ref: '#/self' },
    loop1: { $ref: '#/loop2' },
    loop2: { $ref: '#/loop1' },
    dangling: { $ref: '#/nowhere' },
    external: { $ref: 'other.yaml#/x' },
    notString: { $ref: 5 },
    arr: [{ $ref: '#/c' }],
  };
  it.each<[string, At]>([
    ['/c', { pointer: '#/c', node: { type: 'string' } }],
    ['#/a', { pointer: '#/c', node: { type: 'string' } }],
    ['/arr/0', { pointer: '#/c', node: { type: 'string' } }],
    ['/self', { pointer: '#/self', node: undefined }],
    ['/loop1', { pointer: '#/loop1', node: undefined }],
    ['/dangling', { pointer: '#/nowhere', node: undefined }],
    ['/external', { pointer: '#/external', node: { $ref: 'other.yaml#/x' } }],
    ['/notString', { pointer: '#/notString', node: { $ref: 5 } }],
    ['/none', { pointer: '#/none', node: undefined }],
  ])('%j → %j', (pointer, want) => {
    expect(follow(doc, pointer)).toEqual(want);
    expect(
      followAt(doc, { pointer: pointer.startsWith('#') ? pointer : `#${pointer}`, node: getAt(doc, pointer) }),
    ).toEqual(want);
  });
});

describe('isObject: a plain object, not null or an array', () => {
  it.each<[unknown, boolean]>([
    [{}, true],
    [Object.create(null), true],
    [[], false],
    [null, false],
    ['{}', false],
    [1, false],
    [undefined, false],
  ])('%j → %j', (value, want) => {
    expect(isObject(value)).toBe(want);
  });
});

describe('childAt, followChild and followAt: what getAt and follow answer from the root, walked from a node at hand', () => {
  // Random documents of objects, arrays and internal $refs (dangling, cyclic, self, to the root),
  // with keys that need escaping (`/`, `~`) or look percent-encoded.
  function randomDoc(seed: number): { doc: Record<string, unknown>; pointers: string[] } {
    let s = seed;
    const rnd = () => (s = (s * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
    const keys = ['a', 'b', 'c/d', 'e~f', 'g%20h', 'i j', '0', '1'];
    const pointers: string[] = ['#'];
    const refs: Record<string, unknown>[] = [];
    const make = (depth: number, at: string): unknown => {
      const r = rnd();
      if (depth > 3 || r < 0.15) return r < 0.05 ? null : Math.floor(r * 100);
      if (r < 0.3) {
        const ref = { $ref: '' };
        refs.push(ref);
        return ref;
      }
      if (r < 0.45) {
        const arr: unknown[] = [];
        for (let i = 0; i < 1 + Math.floor(rnd() * 3); i++) arr.push(make(depth + 1, appendPointer(at, i)));
        arr.forEach((_, i) => pointers.push(appendPointer(at, i)));
        return arr;
      }
      const obj: Record<string, unknown> = {};
      for (const k of keys) if (rnd() < 0.4) obj[k] = make(depth + 1, appendPointer(at, k));
      for (const k of Object.keys(obj)) pointers.push(appendPointer(at, k));
      return obj;
    };
    const doc = make(0, '#') as Record<string, unknown>;
    const root = doc !== null && typeof doc === 'object' ? doc : { a: doc };
    for (const ref of refs)
      ref.$ref =
        rnd() < 0.1 ? '#/nowhere' : rnd() < 0.1 ? '#/g%20h' : (pointers[Math.floor(rnd() * pointers.length)] ?? '#');
    return { doc: root, pointers };
  }

  /** `expect(actual).toEqual(expected)`, asked of vitest only when they differ (its matcher made this test 15 times slower). */
  const agree = (actual: unknown, expected: unknown) => {
    if (!isDeepStrictEqual(actual, expected)) expect(actual).toEqual(expected);
  };

  it('agree on 150 random documents, every pointer, every token', () => {
    const tokens: (string | number)[] = ['a', 'b', 'c/d', 'e~f', 'g%20h', 'i j', '0', 0, 1, '$ref', 'none'];
    let compared = 0;
    for (let seed = 1; seed <= 150; seed++) {
      const { doc, pointers } = randomDoc(seed);
      for (const p of pointers) {
        const fromGet: At = { pointer: p, node: getAt(doc, p) };
        const fromFollow = follow(doc, p);
        for (const t of tokens) {
          agree(followAt(doc, childAt(doc, fromGet, t)), follow(doc, appendPointer(p, t)));
          agree(
            followAt(doc, childAt(doc, childAt(doc, fromFollow, t), 'a')),
            follow(doc, appendPointer(fromFollow.pointer, t, 'a')),
          );
          agree(childAt(doc, childAt(doc, fromFollow, 'a'), t), {
            pointer: appendPointer(fromFollow.pointer, 'a', t),
            node: getAt(doc, appendPointer(fromFollow.pointer, 'a', t)),
          });
          agree(childAt(doc, fromGet, t), {
            pointer: appendPointer(p, t),
            node: getAt(doc, appendPointer(p, t)),
          });
          agree(followChild(doc, fromFollow, t), follow(doc, appendPointer(fromFollow.pointer, t)));
          compared += 5;
        }
        agree(followAt(doc, fromGet), follow(doc, p));
      }
    }
    expect(compared).toBeGreaterThan(3_000);
  });
});
