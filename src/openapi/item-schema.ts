import type { DetailOperation, ListOperation } from './operations.js';
import { escapeToken, follow, isObject } from './pointer.js';
import { writeOnlyNames } from './response-view.js';

/*
 * An item schema, read through `$ref` and `allOf`: the fields a collection's items carry, which
 * of them are writeOnly, whether items carry a url, and the field an item path looks up by.
 * Loading, answering and checking all read items' shape from here.
 */

/** An item schema's members, read through `$ref` and `allOf`. */
export interface ItemMembers {
  /** Every field described, in order: its own properties first, then each `allOf` part's. */
  readonly fields: readonly string[];
  /** Each field's schema (followed): the first that says anything of it, else the first. */
  readonly schemas: ReadonlyMap<string, unknown>;
  /** The fields any part requires. */
  readonly required: ReadonlySet<string>;
}

/** Parts nested deeper than this (a `$ref` loop) are not read. */
const MAX_DEPTH = 16;

/** The one reading of an item schema's members: every other question about them asks this. */
export function itemMembers(doc: unknown, itemPointer: string): ItemMembers {
  const fields: string[] = [];
  const schemas = new Map<string, unknown>();
  const required = new Set<string>();
  const says = (schema: unknown) => isObject(schema) && Object.keys(schema).length > 0;
  const walk = (at: string, depth: number): void => {
    if (depth > MAX_DEPTH) return;
    const { pointer, node } = follow(doc, at);
    if (!isObject(node)) return;
    if (Array.isArray(node.required)) for (const r of node.required) if (typeof r === 'string') required.add(r);
    if (isObject(node.properties))
      for (const name of Object.keys(node.properties)) {
        if (!schemas.has(name)) fields.push(name);
        else if (says(schemas.get(name))) continue;
        const schema = follow(doc, `${pointer}/properties/${escapeToken(name)}`).node;
        if (!schemas.has(name) || says(schema)) schemas.set(name, schema);
      }
    if (Array.isArray(node.allOf)) node.allOf.forEach((_, i) => walk(`${pointer}/allOf/${i}`, depth + 1));
  };
  walk(itemPointer, 0);
  return { fields, schemas, required };
}

/** The schema of one member of an item schema, or {}. */
export function fieldSchema(doc: unknown, itemPointer: string, field: string): Record<string, unknown> {
  const schema = itemMembers(doc, itemPointer).schemas.get(field);
  return isObject(schema) ? schema : {};
}

/** The fields an item schema describes, in order. */
export function itemFields(doc: unknown, itemPointer: string): string[] {
  return [...itemMembers(doc, itemPointer).fields];
}

/** Does the item schema describe any field? (Undescribed items are never invented.) */
export function describesFields(doc: unknown, itemPointer: string): boolean {
  return itemFields(doc, itemPointer).length > 0;
}

/**
 * The fields an item schema marks `writeOnly` (through `$ref` and `allOf`), in order: accepted in a
 * request, never in an answer (DRF's `write_only=True`: to_representation reads only the
 * readable fields). A fixture's item that carries one is served without it.
 */
export function writeOnlyFields(doc: unknown, itemPointer: string): string[] {
  return [...writeOnlyNames(doc, { $ref: itemPointer.startsWith('#') ? itemPointer : `#${itemPointer}` })];
}

/** Does the item schema declare a `url` member that the stub builds per request? */
export function buildsUrl(doc: unknown, list: ListOperation, detail: DetailOperation | undefined): boolean {
  return detail !== undefined && itemFields(doc, list.itemPointer).includes('url');
}

/**
 * The item field a detail path looks items up by (DRF's `lookup_field`): the path parameter's own
 * name when the items carry that field, else `pk`, else `id`; undefined when they carry none.
 */
export function lookupField(
  doc: unknown,
  list: ListOperation,
  detail: DetailOperation | { pkParam: string },
  sample?: unknown,
): string | undefined {
  const fields = new Set(itemFields(doc, list.itemPointer));
  if (isObject(sample)) for (const k of Object.keys(sample)) fields.add(k);
  return [detail.pkParam, 'pk', 'id'].find((f) => fields.has(f));
}
