import { isDeepStrictEqual } from 'node:util';

/**
 * Values, each followed by every way of breaking it at one place: every member of every object and
 * array (each shared object once) removed, its value replaced by one of another type, and an
 * unknown member added to it. A broken value is the value changed in place, yielded, then
 * restored: read it before the next step. Used to hold a precompiled validator to the compiled one.
 */
export function* brokenEverywhere(values: readonly object[]): Generator<unknown> {
  const wrong = [42, -1, 'text', true, null, [], {}, [1, 'a'], { bogus: 1 }];
  let turn = 0;
  for (const root of values) {
    yield root;
    const seen = new Set<object>();
    const places: [Record<string, unknown>, string][] = [];
    const walk = (node: unknown) => {
      if (node === null || typeof node !== 'object' || seen.has(node)) return;
      seen.add(node);
      for (const key of Object.keys(node)) {
        places.push([node as Record<string, unknown>, key]);
        walk((node as Record<string, unknown>)[key]);
      }
    };
    walk(root);
    for (const [parent, key] of places) {
      const value = parent[key];
      if (!Array.isArray(parent)) {
        delete parent[key];
        yield root;
        parent[key] = value;
      }
      parent[key] = wrong[turn++ % wrong.length];
      yield root;
      parent[key] = value;
      if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
        (value as Record<string, unknown>).bogusMember = 'x';
        yield root;
        delete (value as Record<string, unknown>).bogusMember;
      }
    }
  }
}

/**
 * Two validators' answers on `values` broken everywhere (see brokenEverywhere): the first value on
 * which they differ (as JSON, taken before it is restored) with both answers, the values run, and
 * how many of them `a` found invalid.
 */
export function firstDifference<T>(
  a: (value: unknown) => T,
  b: (value: unknown) => T,
  invalid: (answer: T) => boolean,
  values: readonly object[],
): { runs: number; invalid: number; difference?: { value: string; a: T; b: T } } {
  let runs = 0;
  let invalidRuns = 0;
  for (const value of brokenEverywhere(values)) {
    runs++;
    const answerA = a(value);
    const answerB = b(value);
    if (invalid(answerA)) invalidRuns++;
    if (!isDeepStrictEqual(answerA, answerB))
      return { runs, invalid: invalidRuns, difference: { value: JSON.stringify(value), a: answerA, b: answerB } };
  }
  return { runs, invalid: invalidRuns };
}
