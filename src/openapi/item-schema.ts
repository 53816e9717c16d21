import type { DetailOperation, ListOperation } from './operations.js';
import { escapeToken, follow, isObject } from './pointer.js';
import { writeOnlyNames } from './response-view.js';

/*
 * An item schema, read through `$ref` and `allOf`: the fields a collection's items carry, which
 * of them are writeOnly, whether items carry a url, and the field an item path looks up by.
 * Loading, answering and checking all read items' shape from here.
 */

/** The schema of one member of an item schema (through `$ref` and `allOf`), or {}. */
export function fieldSchema(doc: unknown, itemPointer: string, field: string, depth = 0): Record<string, unknown> {
  if (depth > 16) return {};
  const { pointer, node } = follow(doc, itemPointer);
  if (!isObject(node)) return {};
  if (isObject(node.properties) && Object.hasOwn(node.properties, field)) {
    const p = follow(doc, `${pointer}/properties/${escapeToken(field)}`).node;
    return isObject(p) ? p : {};
  }
  if (Array.isArray(node.allOf)) {
    for (let i = 0; i < node.allOf.length; i++) {
      const found = fieldSchema(doc, `${pointer}/allOf/${i}`, field, depth + 1);
      if (Object.keys(found).length > 0) return found;
    }
  }
  return {};
}

/** The fields an item schema describes (its `properties`, through `$ref` and `allOf`), in order. */
export function itemFields(doc: unknown, itemPointer: string, depth = 0): string[] {
  if (depth > 16) return [];
  const { pointer, node } = follow(doc, itemPointer);
  if (!isObject(node)) return [];
  const out = isObject(node.properties) ? Object.keys(node.properties) : [];
  if (Array.isArray(node.allOf))
    node.allOf.forEach((_, i) => out.push(...itemFields(doc, `${pointer}/allOf/${i}`, depth + 1)));
  return [...new Set(out)];
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
  return [...writeOnlyNames(doc, { $ref: itemPointer.startsWith('#') ? itemPointer : `#${itemPointer}` }, new Set())];
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
