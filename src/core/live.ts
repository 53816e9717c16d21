import type { CollectionModel } from './model.js';
import { type ItemSet, type PreparedItem, itemObject, prepareItem } from './store.js';

/**
 * A collection as writes leave it: the snapshot's items until the first write, then an in-memory
 * copy that POST, PUT, PATCH and DELETE change (a DRF ModelViewSet over its table). Nothing is
 * written anywhere; a new core (a restart, a reload, `POST /__stub/reset`) starts from the snapshot.
 */
export class LiveCollection {
  readonly model: CollectionModel;
  #items: PreparedItem[] | undefined;
  #byPk: Map<string, PreparedItem> | undefined;
  readonly #objects = new WeakMap<PreparedItem, Record<string, unknown>>();
  #maxPk: number | undefined;

  constructor(model: CollectionModel) {
    this.model = model;
  }

  /** The items now, in order, and by pk. */
  get set(): ItemSet {
    return this.#items === undefined
      ? this.model.items
      : { items: this.#items, byPk: this.#byPk as Map<string, PreparedItem> };
  }

  /** An item's members (without its url), parsed once from its serialized form. */
  object(item: PreparedItem): Record<string, unknown> {
    let o = this.#objects.get(item);
    if (!o) {
      o = itemObject(item);
      this.#objects.set(item, o);
    }
    return o;
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

  #own(): { items: PreparedItem[]; byPk: Map<string, PreparedItem> } {
    if (this.#items === undefined) {
      this.#items = [...this.model.items.items];
      this.#byPk = new Map();
      for (const item of this.#items)
        if (item.pk !== undefined && !this.#byPk.has(item.pk)) this.#byPk.set(item.pk, item);
    }
    return { items: this.#items, byPk: this.#byPk as Map<string, PreparedItem> };
  }

  #prepare(values: Record<string, unknown>): PreparedItem {
    const item = prepareItem(values, {
      fields: this.model.fields,
      withUrl: this.model.withUrl,
      pkField: this.model.lookup,
      hidden: this.model.hidden,
    });
    this.#objects.set(item, values);
    return item;
  }

  insert(values: Record<string, unknown>): PreparedItem {
    const { items, byPk } = this.#own();
    const item = this.#prepare(values);
    items.push(item);
    if (item.pk !== undefined) byPk.set(item.pk, item);
    return item;
  }

  replace(old: PreparedItem, values: Record<string, unknown>): PreparedItem {
    const { items, byPk } = this.#own();
    const item = this.#prepare(values);
    const at = this.#placeOf(items, old);
    if (at !== -1) items[at] = item;
    if (old.pk !== undefined) byPk.delete(old.pk);
    if (item.pk !== undefined) byPk.set(item.pk, item);
    return item;
  }

  remove(old: PreparedItem): void {
    const { items, byPk } = this.#own();
    const at = this.#placeOf(items, old);
    if (at !== -1) items.splice(at, 1);
    if (old.pk !== undefined) byPk.delete(old.pk);
  }

  /**
   * Where an item found before the first write stands in the copy that write made: the same object,
   * or, from a packed set (whose items are made again once their block has been let go: a
   * collection of more than 32 blocks), the item of the same pk (pks are unique: the loader
   * refuses a repeated one); -1 for none.
   */
  #placeOf(items: readonly PreparedItem[], old: PreparedItem): number {
    const at = items.indexOf(old);
    if (at !== -1 || old.pk === undefined) return at;
    const same = this.#byPk?.get(old.pk);
    return same === undefined ? -1 : items.indexOf(same);
  }
}
