import { FieldColumns } from '../field-columns.js';
import { compareValues } from '../drf/filters.js';
import type { PreparedItem } from '../prepared-items.js';
import type { Queryset } from '../../openapi/queryset.js';

/** What a filter backend keeps: a predicate over an item's members, and the members it reads. */
export interface ItemFilter {
  readonly keep: (item: Record<string, unknown>) => boolean;
  readonly fields: readonly string[];
}

/** Items chosen from a list, by their places in it: read a page at a time, never copied whole. */
export interface ItemSelection {
  readonly length: number;
  slice(start: number, end: number): PreparedItem[];
}

/**
 * The items a list answers with, as QuerySet.filter() then order_by() give them: those `filter`
 * keeps, sorted by `ordering` (a stable sort: ties keep the list's order). Members are read from
 * the list's columns (field-columns.ts), never from a parsed object per item.
 */
export function filterAndOrder(
  items: readonly PreparedItem[],
  filter: ItemFilter | undefined,
  ordering: readonly { readonly field: string; readonly desc: boolean }[],
): ItemSelection {
  // A filter that tests nothing (none of its parameters given) keeps every item.
  const tests = filter !== undefined && filter.fields.length > 0 ? filter : undefined;
  if (tests === undefined && ordering.length === 0) return items;
  const columns = FieldColumns.of(items);
  let places: Uint32Array;
  if (tests === undefined) places = Uint32Array.from({ length: items.length }, (_, i) => i);
  else {
    const read = columns.columns(tests.fields);
    // One row, its members set from the columns for each item: no object per item. No prototype,
    // so that a member named `__proto__` is a member, as in a parsed item.
    const row = Object.create(null) as Record<string, unknown>;
    const kept = new Uint32Array(items.length);
    let n = 0;
    for (let i = 0; i < items.length; i++) {
      for (let k = 0; k < read.length; k++) row[tests.fields[k] as string] = (read[k] as readonly unknown[])[i];
      if (tests.keep(row)) kept[n++] = i;
    }
    places = kept.subarray(0, n);
  }
  let chosen: ArrayLike<number> = places;
  if (ordering.length > 0) {
    const keys = columns.columns(ordering.map((o) => o.field));
    // Array.prototype.sort, as the items themselves were sorted: the same comparisons in the same
    // order, so the same order even where compareValues is not consistent (undefined and null).
    chosen = Array.from(places).sort((a, b) => {
      for (let k = 0; k < keys.length; k++) {
        const values = keys[k] as readonly unknown[];
        const d = compareValues(values[a], values[b]);
        if (d !== 0) return (ordering[k] as { desc: boolean }).desc ? -d : d;
      }
      return 0;
    });
  }
  const picked = chosen;
  return {
    length: picked.length,
    slice: (start, end) => {
      const out: PreparedItem[] = [];
      for (let i = Math.max(0, start); i < Math.min(end, picked.length); i++)
        out.push(items[picked[i] as number] as PreparedItem);
      return out;
    },
  };
}

/**
 * A viewset's queryset (`x-queryset`) read against rows given as arrays of their values of
 * `fields`: does its filter keep a row (each member equal), and where does Meta.ordering place one
 * row against another. One per queryset (querysetRows): the live collection sorts and places its
 * items by it, and the loader follows a fixture's rows through it (live.ts, QuerysetOrder).
 */
export class QuerysetRows {
  /** The fields a row's values are given for, in this order: the filter's, then the ordering's others. */
  readonly fields: readonly string[];
  /** Per member of the filter: its place in `fields`, and the value it wants. */
  readonly #filter: readonly (readonly [number, unknown])[];
  /** Per field of the ordering: its place in `fields`, and whether descending. */
  readonly #ordering: readonly (readonly [number, boolean])[];

  constructor(q: Queryset) {
    this.fields = [...new Set([...Object.keys(q.filter ?? {}), ...q.ordering.map((o) => o.field)])];
    this.#filter = Object.entries(q.filter ?? {}).map(([f, want]) => [this.fields.indexOf(f), want] as const);
    this.#ordering = q.ordering.map((o) => [this.fields.indexOf(o.field), o.desc] as const);
  }

  /** A row's values of `fields`, read from its members (into `into` where given). */
  valuesOf(members: Record<string, unknown>, into = new Array<unknown>(this.fields.length)): unknown[] {
    for (let i = 0; i < into.length; i++) into[i] = members[this.fields[i] as string];
    return into;
  }

  /** Whether the filter keeps the row whose values stand at `values[at]` on. */
  keeps(values: readonly unknown[], at = 0): boolean {
    for (const [i, want] of this.#filter) if (values[at + i] !== want) return false;
    return true;
  }

  /** The ordering's comparison of row `a` with the row at `b[bAt]` on: below 0 where `a` comes first. */
  compare(a: readonly unknown[], b: readonly unknown[], bAt = 0): number {
    for (const [i, desc] of this.#ordering) {
      const d = compareValues(a[i], b[bAt + i]);
      if (d !== 0) return desc ? -d : d;
    }
    return 0;
  }
}

const rowsByQueryset = new WeakMap<Queryset, QuerysetRows>();

/** The queryset's QuerysetRows, made once. */
export function querysetRows(q: Queryset): QuerysetRows {
  let rows = rowsByQueryset.get(q);
  if (rows === undefined) rowsByQueryset.set(q, (rows = new QuerysetRows(q)));
  return rows;
}
