import { querysetRows, type QuerysetRows } from './django/queryset.js';
import { FieldColumns } from './field-columns.js';
import { type CollectionModel, prepareOptionsOf } from './model.js';
import { type ItemSet, itemObject, itemSetOf, type PreparedItem, prepareItem, withPk } from './prepared-items.js';
import { isWholeTable, type Queryset } from '../openapi/queryset.js';

/**
 * The snapshot's items as a viewset's queryset holds them (`x-queryset`): those its filter keeps,
 * in the model's ordering; the others kept apart (a uniqueness check still sees them). Made once
 * per item set and queryset, shared by every session; a fixture already in order and all kept
 * (the usual case) is used as it is, after one pass over its items.
 */
interface Base {
  readonly set: ItemSet;
  /** The items its filter leaves out. */
  readonly filteredOut: readonly PreparedItem[];
}
const bases = new WeakMap<ItemSet, Map<Queryset, Base>>();

/** The bases made for an item set, by queryset. */
function basesOf(from: ItemSet): Map<Queryset, Base> {
  let byQueryset = bases.get(from);
  if (byQueryset === undefined) bases.set(from, (byQueryset = new Map()));
  return byQueryset;
}

function baseOf(from: ItemSet, q: Queryset): Base {
  if (isWholeTable(q)) return { set: from, filteredOut: [] };
  return basesOf(from).get(q) ?? keptBase(from, q, asItStands(new QuerysetOrder(q), from, 0, from.items.length));
}

/** Keeps the base of `from` for `q`: its items as they stand, or sorted (`asIs`: they are the queryset). */
function keptBase(from: ItemSet, q: Queryset, asIs: boolean): Base {
  const base = asIs ? { set: from, filteredOut: [] } : sortedBase(from, q);
  basesOf(from).set(q, base);
  return base;
}

/**
 * Follows a table's rows one at a time, in their order: does each pass the queryset's filter and
 * stand in its ordering after the one before (the rows are the queryset as they stand)? A row is
 * given as its values of `fields`; nothing is kept of it but its values, until the next row.
 */
export class QuerysetOrder {
  readonly #rows: QuerysetRows;
  /** The values of the row before. */
  readonly #previous: unknown[];
  readonly #scratch: unknown[];
  #seen = 0;
  #holds = true;

  constructor(q: Queryset) {
    this.#rows = querysetRows(q);
    this.#previous = new Array<unknown>(this.fields.length);
    this.#scratch = new Array<unknown>(this.fields.length);
  }

  /** The fields a row's values are given for, in this order (QuerysetRows). */
  get fields(): readonly string[] {
    return this.#rows.fields;
  }

  get holds(): boolean {
    return this.#holds;
  }

