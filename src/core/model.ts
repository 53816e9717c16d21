import { formatProblem } from '../openapi/problem.js';
import { Router } from './drf/routers.js';
import { asSnapshot, type Snapshot } from './snapshot.js';
import {
  type DetailOperation,
  type ListOperation,
  type Operations,
  type PathRoute,
  readOperations,
} from '../openapi/operations.js';
import { authenticatorsOf, type Authenticator } from './drf/authentication.js';
import { type Filters, listFilters } from './drf/filters.js';
import { EMPTY_SET, type ItemSet, itemSetOf, type ItemSource, prepareItems, withPk } from './prepared-items.js';
import { buildsUrl, fieldSchema, itemFields, lookupField, writeOnlyFields } from '../openapi/item-schema.js';

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
  /** Its `writeOnly` fields: never in an answer. */
  readonly writeOnly: readonly string[];
  /** Items carry a `url` built per request. */
  readonly withUrl: boolean;
  /** The field the item path looks items up by (DRF's lookup_field), if the items carry one. */
  readonly lookup: string | undefined;
  readonly items: ItemSet;
  readonly dynamic: ItemSet | undefined;
  /** The 200 answer's named envelope examples (`Prefer: example=NAME`). */
  readonly examples: {
    get(name: string): ItemSet | undefined;
    has(name: string): boolean;
    keys(): IterableIterator<string>;
  };
  /** How many items the collection holds as loaded (known without making generated ones). */
  readonly count: number;
  /** What the list operation's declared query parameters do (filters, search, ordering, page size). */
  readonly filters: Filters;
}

/** What the core answers from: the snapshot compiled once. */
export interface Model {
  readonly spec: Readonly<Record<string, unknown>>;
  readonly operations: Operations;
  /** By collection path. */
  readonly collections: ReadonlyMap<string, CollectionModel>;
  readonly router: Router;
  readonly generatedBodies: Readonly<Record<string, unknown>>;
  /** The bodies of actions and views that name a fixture, by operation pointer. */
  readonly fixtureBodies: Readonly<Record<string, unknown>>;
  /** DRF's authentication classes, from the spec's security schemes. */
  readonly authenticators: readonly Authenticator[];
}

/**
 * A collection's items as the model is given them: raw items (a snapshot's, serialized on first
 * use), items already prepared (a fixture streamed by the loader), or a function that makes them
 * on first use (generated data, so that a spec of thousands of collections starts at once).
 */
export type ItemsInput =
  | readonly unknown[]
  | { readonly prepared: ItemSet }
  | { readonly lazy: () => readonly unknown[]; readonly count: number };

export interface CollectionInput {
  readonly source: ItemSource;
  readonly from: string;
  readonly items: ItemsInput;
  readonly dynamic?: ItemsInput;
  readonly examples: Readonly<Record<string, ItemsInput>>;
}

/** How a collection's items are served: fields in order, url or not, the lookup field. */
export interface CollectionShape {
  readonly fields: readonly string[];
  /** The item schema's `writeOnly` fields (writeOnlyFields). */
  readonly writeOnly: readonly string[];
  readonly withUrl: boolean;
  readonly lookup: string | undefined;
  readonly pkParam: string;
}

/** A collection's shape, read from the spec (and from a first item, for the lookup field). */
export function shapeOf(spec: unknown, operations: Operations, list: ListOperation, sample?: unknown): CollectionShape {
  const detail = operations.detailOf.get(list.path);
  const itemRoute = operations.itemRouteOf.get(list.path);
  const pkParam = itemRoute ? (/\{([^}]+)\}$/.exec(itemRoute.path)?.[1] ?? 'pk') : 'pk';
  const writeOnly = writeOnlyFields(spec, list.itemPointer);
  // A writeOnly `url` is never answered, so never built either.
  return {
    fields: itemFields(spec, list.itemPointer),
    writeOnly,
    withUrl: buildsUrl(spec, list, detail) && !writeOnly.includes('url'),
    lookup: lookupField(spec, list, { pkParam }, sample),
    pkParam,
  };
}

/** The PrepareOptions of a collection's items (from its model, or its shape before there is one). */
export function prepareOptionsOf(shape: Omit<CollectionShape, 'pkParam'>) {
  return { fields: shape.fields, withUrl: shape.withUrl, pkField: shape.lookup, writeOnly: shape.writeOnly };
}

