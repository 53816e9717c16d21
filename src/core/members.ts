import type { CoreAnswer } from './request.js';

/**
 * `{ ...base, ...extra }`, made so that V8 can give every result one hidden class. On Node 20's
 * V8 an object literal that adds a member after a spread gets a hidden class (a "map") of its own
 * each time it runs; maps live in the old generation, so an answer built that way left about 220
 * bytes there per request, for the major GC alone to take back (the soak's RSS sawtooth,
 * docs/performance.md). Here the members are added one at a time from an empty object, along the
 * transitions V8 keeps. Same members, same order, same values as the spread; a member named
 * `__proto__` (JSON.parse makes one) would set the result's prototype through Object.assign, so
 * such objects are spread.
 */
export function withMembers<A extends object, B extends object>(base: A, extra: B): Omit<A, keyof B> & B {
  if (Object.hasOwn(base, '__proto__') || Object.hasOwn(extra, '__proto__')) return { ...base, ...extra };
  return Object.assign({}, base, extra) as Omit<A, keyof B> & B;
}

/** The answer with these headers added (or replaced, each in its place), built as withMembers builds. */
export function withHeaders(answer: CoreAnswer, extra: Readonly<Record<string, string>>): CoreAnswer {
  return withMembers(answer, { headers: withMembers(answer.headers, extra) });
}
