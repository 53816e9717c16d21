import type { LoadProblem } from './problem.js';
import { type At, appendPointer, childAt, followAt, followChild, isObject } from './pointer.js';

/** A response the spec declares for an operation: status, and the JSON schema's pointer if any. */
export interface DeclaredResponse {
  readonly status: string;
  readonly schemaPointer: string | undefined;
  /** Named examples (`content.application/json.examples`), values resolved. */
  readonly examples: Readonly<Record<string, unknown>>;
}

/** The methods a DRF view can declare, in the order DRF lists them in `Allow` (View.http_method_names). */
export const VIEW_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export type ViewMethod = (typeof VIEW_METHODS)[number];

/** A declared query parameter: its name and the pointer to its schema. */
export interface QueryParameter {
  readonly name: string;
  readonly pointer: string;
  readonly schemaPointer: string;
}

interface OperationBase {
  readonly method: ViewMethod;
  readonly operationId: string;
  /** The spec's path template, `/api/v1/desk/{pk}`. */
  readonly path: string;
  /** The last literal path segment of the collection: `desk`, `expense-month`; fixture file name. */
  readonly resource: string;
  /** Pointer to the operation object in the bundled spec. */
  readonly pointer: string;
  readonly summary: string;
  readonly responses: Readonly<Record<string, DeclaredResponse>>;
  /** Enum of the `format` query parameter, when the spec declares one. */
  readonly formats: readonly string[] | undefined;
  /** Declared query parameters: name → pointer to its schema. */
  readonly queryParams: Readonly<Record<string, string>>;
  /** The same, in declaration order, with the parameter's own pointer. */
  readonly parameters: readonly QueryParameter[];
}

/** A collection: a GET whose 200 answer is the list envelope (an object with a `results` array). */
export interface ListOperation extends OperationBase {
  readonly kind: 'list';
  readonly method: 'GET';
  /** Pointer to the schema of one element of `results`. */
  readonly itemPointer: string;
  /** The item's schema name, from `#/components/schemas/<Name>` ("Desk"), for DRF's messages. */
  readonly itemName: string;
  /** The item schema's `x-stub-count` (how many items to generate), if set. */
  readonly generateCount: number | undefined;
  /** The operation's `x-stub-fixture`: the fixture file's name, when it is not the resource's. */
  readonly fixtureName: string | undefined;
  /**
   * The view's docstring, which DRF's OPTIONS answers as its description: the operation's
   * `x-view-description`, else none (a viewset without a docstring, the stock case).
   */
  readonly viewDescription: string;
}

/** A single item of a collection: a GET on the collection's path plus one `{param}` segment. */
export interface DetailOperation extends OperationBase {
  readonly kind: 'detail';
  readonly method: 'GET';
  /** The path parameter's name (`pk`). */
  readonly pkParam: string;
  /** The pk parameter is an integer: Django converts it with int() before the lookup. */
  readonly pkIsInteger: boolean;
  readonly itemPointer: string;
}

/** A write a designer declared: POST on a collection, PUT / PATCH / DELETE on its item path. */
export interface WriteOperation extends OperationBase {
  readonly kind: 'write';
  readonly target: 'list' | 'detail';
  /** The collection's path. */
  readonly collectionPath: string;
  /** Pointer to the request body's schema (its JSON form, else its first form), if declared. */
  readonly bodyPointer: string | undefined;
  /** The request body's declared media types. */
  readonly bodyTypes: readonly string[];
}

export type Operation = ListOperation | DetailOperation;
export type AnyOperation = Operation | WriteOperation;

/** One path of the spec as DRF's router would route it: a collection or one of its items. */
export interface PathRoute {
  readonly path: string;
  readonly kind: 'list' | 'detail';
  readonly collectionPath: string;
  /** Every method the spec declares on the path, in DRF's order. */
  readonly methods: ReadonlyMap<ViewMethod, AnyOperation>;
}

export interface Operations {
  /** The GET operations: collections and their item paths. */
  readonly all: readonly Operation[];
  readonly lists: readonly ListOperation[];
  /** Detail operation of a collection path, if the spec has one. */
  readonly detailOf: ReadonlyMap<string, DetailOperation>;
  readonly writes: readonly WriteOperation[];
  /** Every routed path, in the spec's order. */
  readonly routes: readonly PathRoute[];
  /** The item route of a collection path, if the spec has one. */
  readonly itemRouteOf: ReadonlyMap<string, PathRoute>;
}