  /** The next row, its values of `fields` at `values[at]` on; answers whether every row so far holds. */
  next(values: readonly unknown[], at = 0): boolean {
    if (!this.#holds) return false;
    const rows = this.#rows;
    const previous = this.#previous;
    if (!rows.keeps(values, at) || (this.#seen++ > 0 && rows.compare(previous, values, at) > 0))
      return (this.#holds = false);
    for (let i = 0; i < previous.length; i++) previous[i] = values[at + i];
    return true;
  }

  /** The next row, as its parsed members. */
  nextMembers(members: Record<string, unknown>): boolean {
    return this.next(this.#rows.valuesOf(members, this.#scratch));
  }
}

/** The rows of a collection's items were seen in QuerysetOrder, all holding: they are its base as they stand. */
export function standsAsQueryset(model: CollectionModel): void {
  const q = model.list.queryset;
  if (!isWholeTable(q)) keptBase(model.items, q, true);
}

/** The items from `start` to `end`, each parsed and let go, through `order`. */
function asItStands(order: QuerysetOrder, from: ItemSet, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if (!order.nextMembers(itemObject(from.items[i] as PreparedItem))) return false;
  return order.holds;
}

/** The items the queryset's filter keeps, in its ordering; the others apart. */
function sortedBase(from: ItemSet, q: Queryset): Base {
  const rows = querysetRows(q);
  const kept: { item: PreparedItem; values: unknown[] }[] = [];
  const filteredOut: PreparedItem[] = [];
  for (const item of from.items) {
    const values = rows.valuesOf(itemObject(item));
    if (rows.keeps(values)) kept.push({ item, values });
    else filteredOut.push(item);
  }
  // Array.prototype.sort is stable: items the ordering ties keep the fixture's order.
  kept.sort((a, b) => rows.compare(a.values, b.values));
  return { set: itemSetOf(kept.map((k) => k.item)), filteredOut };
}

/** Items checked between two pauses of `prepareQueryset`. */
const CHUNK = 20_000;

/**
 * Makes a collection's queryset base ahead of its first request, pausing every CHUNK items (the
 * loader passes a turn of the event loop), so that a large fixture's one pass happens while the
 * state is loaded (a reload: while the state before still answers), not in the first request.
 * A fixture out of the queryset's order is then sorted in one go.
 */
export async function prepareQueryset(model: CollectionModel, pause: () => Promise<void>): Promise<void> {
  const q = model.list.queryset;
  if (isWholeTable(q)) return;
  const from = model.items;
  if (bases.get(from)?.has(q)) return;
  const order = new QuerysetOrder(q);
  let asIs = true;
  for (let start = 0; asIs && start < from.items.length; start += CHUNK) {
    if (start > 0) await pause();
    asIs = asItStands(order, from, start, Math.min(from.items.length, start + CHUNK));
  }
  if (!basesOf(from).has(q)) keptBase(from, q, asIs);
}

/**
 * A collection as writes leave it: the snapshot's items until the first write, then a list of its
 * own that POST, PUT, PATCH and DELETE change (a DRF ModelViewSet over its table). The list holds
 * the snapshot's item objects that no write changed (a million items: one array of references
 * more, not a copy of each); its pk index and the columns made for filters are copied with it and
 * kept in step. Nothing is written anywhere; a new core (a restart, a reload,
 * `POST /__stub/reset`) starts from the snapshot, and this copy is let go.
 */
export class LiveCollection {
  readonly model: CollectionModel;
  #own:
    | {
        readonly set: ItemSet;
        readonly items: PreparedItem[];
        readonly columns: FieldColumns;
        readonly filteredOut: PreparedItem[];
      }
    | undefined;
  #maxPk: number | undefined;
  /** Per field `x-unique` checks: how many items hold each value (made on the first check). */
  #taken: Map<string, Map<string, number>> | undefined;

  constructor(model: CollectionModel) {
    this.model = model;
  }

  /** The items the queryset holds now, in its order, and by pk. */
  get set(): ItemSet {
    return this.#own?.set ?? baseOf(this.model.items, this.model.list.queryset).set;
  }

  /** Every item of the table, those the queryset leaves out included. */
  #all(): PreparedItem[] {
    const own = this.#own;
    if (own) return [...own.items, ...own.filteredOut];
    const base = baseOf(this.model.items, this.model.list.queryset);
    return [...base.set.items, ...base.filteredOut];
  }

  /**
   * Does another item of the table hold `value` in `field` (a unique model field: Django's
   * UniqueValidator queries the whole table, not the view's queryset)? `except`: the item an
   * update changes.
   */
  isTaken(field: string, value: unknown, except?: PreparedItem): boolean {
    if (this.#taken === undefined) this.#taken = new Map();
    let counts = this.#taken.get(field);
    if (counts === undefined) {
      counts = new Map();
      for (const item of this.#all()) {
        const key = JSON.stringify(itemObject(item)[field] ?? null);
        counts.set(key, (counts.get(key) ?? 0) + 1);
      }
      this.#taken.set(field, counts);
    }
    const key = JSON.stringify(value ?? null);
    const own = except !== undefined && JSON.stringify(itemObject(except)[field] ?? null) === key ? 1 : 0;
    return (counts.get(key) ?? 0) > own;
  }

  /** Keeps the uniqueness counts in step with a write. */
  #counted(item: PreparedItem | undefined, by: 1 | -1): void {
    if (this.#taken === undefined || item === undefined) return;
    const members = itemObject(item);
    for (const [field, counts] of this.#taken) {
      const key = JSON.stringify(members[field] ?? null);
      counts.set(key, (counts.get(key) ?? 0) + by);
    }
  }

  /**
   * The pk a created item gets: one more than the highest ever given (Django's AutoField on
   * SQLite is AUTOINCREMENT: a deleted pk is never given again).
   */
  nextPk(): number {
    if (this.#maxPk === undefined) {
      let max = 0;
      for (const item of this.model.items.items) {
        const n = Number(item.pk);
        if (Number.isSafeInteger(n) && n > max) max = n;
      }
      this.#maxPk = max;
    }
    this.#maxPk += 1;
    return this.#maxPk;
  }

  #owned() {
    if (this.#own === undefined) {
      const base = baseOf(this.model.items, this.model.list.queryset);
      const from = base.set;
      const items = from.items.slice();
      this.#own = {
        set: itemSetOf(items, from.byPk.places.copy()),
        items,
        columns: FieldColumns.of(from.items).copyFor(items),
        filteredOut: base.filteredOut.slice(),
      };
    }
    return this.#own;
  }

  #prepare(values: Record<string, unknown>): PreparedItem {
    return prepareItem(values, prepareOptionsOf(this.model));
  }

  /**
   * A new row: at its place in the model's ordering (after those it ties with), or among the rows
   * the queryset leaves out when its filter does not keep it. Without a lookup field the row gets
   * the table's next pk all the same (Django's AutoField), unseen but addressable.
   */
  insert(values: Record<string, unknown>): PreparedItem {
    let item = this.#prepare(values);
    if (item.pk === undefined && this.model.lookup === undefined) item = withPk(item, String(this.nextPk()));
    this.#place(item);
    this.#counted(item, 1);
    return item;
  }

  replace(old: PreparedItem, values: Record<string, unknown>): PreparedItem {
    const q = this.model.list.queryset;
    const { set, items, columns } = this.#owned();
    let item = this.#prepare(values);
    if (item.pk === undefined) item = withPk(item, old.pk);
    const at = this.#placeOf(old);
    this.#counted(old, -1);
    this.#counted(item, 1);
    // Where ordering and filter leave it in place (the usual update), it is replaced where it stands.
    if (at !== -1 && isWholeTable(q)) {
      items[at] = item;
      set.byPk.places.replace(old.pk, item.pk, at);
      columns.replaced(at, item);
      return item;
    }
    this.#take(old, at);
    this.#place(item);
    return item;
  }

  remove(old: PreparedItem): void {
    // The copy first: before it, #placeOf finds nothing (a first write that is a DELETE removed nothing).
    this.#owned();
    this.#take(old, this.#placeOf(old));
    this.#counted(old, -1);
  }

  #take(old: PreparedItem, at: number): void {
    const { set, items, columns, filteredOut } = this.#owned();
    if (at === -1) {
      const h = filteredOut.indexOf(old);
      if (h !== -1) filteredOut.splice(h, 1);
      return;
    }
    items.splice(at, 1);
    set.byPk.places.remove(old.pk, at);
    columns.removed(at);
  }

  #place(item: PreparedItem): void {
    const q = this.model.list.queryset;
    const { set, items, columns, filteredOut } = this.#owned();
    const rows = querysetRows(q);
    const values = rows.valuesOf(itemObject(item));
    if (!rows.keeps(values)) {
      filteredOut.push(item);
      return;
    }
    if (q.ordering.length === 0) {
      items.push(item);
      set.byPk.places.put(item.pk, items.length - 1);
      columns.inserted(item);
      return;
    }
    // The first place whose item orders after the new one (binary search: log n items parsed).
    let lo = 0;
    let hi = items.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (rows.compare(rows.valuesOf(itemObject(items[mid] as PreparedItem)), values) <= 0) lo = mid + 1;
      else hi = mid;
    }
    items.splice(lo, 0, item);
    if (lo === items.length - 1) set.byPk.places.put(item.pk, lo);
    else set.byPk.places.insertAt(item.pk, lo);
    columns.inserted(item, lo);
  }

  /** Where an item found by its pk (in this list, or in the snapshot's before the first write) stands now, or -1. */
  #placeOf(old: PreparedItem): number {
    const items = this.#own?.items ?? [];
    const at = old.pk === undefined ? -1 : (this.#own?.set.byPk.places.get(old.pk) ?? -1);
    return at !== -1 && items[at] === old ? at : items.indexOf(old);
  }
}