/** The first raw item of an input, if it is at hand without making anything. */
function sampleOf(input: ItemsInput | undefined): unknown {
  return Array.isArray(input) ? input[0] : undefined;
}

/** An item set made from its input once, when first asked for. */
function lazySet(input: ItemsInput, shape: CollectionShape): () => ItemSet {
  let set: ItemSet | undefined;
  return () => {
    if (set) return set;
    set = withRowPks(made(input, shape), shape);
    return set;
  };
}

/**
 * Items without a lookup field are rows all the same: each gets its row's pk (1, 2, …, in the
 * table's order, as Django's AutoField numbers a fixture loaded in order), unseen but
 * addressable on the item path.
 */
function withRowPks(set: ItemSet, shape: CollectionShape): ItemSet {
  if (shape.lookup !== undefined || set.items.length === 0 || set.items[0]?.pk !== undefined) return set;
  return itemSetOf(set.items.map((item, i) => withPk(item, String(i + 1))));
}

/** The item set of an input: the loader's, or its raw items prepared. */
function made(input: ItemsInput, shape: CollectionShape): ItemSet {
  if ('prepared' in input) return input.prepared;
  const raw = 'lazy' in input ? input.lazy() : input;
  if (raw.length === 0) return EMPTY_SET;
  return prepareItems(raw, prepareOptionsOf(shape));
}

/** How many items an input holds, without making them. */
function countOf(input: ItemsInput): number {
  if (Array.isArray(input)) return input.length;
  return 'prepared' in input ? input.prepared.items.length : (input as { count: number }).count;
}

/** Compiles collections' inputs against a spec: operations read once, item sets made on first use. */
export function compileModel(
  spec: Readonly<Record<string, unknown>>,
  operations: Operations,
  inputs: Readonly<Record<string, CollectionInput>>,
  generatedBodies: Readonly<Record<string, unknown>>,
  fixtureBodies: Readonly<Record<string, unknown>> = {},
): Model {
  const collections = new Map<string, CollectionModel>();
  const routes = new Map(operations.routes.map((r) => [r.path, r]));
  for (const list of operations.lists) {
    const data = inputs[list.path];
    const shape = shapeOf(spec, operations, list, sampleOf(data?.items));
    const items = data ? lazySet(data.items, shape) : () => EMPTY_SET;
    const dynamic = data?.dynamic ? lazySet(data.dynamic, shape) : undefined;
    const examples = new Map(
      Object.entries(data?.examples ?? {}).map(([name, input]) => [name, lazySet(input, shape)] as const),
    );
    collections.set(list.path, {
      list,
      detail: operations.detailOf.get(list.path),
      route: routes.get(list.path) as PathRoute,
      itemRoute: operations.itemRouteOf.get(list.path),
      source: data?.source ?? 'empty',
      from: data?.from ?? 'nothing',
      count: data ? countOf(data.items) : 0,
      fields: shape.fields,
      writeOnly: shape.writeOnly,
      withUrl: shape.withUrl,
      lookup: shape.lookup,
      get items() {
        return items();
      },
      get dynamic() {
        return dynamic?.();
      },
      examples: {
        get: (name: string) => examples.get(name)?.(),
        has: (name: string) => examples.has(name),
        keys: () => examples.keys(),
      },
      filters: listFilters(spec, list, shape.fields, (f) => fieldSchema(spec, list.itemPointer, f)),
    });
  }
  return {
    spec,
    operations,
    collections,
    router: new Router(operations.routes, operations.root),
    authenticators: authenticatorsOf(spec),
    generatedBodies,
    fixtureBodies,
  };
}

/** Compiles a snapshot (checked first): operations read from its spec, items serialized on first use. */
export function compileSnapshot(value: Snapshot | unknown): Model {
  const snapshot = asSnapshot(value);
  const { operations, problems } = readOperations(snapshot.spec, 'snapshot spec');
  if (problems.length > 0)
    throw new TypeError(`the snapshot's spec cannot be served:\n${problems.map(formatProblem).join('\n')}`);
  return compileModel(
    snapshot.spec,
    operations,
    snapshot.collections,
    snapshot.generatedBodies ?? {},
    snapshot.fixtureBodies ?? {},
  );
}
