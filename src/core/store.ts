import { type ItemUrlParts, PK_SEGMENT, reverseQuote } from './django/urls.js';
import { isObject } from '../openapi/pointer.js';
import { type ItemList, PackedItems, PackedItemsWriter } from './packed-items.js';

export type { ItemList } from './packed-items.js';

/** Where a collection's items come from (the numbered order in `docs/response-selection.md`). */
export type ItemSource = 'fixture' | 'examples' | 'generated' | 'empty';

/**
 * One item, serialized once, its members in the order of the item schema (a serializer's field
 * order), undescribed members after, its url left out: per request only the url (base, item path
 * with the pk, format) is joined in, at `urlAt` (just after `{`, or after the member the url
 * follows). `urlAt` is -1 when the collection builds no url for the item.
 */
export interface PreparedItem {
  readonly pk: string | undefined;
  readonly json: string;
  readonly urlAt: number;
}

/** Items by pk: a map to their places, or a binary search when the pks are integers in ascending order (no map of a million). */
export interface PkIndex {
  get(pk: string): PreparedItem | undefined;
  keys(): IterableIterator<string>;
}

/** Items ready to serve, in order (an array, or packed: packed-items.ts), and by pk for the item path. */
export interface ItemSet {
  readonly items: ItemList;
  readonly byPk: PkIndex;
}

class AscendingIntIndex implements PkIndex {
  constructor(
    readonly items: ItemList,
    readonly pks: Float64Array,
  ) {}
  get(pk: string): PreparedItem | undefined {
    const n = Number(pk);
    if (!Number.isSafeInteger(n)) return undefined;
    let lo = 0;
    let hi = this.pks.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const v = this.pks[mid] as number;
      if (v === n) {
        const item = this.items.at(mid);
        return item?.pk === pk ? item : undefined;
      }
      if (v < n) lo = mid + 1;
      else hi = mid - 1;
    }
    return undefined;
  }
  *keys(): IterableIterator<string> {
    // Each pk's text is its number's (isIntegerText): no item made.
    for (const n of this.pks) yield String(n);
  }
}

class MapIndex implements PkIndex {
  constructor(
    readonly items: ItemList,
    readonly places: ReadonlyMap<string, number>,
  ) {}
  get(pk: string): PreparedItem | undefined {
    const at = this.places.get(pk);
    return at === undefined ? undefined : this.items.at(at);
  }
  keys(): IterableIterator<string> {
    return this.places.keys();
  }
}

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
 * The pk index of items told one after another: a binary search while their pks are integers in
 * ascending order (the common fixture), a map from the first one out of order on. The first item
 * wins for a repeated pk (the loader refuses repeats).
 */
class PkIndexBuilder {
  #pks = new Float64Array(1024);
  #count = 0;
  #ascending = true;
  #places: Map<string, number> | undefined;

