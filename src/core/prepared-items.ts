import { oneByte } from './one-byte.js';
import { type ItemUrlParts, PK_SEGMENT, reverseQuote } from './django/urls.js';
import { isObject } from '../openapi/pointer.js';
import { PkIndex } from './pk-index.js';
import { pyNumber } from './python/str.js';

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

/** Items ready to serve, in order, and by pk for the item path (pk-index.ts). */
export interface ItemSet {
  readonly items: readonly PreparedItem[];
  readonly byPk: ItemsByPk;
}

/** The items of a set by pk: their places in it (one PkIndex), read through to the items. */
class ItemsByPk {
  constructor(
    readonly items: readonly PreparedItem[],
    readonly places: PkIndex,
  ) {}

  get(pk: string): PreparedItem | undefined {
    const at = this.places.get(pk);
    return at < 0 ? undefined : this.items[at];
  }
}

/** The set of `items`, in order; `places` their pk index when the loader built it already. */
export function itemSetOf(items: readonly PreparedItem[], places = PkIndex.of(items)): ItemSet {
  return { items, byPk: new ItemsByPk(items, places) };
}

export const EMPTY_SET: ItemSet = Object.freeze(itemSetOf(Object.freeze([])));

/**
 * The bytes of DRF's JSONRenderer (rest_framework/renderers.py): compact, or with `indent` from the
 * accepted media type (`Accept: application/json; indent=4`: json.dumps's layout then is
 * JSON.stringify's); ensure_ascii off, and U+2028 and U+2029 escaped even so.
 */
export function drfJson(value: unknown, indent?: number): string {
  let json = JSON.stringify(value, null, indent);
  if (SMALL_NUMBER.test(json)) json = withPythonSmallFloats(json);
  return LINE_SEPARATORS.test(json) ? json.replaceAll('\u2028', '\\u2028').replaceAll('\u2029', '\\u2029') : json;
}
const LINE_SEPARATORS = /[\u2028\u2029]/;
/** Where JavaScript and Python write a float apart: below 1e-4 (`0.00001` / `1e-05`, `1e-7` / `1e-07`). */
const SMALL_NUMBER = /\de-|0\.0000/;

/**
 * The numbers of a JSON text as Python's float repr writes them: below 1e-4 in exponent form with
 * at least two exponent digits (`1.5e-05`), where JavaScript writes `0.000015` or `1e-7`. Texts
 * inside strings are left as they are.
 */
function withPythonSmallFloats(json: string): string {
  return json.replace(/"(?:[^"\\]|\\.)*"|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:e[+-]\d+)?/g, (token) => {
    return token.startsWith('"') ? token : pyNumber(Number(token));
  });
}

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

/** The same item under another pk (a row numbered by the table, not by its members). */
export function withPk(item: PreparedItem, pk: string | undefined): PreparedItem {
  return { pk, json: item.json, urlAt: item.urlAt };
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
  readonly writeOnly?: readonly string[];
}

/**
 * Serializes each item once (checked beforehand: the loader validates fixtures against the schema
 * before they reach the core). With `withUrl`, each item's url is left out and built per request.
 */
export function prepareItems(raw: readonly unknown[], opts: PrepareOptions): ItemSet {
  return itemSetOf(raw.map((value) => prepareItem(value, opts)));
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
 * and it holds no url, so nothing is serialized again. The text is kept as given: the fixture
 * reader makes each item's text of its own, from its bytes, one byte a character where it can be
 * (test/unit/load/fixtures.test.ts).
 */
export function prepareItemFromText(value: unknown, text: string, opts: PrepareOptions): PreparedItem {
  if (
    !isObject(value) ||
    (opts.withUrl && 'url' in value) ||
    carriesAny(value, opts.writeOnly) ||
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
  if (!isObject(value)) return { pk: undefined, json: oneByte(drfJson(value)), urlAt: -1 };
  const pk = pkOf(value, opts.pkField);
  let ordered = inSchemaOrder(
    carriesAny(value, opts.writeOnly) ? withoutMembers(value, opts.writeOnly as readonly string[]) : value,
    opts.fields,
  );
  if (opts.withUrl && 'url' in ordered) {
    const { url: _url, ...rest } = ordered;
    ordered = rest;
  }
  // Kept to be served in every answer that holds the item: one byte a character where it can be.
  const json = oneByte(drfJson(ordered));
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
