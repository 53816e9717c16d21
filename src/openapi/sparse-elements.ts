/** An index past any a document holds (a status, an array index in a map's keys). */
const FAR_INDEX = 2 ** 31;

/**
 * Gives `o` the storage of index-named members that JSON.parse gives: a dictionary. V8 stores a
 * member named like an array index (`200`, `404`) as an element, and one set on an object without
 * it makes a fast backing store of as many slots as the index (a `responses` map of `{200, 404}`:
 * 405 slots, about 5 KB), where a dictionary holds two. An element set far past the end, then
 * deleted, turns the store into a dictionary, which stays one. Members, their order and their
 * values are those of the object before (docs/performance.md).
 */
export function sparseElements<T extends object>(o: T): T {
  const r = o as Record<number, unknown>;
  r[FAR_INDEX] = undefined;
  delete r[FAR_INDEX];
  return o;
}
