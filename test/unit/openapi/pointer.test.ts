import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import {
  appendPointer,
  type At,
  childAt,
  follow,
  followChild,
  followFrom,
  getAt,
  getFrom,
} from '../../../src/openapi/pointer.js';

describe('childAt, followChild, getFrom and followFrom: what getAt and follow answer from the root, walked from a node at hand', () => {
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
          agree(getFrom(doc, fromGet, t), {
            pointer: appendPointer(p, t),
            node: getAt(doc, appendPointer(p, t)),
          });
          agree(followFrom(doc, fromGet, t), follow(doc, appendPointer(p, t)));
          agree(followFrom(doc, fromFollow, t, 'a'), follow(doc, appendPointer(fromFollow.pointer, t, 'a')));
          agree(getFrom(doc, fromFollow, 'a', t), {
            pointer: appendPointer(fromFollow.pointer, 'a', t),
            node: getAt(doc, appendPointer(fromFollow.pointer, 'a', t)),
          });
          agree(childAt(doc, fromGet, t), {
            pointer: appendPointer(p, t),
            node: getAt(doc, appendPointer(p, t)),
          });
          agree(followChild(doc, fromFollow, t), follow(doc, appendPointer(fromFollow.pointer, t)));
          compared += 6;
        }
        agree(followFrom(doc, fromGet), follow(doc, p));
        agree(getFrom(doc, fromFollow), { pointer: fromFollow.pointer, node: getAt(doc, fromFollow.pointer) });
      }
    }
    expect(compared).toBeGreaterThan(3_000);
  });
});