  /** The next item's pk: its text, or (`n`) the safe integer its canonical text writes. */
  add(pk: string | undefined, n = pk !== undefined && isIntegerText(pk) ? Number(pk) : Number.NaN): void {
    const i = this.#count++;
    if (this.#ascending) {
      if (Number.isSafeInteger(n) && (i === 0 || n > (this.#pks[i - 1] as number))) {
        if (i === this.#pks.length) {
          const bigger = new Float64Array(this.#pks.length * 2);
          bigger.set(this.#pks);
          this.#pks = bigger;
        }
        this.#pks[i] = n;
        return;
      }
      this.#ascending = false;
      this.#places = new Map();
      for (let j = 0; j < i; j++) this.#places.set(String(this.#pks[j]), j);
    }
    const text = pk ?? (Number.isSafeInteger(n) ? String(n) : undefined);
    if (text !== undefined && !this.#places?.has(text)) this.#places?.set(text, i);
  }

  /** A pk of undefined: no number, no map entry (ascending stops there, as it always did). */
  finish(items: ItemList): PkIndex {
    return this.#ascending
      ? new AscendingIntIndex(items, this.#pks.subarray(0, this.#count))
      : new MapIndex(items, this.#places as Map<string, number>);
  }
}

/** The index of a list of items: first item wins for a repeated pk (the loader refuses repeats). */
export function indexByPk(items: readonly PreparedItem[]): PkIndex {
  const index = new PkIndexBuilder();
  for (const item of items) index.add(item.pk);
  return index.finish(items);
}

/**
 * An item set built one item at a time (a streamed fixture), packed (packed-items.ts): the pk
 * index grows with it, so that finishing costs nothing (no pass over a million items at once,
 * which would stall a reload). `previous`: the set it replaces (a reload), whose blocks are kept
 * where the same items stand at the same places.
 */
export class ItemSetBuilder {
  readonly #items: PackedItemsWriter;
  readonly #index = new PkIndexBuilder();

  constructor(previous?: ItemList) {
    this.#items = new PackedItemsWriter(previous instanceof PackedItems ? previous : undefined);
  }

  get length(): number {
    return this.#items.length;
  }

  add(item: PreparedItem): void {
    this.#items.add(item);
    this.#index.add(item.pk);
  }

  /**
   * An item given as its ASCII bytes (a flat item: load/flat-items.ts): the same as `add` of the
   * item its text makes, whose pk is the text at `pkFrom` to `pkTo` (-1: none), `pkNumber` the safe
   * integer that text writes (else NaN). The bytes are read by the next `flush` (or `add`, or a
   * flat item from other bytes), which must come before they are written again.
   */
  addAscii(
    bytes: Uint8Array,
    start: number,
    end: number,
    pkFrom: number,
    pkTo: number,
    pkNumber: number,
    urlAt: number,
  ): void {
    this.#items.addAscii(bytes, start, end, pkFrom, pkTo, urlAt);
    if (pkFrom < 0) this.#index.add(undefined);
    else if (Number.isSafeInteger(pkNumber)) this.#index.add(undefined, pkNumber);
    else this.#index.add(String.fromCharCode(...bytes.subarray(pkFrom, pkTo)));
  }

  /**
   * Copies what `addAscii` was given and has not copied yet: to be called before the bytes given
   * are written again (the loader: at the end of each chunk's items).
   */
  flush(): void {
    this.#items.flush();
  }

  finish(): ItemSet {
    const items = this.#items.finish();
    return { items, byPk: this.#index.finish(items) };
  }
}

export const EMPTY_SET: ItemSet = Object.freeze({ items: Object.freeze([]), byPk: new Map() });

/** DRF's JSONRenderer escapes these two even with ensure_ascii off (rest_framework/renderers.py). */
export function drfJson(value: unknown): string {
  const json = JSON.stringify(value);
  return LINE_SEPARATORS.test(json) ? json.replaceAll('\u2028', '\\u2028').replaceAll('\u2029', '\\u2029') : json;
}
const LINE_SEPARATORS = /[\u2028\u2029]/;

/** Does `value` have any of `names` as a member? */
export function carriesAny(value: Record<string, unknown>, names: readonly string[] | undefined): boolean {
  if (names === undefined) return false;
  for (const n of names) if (Object.hasOwn(value, n)) return true;
  return false;
}

/** `value` without the members `names` (own data properties: a `__proto__` member stays a member). */
export function withoutMembers(value: Record<string, unknown>, names: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([k]) => !names.includes(k)));
}

export function renderItem(item: PreparedItem, url: ItemUrlParts | undefined): string {
  if (item.urlAt < 0 || url === undefined || item.pk === undefined) return item.json;
  const member = `"url":${url.head}${reverseQuote(item.pk)}${url.tail}"`;
  const j = item.json;
  if (item.urlAt === 1) return j.length === 2 ? `{${member}}` : `{${member},${j.substring(1)}`;
  return `${j.substring(0, item.urlAt)},${member}${j.substring(item.urlAt)}`;
}

/** An item's members (without its url). */
export function itemObject(item: PreparedItem): Record<string, unknown> {
  return JSON.parse(item.json) as Record<string, unknown>;
}

/** The pk of an item as its url and the lookup see it, or undefined. */
export function pkOf(item: Record<string, unknown>, field: string | undefined): string | undefined {
  const v = field === undefined ? undefined : item[field];
  return typeof v === 'number' || typeof v === 'string' ? String(v) : undefined;
}

export interface PrepareOptions {
  /** The item schema's fields, in order (members are rendered in this order). */
  readonly fields: readonly string[];
  readonly withUrl: boolean;
  readonly pkField: string | undefined;
  /** The item schema's `writeOnly` fields (writeOnlyFields): left out, as DRF never represents one. */
  readonly hidden?: readonly string[];
}

/**
 * Serializes each item once (checked beforehand: the loader validates fixtures against the schema
 * before they reach the core). With `withUrl`, each item's url is left out and built per request.
 */
export function prepareItems(raw: readonly unknown[], opts: PrepareOptions): ItemSet {
  const items = raw.map((value) => prepareItem(value, opts));
  return { items, byPk: indexByPk(items) };
}

const fieldIndexes = new WeakMap<readonly string[], Map<string, number>>();

/** Is the item already in schema order (its described members in order, then any others)? No array made. */
function isInSchemaOrder(value: Record<string, unknown>, fields: readonly string[]): boolean {
  let index = fieldIndexes.get(fields);
  if (!index) {
    index = new Map(fields.map((f, i) => [f, i]));
    fieldIndexes.set(fields, index);
  }
  let last = -1;
  let extra = false;
  for (const k in value) {
    const at = index.get(k);
    if (at === undefined) extra = true;
    else if (extra || at < last) return false;
    else last = at;
  }
  return true;
}

/** The item's members in schema order (a no-op for items already in it, the common case). */
function inSchemaOrder(value: Record<string, unknown>, fields: readonly string[]): Record<string, unknown> {
  if (isInSchemaOrder(value, fields)) return value;
  // Members defined, not assigned: a `__proto__` member stays a member (JSON.parse makes it one).
  const entries: [string, unknown][] = [];
  for (const f of fields) if (Object.hasOwn(value, f)) entries.push([f, value[f]]);
  for (const k of Object.keys(value)) if (!fields.includes(k)) entries.push([k, value[k]]);
  return Object.fromEntries(entries);
}

/**
 * The same, given the item's own text when that is already canonical compact JSON (a fixture
 * written by JSON.stringify): the text is the item's JSON when its members are in schema order
 * and it holds no url, so nothing is serialized again.
 */
export function prepareItemFromText(value: unknown, text: string, opts: PrepareOptions): PreparedItem {
  if (
    !isObject(value) ||
    (opts.withUrl && 'url' in value) ||
    carriesAny(value, opts.hidden) ||
    !isInSchemaOrder(value, opts.fields)
  )
    return prepareItem(value, opts);
  const pk = pkOf(value, opts.pkField);
  const addressable = opts.withUrl && pk !== undefined && PK_SEGMENT.test(pk);
  if (!addressable) return { pk, json: text, urlAt: -1 };
  if (opts.fields.indexOf('url') <= 0) return { pk, json: text, urlAt: 1 };
  return prepareItem(value, opts);
}

export function prepareItem(value: unknown, opts: PrepareOptions): PreparedItem {
  if (!isObject(value)) return { pk: undefined, json: drfJson(value), urlAt: -1 };
  const pk = pkOf(value, opts.pkField);
  let ordered = inSchemaOrder(
    carriesAny(value, opts.hidden) ? withoutMembers(value, opts.hidden as readonly string[]) : value,
    opts.fields,
  );
  if (opts.withUrl && 'url' in ordered) {
    const { url: _url, ...rest } = ordered;
    ordered = rest;
  }
  const json = drfJson(ordered);
  const addressable = opts.withUrl && pk !== undefined && PK_SEGMENT.test(pk);
  if (!addressable) return { pk, json, urlAt: -1 };
  const urlAt = opts.fields.indexOf('url');
  if (urlAt <= 0) return { pk, json, urlAt: 1 };
  // After the members the schema lists before url (those present): where the next `,` or `}` is.
  const before: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(ordered)) {
    const at = opts.fields.indexOf(k);
    if (at < 0 || at > urlAt) break;
    before[k] = v;
  }
  const prefix = drfJson(before);
  return { pk, json, urlAt: prefix === '{}' ? 1 : prefix.length - 1 };
}
