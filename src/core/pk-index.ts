/** Is `s` an integer as String(n) writes one (no sign but `-`, no leading zero, not `-0`)? No string made. */
export function isIntegerText(s: string): boolean {
  const n = s.length;
  let i = s.charCodeAt(0) === 0x2d ? 1 : 0;
  if (i === n || n > 17 || (s.charCodeAt(i) === 0x30 && (n > i + 1 || i === 1))) return false;
  for (; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x30 || c > 0x39) return false;
  }
  return true;
}

/**
 * Places by pk: the place of each pk among items told one after another. While the pks are safe
 * integers in ascending order (the common fixture) they are kept as numbers and searched by
 * bisection, no map of a million texts; from the first pk out of that order on, a map. The loader
 * checks pks are unique with it, and the core finds an item by its pk with the same index.
 */
export class PkIndex {
  #pks: Float64Array = new Float64Array(1024);
  /** The places of the ascending pks, once one is not its pk's rank (an item between them was left out). */
  #at: Float64Array | undefined;
  #count = 0;
  #map: Map<string, number> | undefined;

  /** The index of a list of items' pks, each at its place in it (the first place wins for a repeated pk). */
  static of(items: readonly { readonly pk: string | undefined }[]): PkIndex {
    const index = new PkIndex();
    for (let i = 0; i < items.length; i++) index.add((items[i] as { pk: string | undefined }).pk, i);
    return index;
  }

  /**
   * Adds `pk` at `place` (after every place added before), `n` the safe integer its text writes
   * if known (then `pk` may be left undefined: its text is String(n)). Answers the place of an
   * earlier equal pk, and adds nothing then; else -1. No pk at all is a place without a pk.
   */
  add(
    pk: string | undefined,
    place: number,
    n = pk !== undefined && isIntegerText(pk) ? Number(pk) : Number.NaN,
  ): number {
    if (pk === undefined && !Number.isSafeInteger(n)) return -1;
    if (this.#map === undefined) {
      const i = this.#count;
      if (Number.isSafeInteger(n) && (i === 0 || n > (this.#pks[i - 1] as number))) {
        if (i === this.#pks.length) {
          this.#pks = grown(this.#pks);
          if (this.#at) this.#at = grown(this.#at);
        }
        this.#pks[i] = n;
        if (this.#at === undefined && place !== i) {
          this.#at = new Float64Array(this.#pks.length);
          for (let j = 0; j < i; j++) this.#at[j] = j;
        }
        if (this.#at) this.#at[i] = place;
        this.#count++;
        return -1;
      }
      this.#toMap();
    }
    const map = this.#map as Map<string, number>;
    const text = pk ?? String(n);
    const earlier = map.get(text);
    if (earlier !== undefined) return earlier;
    map.set(text, place);
    return -1;
  }

  /** The place of `pk`, or -1. */
  get(pk: string): number {
    if (this.#map !== undefined) return this.#map.get(pk) ?? -1;
    if (!isIntegerText(pk)) return -1;
    const n = Number(pk);
    const i = this.#rank(n);
    return i < 0 ? -1 : this.#placeAt(i);
  }

  /** A copy, for a collection that writes will change. */
  copy(): PkIndex {
    const c = new PkIndex();
    c.#pks = this.#pks.slice(0, Math.max(this.#count, 1));
    c.#at = this.#at?.slice(0, Math.max(this.#count, 1));
    c.#count = this.#count;
    c.#map = this.#map && new Map(this.#map);
    return c;
  }

  /** A write put the item of `pk` at `place`: it wins over an earlier item of the same pk. */
  put(pk: string | undefined, place: number): void {
    if (pk !== undefined && this.add(pk, place) !== -1) (this.#map as Map<string, number>).set(pk, place);
  }

  /** A write put the item of `pk` at `place` among the others: every place from it on moves one up. */
  insertAt(pk: string | undefined, place: number): void {
    this.#toMap();
    const map = this.#map as Map<string, number>;
    for (const [k, at] of map) if (at >= place) map.set(k, at + 1);
    if (pk !== undefined) map.set(pk, place);
  }

  /** A write took out the item at `place`, of pk `pk`: every later place moves one down. */
  remove(pk: string | undefined, place: number): void {
    if (this.#map === undefined) {
      const i = pk === undefined || !isIntegerText(pk) ? -1 : this.#rank(Number(pk));
      if (i >= 0 && this.#placeAt(i) === place) {
        this.#pks.copyWithin(i, i + 1, this.#count);
        if (this.#at) {
          this.#at.copyWithin(i, i + 1, this.#count);
          for (let j = i; j < this.#count - 1; j++) this.#at[j] = (this.#at[j] as number) - 1;
        }
        this.#count--;
        return;
      }
      this.#toMap();
    }
    const map = this.#map as Map<string, number>;
    if (pk !== undefined) map.delete(pk);
    for (const [k, at] of map) if (at > place) map.set(k, at - 1);
  }

  /** A write replaced the item at `place`: its pk was `before`, is `after`. */
  replace(before: string | undefined, after: string | undefined, place: number): void {
    if (before === after && after !== undefined && this.get(after) === place) return;
    this.#toMap();
    const map = this.#map as Map<string, number>;
    if (before !== undefined) map.delete(before);
    if (after !== undefined) map.set(after, place);
  }

  /** The rank of `n` among the ascending pks, or -1. */
  #rank(n: number): number {
    let lo = 0;
    let hi = this.#count - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const v = this.#pks[mid] as number;
      if (v === n) return mid;
      if (v < n) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  #placeAt(rank: number): number {
    return this.#at ? (this.#at[rank] as number) : rank;
  }

  #toMap(): void {
    if (this.#map !== undefined) return;
    const map = new Map<string, number>();
    for (let j = 0; j < this.#count; j++) map.set(String(this.#pks[j]), this.#placeAt(j));
    this.#map = map;
    this.#pks = new Float64Array(0);
    this.#at = undefined;
    this.#count = 0;
  }
}

function grown(a: Float64Array): Float64Array {
  const bigger = new Float64Array(a.length * 2);
  bigger.set(a);
  return bigger;
}
