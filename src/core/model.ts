import { LoadError } from './errors.js';
import { Router } from './router.js';
import { asSnapshot, type Snapshot } from './snapshot.js';
import { type DetailOperation, type ListOperation, type Operations, type PathRoute, readOperations } from './spec/operations.js';
import { type Filters, listFilters } from './filters.js';
import { buildsUrl, EMPTY_SET, type ItemSet, type ItemSource, itemFields, lookupField, prepareItems } from './store.js';
import { follow, isObject } from './spec/pointer.js';

/** A collection ready to answer: its operations and item sets, serialized once. */
export interface CollectionModel {
  readonly list: ListOperation;
  readonly detail: DetailOperation | undefined;
  /** The list route and, when the spec has one, the item route (every method each declares). */
  readonly route: PathRoute;
  readonly itemRoute: PathRoute | undefined;
  readonly source: ItemSource;
  readonly from: string;
  /** The item schema's fields, in order. */
  readonly fields: readonly string[];
  /** Items carry a `url` built per request. */
  readonly withUrl: boolean;
  /** The field the item path looks items up by (DRF's lookup_field), if the items carry one. */
  readonly lookup: string | undefined;
  readonly items: ItemSet;
  readonly dynamic: ItemSet | undefined;
  readonly examples: ReadonlyMap<string, ItemSet>;
  /** What the list operation's declared query parameters do (filters, search, ordering, page size). */
  readonly filters: Filters;
}

/** The schema of one member of an item schema (through `$ref` and `allOf`), or {}. */
export function fieldSchema(doc: unknown, itemPointer: string, field: string, depth = 0): Record<string, unknown> {
  if (depth > 16) return {};
  const { pointer, node } = follow(doc, itemPointer);
  if (!isObject(node)) return {};
  if (isObject(node.properties) && Object.hasOwn(node.properties, field)) {
    const p = follow(doc, `${pointer}/properties/${field.replaceAll('~', '~0').replaceAll('/', '~1')}`).node;
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

/** What the core answers from: the snapshot compiled once. */
export interface Model {
  readonly spec: Readonly<Record<string, unknown>>;
  readonly operations: Operations;
  /** By collection path. */
  readonly collections: ReadonlyMap<string, CollectionModel>;
  readonly router: Router;
  readonly generatedBodies: Readonly<Record<string, unknown>>;
}

/** Compiles a snapshot (checked first): operations read from its spec, items serialized once. */
export function compileSnapshot(value: Snapshot | unknown): Model {
  const snapshot = asSnapshot(value);
  const { operations, problems } = readOperations(snapshot.spec, 'snapshot spec');
  if (problems.length > 0) throw new LoadError(problems);
  const collections = new Map<string, CollectionModel>();
  const routes = new Map(operations.routes.map((r) => [r.path, r]));
  for (const list of operations.lists) {
    const data = snapshot.collections[list.path];
    const detail = operations.detailOf.get(list.path);
    const fields = itemFields(snapshot.spec, list.itemPointer);
    const withUrl = buildsUrl(snapshot.spec, list, detail);
    const itemRoute = operations.routes.find((r) => r.kind === 'detail' && r.collectionPath === list.path);
    const pkParam = itemRoute ? (/\{([^}]+)\}$/.exec(itemRoute.path)?.[1] ?? 'pk') : 'pk';
    const lookup = lookupField(snapshot.spec, list, { pkParam }, data?.items[0]);
    const prepare = (raw: readonly unknown[] | undefined): ItemSet => (raw === undefined || raw.length === 0 ? EMPTY_SET : prepareItems(raw, { fields, withUrl, pkField: lookup }));
    collections.set(list.path, {
      list,
      detail,
      route: routes.get(list.path) as PathRoute,
      itemRoute,
      source: data?.source ?? 'empty',
      from: data?.from ?? 'nothing',
      fields,
      withUrl,
      lookup,
      items: prepare(data?.items),
      dynamic: data?.dynamic ? prepare(data.dynamic) : undefined,
      examples: new Map(Object.entries(data?.examples ?? {}).map(([name, items]) => [name, prepare(items)])),
      filters: listFilters(snapshot.spec, list, fields, (f) => fieldSchema(snapshot.spec, list.itemPointer, f)),
    });
  }
  return { spec: snapshot.spec, operations, collections, router: new Router(operations.routes), generatedBodies: snapshot.generatedBodies ?? {} };
}
