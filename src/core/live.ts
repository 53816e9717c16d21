import { FieldColumns } from './field-columns.js';
import type { CollectionModel } from './model.js';
import { type ItemSet, itemSetOf, type PreparedItem, prepareItem } from './store.js';

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
  #own: { readonly set: ItemSet; readonly items: PreparedItem[]; readonly columns: FieldColumns } | undefined;
  #maxPk: number | undefined;

  constructor(model: CollectionModel) {
    this.model = model;
  }

  /** The items now, in order, and by pk. */
  get set(): ItemSet {
    return this.#own?.set ?? this.model.items;
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

  #owned(): { readonly set: ItemSet; readonly items: PreparedItem[]; readonly columns: FieldColumns } {
    if (this.#own === undefined) {
      const from = this.model.items;
      const items = from.items.slice();
      this.#own = {
        set: itemSetOf(items, from.byPk.places.copy()),
        items,
        columns: FieldColumns.of(from.items).copyFor(items),
      };
    }
    return this.#own;
  }

  #prepare(values: Record<string, unknown>): PreparedItem {
    return prepareItem(values, {
      fields: this.model.fields,
      withUrl: this.model.withUrl,
      pkField: this.model.lookup,
      hidden: this.model.hidden,
    });
  }

  insert(values: Record<string, unknown>): PreparedItem {
    const { set, items, columns } = this.#owned();
    const item = this.#prepare(values);
    items.push(item);
    set.byPk.places.put(item.pk, items.length - 1);
    columns.inserted(item);
    return item;
  }

  replace(old: PreparedItem, values: Record<string, unknown>): PreparedItem {
    const { set, items, columns } = this.#owned();
    const item = this.#prepare(values);
    const at = this.#placeOf(old);
    if (at !== -1) {
      items[at] = item;
      set.byPk.places.replace(old.pk, item.pk, at);
      columns.replaced(at, item);
    }
    return item;
  }

  remove(old: PreparedItem): void {
    const { set, items, columns } = this.#owned();
    const at = this.#placeOf(old);
    if (at === -1) return;
    items.splice(at, 1);
    set.byPk.places.remove(old.pk, at);
    columns.removed(at);
  }

  /** Where an item found by its pk (in this list, or in the snapshot's before the first write) stands now, or -1. */
  #placeOf(old: PreparedItem): number {
    const items = this.#own?.items ?? [];
    const at = old.pk === undefined ? -1 : (this.#own?.set.byPk.places.get(old.pk) ?? -1);
    return at !== -1 && items[at] === old ? at : items.indexOf(old);
  }
}
