import { itemObject, type PreparedItem } from './prepared-items.js';

const made = new WeakMap<readonly PreparedItem[], FieldColumns>();

/**
 * The values of a field of every item of a list, one array per field, read from the items' JSON
 * when a filter, a search or an ordering first asks for that field, and kept with the list (and
 * let go with it): a value per item and field asked for, not a parsed object per item.
 */
export class FieldColumns {
  readonly #items: readonly PreparedItem[];
  readonly #columns: Map<string, unknown[]>;

  private constructor(items: readonly PreparedItem[], columns = new Map<string, unknown[]>()) {
    this.#items = items;
    this.#columns = columns;
  }

  /** The columns of a list of items (made once per list: the same list, the same columns). */
  static of(items: readonly PreparedItem[]): FieldColumns {
    let columns = made.get(items);
    if (columns === undefined) {
      columns = new FieldColumns(items);
      made.set(items, columns);
    }
    return columns;
  }

  /** The column of each of `fields`, in the items' order: those not made yet, made in one pass. */
  columns(fields: readonly string[]): (readonly unknown[])[] {
    const missing = fields.filter((f) => !this.#columns.has(f));
    if (missing.length > 0) {
      const n = this.#items.length;
      const fresh = missing.map(() => new Array<unknown>(n));
      for (let i = 0; i < n; i++) {
        // Read as the item's parsed members are (an absent member, an inherited one alike).
        const members = itemObject(this.#items[i] as PreparedItem);
        for (let k = 0; k < missing.length; k++) (fresh[k] as unknown[])[i] = members[missing[k] as string];
      }
      missing.forEach((f, k) => this.#columns.set(f, fresh[k] as unknown[]));
    }
    return fields.map((f) => this.#columns.get(f) as unknown[]);
  }

  /**
   * The columns of `items`, a copy of this list that writes will change: the columns made so far
   * copied, then kept in step by `inserted`, `replaced` and `removed`.
   */
  copyFor(items: readonly PreparedItem[]): FieldColumns {
    const copy = new FieldColumns(items, new Map([...this.#columns].map(([f, values]) => [f, values.slice()])));
    made.set(items, copy);
    return copy;
  }

  /** `item` was added to the list at `at` (at its end by default). */
  inserted(item: PreparedItem, at = Number.POSITIVE_INFINITY): void {
    if (this.#columns.size === 0) return;
    const members = itemObject(item);
    for (const [f, values] of this.#columns) values.splice(Math.min(at, values.length), 0, members[f]);
  }

  /** The item at `at` is `item` now. */
  replaced(at: number, item: PreparedItem): void {
    if (this.#columns.size === 0) return;
    const members = itemObject(item);
    for (const [f, values] of this.#columns) values[at] = members[f];
  }

  /** The item at `at` was taken out. */
  removed(at: number): void {
    for (const values of this.#columns.values()) values.splice(at, 1);
  }
}