/** Walks the `results` member (through `$ref` and `allOf`) from a schema (followed) to its `items` schema (followed). */
function findResultsItems(doc: unknown, schema: At, depth = 0): At | undefined {
  if (depth > 16) return undefined;
  const { node } = schema;
  if (!isObject(node)) return undefined;
  let found: At | undefined;
  if (isObject(node.properties) && node.properties.results !== undefined) {
    const results = followChild(doc, childAt(doc, schema, 'properties'), 'results');
    if (isObject(results.node) && results.node.items !== undefined) found = followChild(doc, results, 'items');
  }
  if (Array.isArray(node.allOf)) {
    const allOf = childAt(doc, schema, 'allOf');
    for (let i = 0; i < node.allOf.length; i++)
      found = findResultsItems(doc, followChild(doc, allOf, i), depth + 1) ?? found;
  }
  return found;
}

function schemaName(pointer: string): string {
  const m = /^#\/components\/schemas\/([^/]+)$/.exec(pointer);
  return m ? (m[1] ?? '').replaceAll('~1', '/').replaceAll('~0', '~') : 'object';
}

/**
 * An empty record for HTTP status keys ("200", "404"), kept small. A status is an array index, and
 * V8 stores those as elements: "404" set on a plain `{}` allocates a fast backing store of 600-odd
 * slots (5 KB), which thousands of operations pay in megabytes of garbage. A record that starts
 * with sparse (dictionary) elements, as an object literal with a large index does, stays small.
 * It is a plain object all the same: its keys, their order and its values are those of `{}`.
 */
export function statusRecord<T>(): Record<string, T> {
  const record: Record<string, T | undefined> = { 4294967294: undefined };
  delete record[4294967294];
  return record as Record<string, T>;
}

/** The declared responses of an operation (`op`: its raw node), and the 200 answer's JSON schema (followed). */
function declaredResponses(
  doc: unknown,
  op: At,
): { responses: Record<string, DeclaredResponse>; okSchema: At | undefined } {
  const out = statusRecord<DeclaredResponse>();
  let okSchema: At | undefined;
  const responses = followChild(doc, op, 'responses');
  if (!isObject(responses.node)) return { responses: out, okSchema };
  for (const status of Object.keys(responses.node)) {
    const resp = followChild(doc, responses, status);
    const media = followChild(doc, childAt(doc, resp, 'content'), 'application/json');
    const schemaPointer =
      isObject(media.node) && media.node.schema !== undefined ? appendPointer(media.pointer, 'schema') : undefined;
    if (status === '200' && schemaPointer !== undefined) okSchema = followChild(doc, media, 'schema');
    const examples: Record<string, unknown> = {};
    if (isObject(media.node) && isObject(media.node.examples)) {
      const named = childAt(doc, media, 'examples');
      for (const name of Object.keys(media.node.examples)) {
        const ex = followChild(doc, named, name).node;
        if (isObject(ex) && 'value' in ex) examples[name] = ex.value;
      }
    } else if (isObject(media.node) && 'example' in media.node) {
      examples.default = media.node.example;
    }
    out[status] = { status, schemaPointer, examples };
  }
  return { responses: out, okSchema };
}

interface Parameter extends At {
  readonly name: string;
  readonly in: string;
}

/** The parameters of an operation: its Path Item's, then its own (`path` followed, `op` its raw node). */
function parameters(doc: unknown, path: At, op: At): Parameter[] {
  const out = new Map<string, Parameter>();
  for (const owner of [path, op]) {
    const list = childAt(doc, owner, 'parameters');
    const items = followAt(doc, list).node;
    if (!Array.isArray(items)) continue;
    for (let i = 0; i < items.length; i++) {
      const p = followChild(doc, list, i);
      if (isObject(p.node) && typeof p.node.name === 'string' && typeof p.node.in === 'string') {
        out.set(`${p.node.in}:${p.node.name}`, { name: p.node.name, in: p.node.in, pointer: p.pointer, node: p.node });
      }
    }
  }
  return [...out.values()];
}

function requestBody(doc: unknown, op: At): { bodyPointer: string | undefined; bodyTypes: string[] } {
  const body = followChild(doc, op, 'requestBody');
  if (!isObject(body.node) || !isObject(body.node.content)) return { bodyPointer: undefined, bodyTypes: [] };
  const types = Object.keys(body.node.content);
  const preferred = types.find((t) => /^application\/json\b/i.test(t)) ?? types[0];
  if (preferred === undefined) return { bodyPointer: undefined, bodyTypes: [] };
  const media = followChild(doc, childAt(doc, body, 'content'), preferred);
  const bodyPointer =
    isObject(media.node) && media.node.schema !== undefined ? followChild(doc, media, 'schema').pointer : undefined;
  return { bodyPointer, bodyTypes: types };
}

