import type { ItemUrlParts } from '../django/urls.js';
import { itemValues, lookupKey, type ViewSet } from '../drf/mixins.js';
import { prepareOptionsOf } from '../model.js';
import type { QueryMap } from '../python/query.js';
import { itemObject, prepareItem, renderItem } from '../prepared-items.js';
import type { CollectionAccess, HandlerRequest } from './handler-types.js';

import { withMembers } from '../members.js';

/*
 * Handlers: behaviour a spec cannot say, in code of the designer's, by operationId. A handler
 * gets the request parsed (its body already validated against the declared request schema, so it
 * never sees what DRF would refuse) and a context that reads and changes the stub's state and
 * answers as DRF answers. It returns an answer, or undefined for what the stub would answer
 * without it.
 */

/** The request a handler gets. */
export function handlerRequest(input: {
  method: string;
  path: string;
  operationId: string;
  paramNames: readonly string[];
  params: readonly string[];
  query: QueryMap;
  body: unknown;
  header: (name: string) => string | undefined;
  user: boolean;
}): HandlerRequest {
  const params: Record<string, string> = {};
  input.paramNames.forEach((name, i) => {
    params[name] = input.params[i] ?? '';
  });
  const query: Record<string, string> = {};
  const queryAll: Record<string, string[]> = {};
  for (const [key, values] of input.query) {
    query[key] = values[values.length - 1] ?? '';
    queryAll[key] = [...values];
  }
  return Object.freeze({
    method: input.method,
    path: input.path,
    operationId: input.operationId,
    params: Object.freeze(params),
    query: Object.freeze(query),
    queryAll: Object.freeze(queryAll),
    body: input.body,
    header: (name: string) => input.header(name.toLowerCase()),
    user: input.user,
  });
}

/** The `{param}` names of a path template, in order. */
export function paramNames(template: string): string[] {
  return [...template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] as string);
}

/** A collection's items for a handler, over its live copy: plain objects out, prepared items in. */
export function collectionAccess(vs: ViewSet, url: ItemUrlParts | undefined, changed: () => void): CollectionAccess {
  const { collection, live } = vs;
  // By the lookup field, or by the row's pk where the items carry none (model.ts withRowPks).
  const find = (pk: string | number) => live.set.byPk.get(String(pk));
  const copy = (o: Readonly<Record<string, unknown>>) => ({ ...o });
  const withoutUrl = (o: Readonly<Record<string, unknown>>) => {
    const out = { ...o };
    delete out.url;
    return out;
  };
  return {
    all: () => Array.from(live.set.items, (item) => copy(itemObject(item))),
    get: (pk) => {
      const item = find(pk);
      return item === undefined ? undefined : copy(itemObject(item));
    },
    lookup: (text) => lookupKey(vs, text),
    create: (values) => {
      // The schema's fields as a create fills them, then any other member given.
      const out = withMembers(itemValues(vs, values, undefined), withoutUrl(values));
      live.insert(out);
      changed();
      return copy(out);
    },
    update: (pk, values) => {
      const item = find(pk);
      if (item === undefined) return undefined;
      const next = withMembers(itemObject(item), withoutUrl(values));
      live.replace(item, next);
      changed();
      return copy(next);
    },
    remove: (pk) => {
      const item = find(pk);
      if (item === undefined) return false;
      live.remove(item);
      changed();
      return true;
    },
    represent: (item) => {
      const prepared = prepareItem(withoutUrl(item), prepareOptionsOf(collection));
      return JSON.parse(renderItem(prepared, url)) as Record<string, unknown>;
    },
  };
}