const LOWER_METHODS: Record<ViewMethod, string> = {
  GET: 'get',
  POST: 'post',
  PUT: 'put',
  PATCH: 'patch',
  DELETE: 'delete',
};

/**
 * The routes the stub serves, read from the bundled spec, in its order: every GET whose 200 answer
 * holds `results` is a collection; a path of a collection plus one `/{param}` segment is its item
 * path. POST on a collection and PUT / PATCH / DELETE on an item path are writes. Anything the stub
 * cannot serve is a LoadProblem (the spec is the source of truth: a path it cannot serve is an
 * error to show, not to skip silently).
 */
export function readOperations(
  doc: Readonly<Record<string, unknown>>,
  file: string,
): { operations: Operations; problems: LoadProblem[] } {
  const problems: LoadProblem[] = [];
  const paths: At = { pointer: '#/paths', node: isObject(doc.paths) ? doc.paths : {} };
  const lists = new Map<string, ListOperation>();
  // A path and its Path Item, followed (a Path Item may be a `$ref`: its operations are the target's).
  type PathAt = { path: string; item: At };
  const itemPaths: PathAt[] = [];
  const collectionWrites: PathAt[] = [];

  // `op`: the operation's raw node (its responses, body); `opNode`: followed (its id, summary).
  const base = (
    path: string,
    method: ViewMethod,
    op: At,
    opNode: Record<string, unknown>,
    params: Parameter[],
    resource: string,
  ) => {
    const formatParam = params.find((p) => p.in === 'query' && p.name === 'format');
    const formatSchema = formatParam ? followChild(doc, formatParam, 'schema').node : undefined;
    const query = params
      .filter((p) => p.in === 'query')
      .map((p) => ({ name: p.name, pointer: p.pointer, schemaPointer: appendPointer(p.pointer, 'schema') }));
    const { responses, okSchema } = declaredResponses(doc, op);
    const fields = {
      method,
      operationId: typeof opNode.operationId === 'string' ? opNode.operationId : `${LOWER_METHODS[method]} ${path}`,
      path,
      resource,
      pointer: op.pointer,
      summary: typeof opNode.summary === 'string' ? opNode.summary : '',
      responses,
      formats: isObject(formatSchema) && Array.isArray(formatSchema.enum) ? formatSchema.enum.map(String) : undefined,
      queryParams: Object.fromEntries(query.map((q) => [q.name, q.schemaPointer])),
      parameters: query,
    };
    return { fields, okSchema };
  };

  for (const path of Object.keys(paths.node as Record<string, unknown>)) {
    const item = followChild(doc, paths, path);
    const pathPointer = item.pointer;
    const at: PathAt = { path, item };
    const segments = path.split('/').filter(Boolean);
    const last = segments[segments.length - 1] ?? '';
    const isItemPath = /^\{[^}]+\}$/.test(last) && segments.length >= 2;
    const pathNode = item.node;
    const declared = VIEW_METHODS.filter((m) => isObject(pathNode) && isObject(pathNode[LOWER_METHODS[m]]));
    if (isItemPath) {
      if (declared.length > 0) itemPaths.push(at);
      continue;
    }
    const opRaw = childAt(doc, item, 'get');
    const op = followAt(doc, opRaw).node;
    if (!isObject(op)) {
      if (declared.length > 0) {
        problems.push({
          file,
          pointer: pathPointer.slice(1),
          reason: `${declared.join(', ')} on a path with no GET: the stub serves collections (a GET answering the list envelope) and their item paths`,
        });
      }
      continue;
    }
    const opPointer = opRaw.pointer;
    const params = parameters(doc, item, opRaw);
    const { fields: b, okSchema } = base(path, 'GET', opRaw, op, params, last);
    const items = okSchema ? findResultsItems(doc, okSchema) : undefined;
    if (items === undefined) {
      problems.push({
        file,
        pointer: opPointer.slice(1),
        reason:
          'a GET the stub cannot serve: its 200 answer has no `results` array and it is not a collection item path',
      });
      continue;
    }
    const itemPointer = items.pointer;
    const count = isObject(items.node) ? items.node['x-stub-count'] : undefined;
    if (count !== undefined && !(Number.isInteger(count) && (count as number) >= 0 && (count as number) <= 100_000)) {
      problems.push({
        file,
        pointer: `${itemPointer.slice(1)}/x-stub-count`,
        reason: 'must be an integer from 0 to 100000',
      });
    }
    const fixture = op['x-stub-fixture'];
    if (
      fixture !== undefined &&
      !(typeof fixture === 'string' && /^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(fixture) && !fixture.includes('..'))
    ) {
      problems.push({
        file,
        pointer: `${opPointer.slice(1)}/x-stub-fixture`,
        reason:
          'must name a fixture file of the fixtures folder, such as "desk" or "desk.json" (letters, digits, ".", "_", "-")',
      });
    }
    const list: ListOperation = {
      ...b,
      kind: 'list',
      method: 'GET',
      itemPointer,
      itemName: schemaName(itemPointer),
      generateCount: typeof count === 'number' ? count : undefined,
      fixtureName: typeof fixture === 'string' ? fixture.replace(/\.json$/, '') : undefined,
      viewDescription: typeof op['x-view-description'] === 'string' ? op['x-view-description'] : '',
    };
    lists.set(path, list);
    if (declared.includes('POST')) collectionWrites.push(at);
    for (const m of declared.filter((d) => d !== 'GET' && d !== 'POST')) {
      problems.push({
        file,
        pointer: appendPointer(pathPointer, LOWER_METHODS[m]).slice(1),
        reason: `${m} on a collection path: DRF's router routes ${m} to the item path (${path}/{pk})`,
      });
    }
  }

  const detailOf = new Map<string, DetailOperation>();
  const writes: WriteOperation[] = [];
  const routes: PathRoute[] = [];
  const writeOf = (
    { path, item }: PathAt,
    method: ViewMethod,
    target: 'list' | 'detail',
    collectionPath: string,
    resource: string,
  ): WriteOperation => {
    const op = childAt(doc, item, LOWER_METHODS[method]);
    // An operation that is a dangling `$ref` (the spec's validation tells why): its defaults.
    const followed = followAt(doc, op).node;
    const opNode = isObject(followed) ? followed : {};
    const w: WriteOperation = {
      ...base(path, method, op, opNode, parameters(doc, item, op), resource).fields,
      kind: 'write',
      target,
      collectionPath,
      ...requestBody(doc, op),
    };
    writes.push(w);
    return w;
  };
  const details = new Map<string, PathRoute>();
  for (const at of itemPaths) {
    const { path, item } = at;
    const pathPointer = item.pointer;
    const parent = path.slice(0, path.lastIndexOf('/'));
    const list = lists.get(parent);
    if (!list) {
      problems.push({
        file,
        pointer: pathPointer.slice(1),
        reason: `an item path whose collection ${parent} is not in the spec`,
      });
      continue;
    }
    const pkParam = /\{([^}]+)\}$/.exec(path)?.[1] ?? 'pk';
    const methods = new Map<ViewMethod, AnyOperation>();
    const pathNode = item.node as Record<string, unknown>;
    for (const m of VIEW_METHODS) {
      if (!isObject(pathNode[LOWER_METHODS[m]])) continue;
      if (m === 'POST') {
        problems.push({
          file,
          pointer: appendPointer(pathPointer, 'post').slice(1),
          reason: `POST on an item path: DRF's router routes POST to the collection (${parent})`,
        });
        continue;
      }
      if (m !== 'GET') {
        methods.set(m, writeOf(at, m, 'detail', parent, list.resource));
        continue;
      }
      const op = childAt(doc, item, 'get');
      const params = parameters(doc, item, op);
      const pkDecl = params.find((p) => p.in === 'path' && p.name === pkParam);
      const pkSchema = pkDecl ? followChild(doc, pkDecl, 'schema').node : undefined;
      const { fields: b, okSchema } = base(
        path,
        'GET',
        op,
        pathNode.get as Record<string, unknown>,
        params,
        list.resource,
      );
      // The detail's own 200 schema is its item; a detail without one answers the collection's item.
      const detail: DetailOperation = {
        ...b,
        kind: 'detail',
        method: 'GET',
        pkParam,
        pkIsInteger: isObject(pkSchema) && pkSchema.type === 'integer',
        itemPointer: okSchema ? okSchema.pointer : list.itemPointer,
      };
      detailOf.set(parent, detail);
      methods.set('GET', detail);
    }
    details.set(parent, { path, kind: 'detail', collectionPath: parent, methods });
  }
  const pending = new Map(collectionWrites.map((w) => [w.path, w]));
  for (const list of lists.values()) {
    const methods = new Map<ViewMethod, AnyOperation>([['GET', list]]);
    const post = pending.get(list.path);
    if (post) methods.set('POST', writeOf(post, 'POST', 'list', list.path, list.resource));
    routes.push({ path: list.path, kind: 'list', collectionPath: list.path, methods });
    const detail = details.get(list.path);
    if (detail) routes.push(detail);
  }
  const all: Operation[] = [];
  for (const list of lists.values()) {
    all.push(list);
    const d = detailOf.get(list.path);
    if (d) all.push(d);
  }
  return { operations: { all, lists: [...lists.values()], detailOf, writes, routes, itemRouteOf: details }, problems };
}
