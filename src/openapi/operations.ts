import type { LoadProblem } from './problem.js';
import { type DeclaredResponse, declaredResponses } from './declared-responses.js';
import { type Queryset, querysetOf } from './queryset.js';
import { type At, appendPointer, childAt, followAt, followChild, isObject, unescapeToken } from './pointer.js';

/** The methods a DRF view can declare, in the order DRF lists them in `Allow` (View.http_method_names). */
export const VIEW_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export type ViewMethod = (typeof VIEW_METHODS)[number];

/** A renderer of the view: the `format` that selects it and the media type it is negotiated as. */
export interface Renderer {
  readonly format: string;
  readonly mediaType: string;
}

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
  /**
   * The renderers those formats stand for, in order, each with the media type it is negotiated
   * as (`x-media-types` on the parameter's schema: `{json: application/json, api: text/html}`;
   * application/json where it says nothing). Every one renders JSON.
   */
  readonly renderers: readonly Renderer[] | undefined;
  /** Declared query parameters: name → pointer to its schema. */
  readonly queryParams: Readonly<Record<string, string>>;
  /** The same, in declaration order, with the parameter's own pointer. */
  readonly parameters: readonly QueryParameter[];
  /**
   * An anonymous client may call it: its `security` (else the document's) is absent, empty, or
   * lists `{}` (DRF's AllowAny); otherwise IsAuthenticated.
   */
  readonly anonymous: boolean;
  /**
   * `x-django-view: true`: a plain Django view, not DRF's (a RedirectView): no negotiation, no
   * authentication, its declared answer as Django sends it.
   */
  readonly djangoView: boolean;
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
  /**
   * The viewset's name in DRF's OPTIONS (`x-view-name`: `Tag` for a TagViewSet → "Tag List"),
   * else the item schema's name in words.
   */
  readonly viewName: string | undefined;
  /**
   * The queryset's model, whose name DRF's 404 gives ("No Expense matches the given query."):
   * `x-model-name`, else the item schema's name.
   */
  readonly modelName: string;
  /** What the viewset's queryset holds (`x-queryset`). */
  readonly queryset: Queryset;
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

/**
 * Any other operation: an extra action of a collection's viewset (DRF's `@action`, a list action
 * at `<collection>/<url_path>` or a detail action at `<collection>/{pk}/<url_path>`), or a view
 * outside any viewset (`/api/v1/current-user/`). It answers its declared success.
 */
export interface CustomOperation extends OperationBase {
  readonly kind: 'custom';
  readonly scope: 'list-action' | 'detail-action' | 'view';
  /** The collection of an action; undefined for a view. */
  readonly collectionPath: string | undefined;
  readonly bodyPointer: string | undefined;
  readonly bodyTypes: readonly string[];
  /** The declared success: the first 2xx (else 3xx) response, if any. */
  readonly success: DeclaredResponse | undefined;
  /** `x-stub-fixture`: a fixture file whose content is the success body. */
  readonly fixtureName: string | undefined;
}

export type Operation = ListOperation | DetailOperation;
export type AnyOperation = Operation | WriteOperation | CustomOperation;

/** The kinds of route DRF's DefaultRouter makes for a viewset, and a plain view's. */
export type RouteKind = 'list' | 'detail' | 'list-action' | 'detail-action' | 'view';

/** One path of the spec as Django would route it. */
export interface PathRoute {
  readonly path: string;
  readonly kind: RouteKind;
  /** The viewset's collection path; '' for a view outside any viewset. */
  readonly collectionPath: string;
  /** Every method the spec declares on the path, in DRF's order. */
  readonly methods: ReadonlyMap<ViewMethod, AnyOperation>;
  /** An action's url_path (`simple_list`, `cancel-reservation`); '' otherwise. */
  readonly urlPath: string;
}

/** DefaultRouter's API root, where the spec declares it (`x-api-root: true` on a GET). */
export interface ApiRootOperation {
  readonly path: string;
  readonly operationId: string;
  readonly pointer: string;
  readonly formats: readonly string[] | undefined;
  readonly renderers: readonly Renderer[] | undefined;
  readonly anonymous: boolean;
}

export interface Operations {
  /** Every other declared operation: actions and views. */
  readonly customs: readonly CustomOperation[];
  /** The declared API root, if any. */
  readonly root: ApiRootOperation | undefined;
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
  return m ? unescapeToken(m[1] ?? '') : 'object';
}

interface Parameter extends At {
  readonly name: string;
  readonly in: string;
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

/** Each method as a Path Item names it (`get`). */
const LOWER_METHODS = Object.fromEntries(VIEW_METHODS.map((m) => [m, m.toLowerCase()])) as Record<ViewMethod, string>;

const FIXTURE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** The renderers of a `format` parameter's schema: its enum, with `x-media-types`. */
function renderersOf(schema: unknown): Renderer[] | undefined {
  if (!isObject(schema) || !Array.isArray(schema.enum)) return undefined;
  const media = isObject(schema['x-media-types']) ? schema['x-media-types'] : {};
  return schema.enum.map((f) => {
    const format = String(f);
    const type = media[format];
    return { format, mediaType: typeof type === 'string' ? type : 'application/json' };
  });
}

/** A list of security requirements lets an anonymous client in: none, or one that is `{}`. */
function allowsAnonymous(security: unknown): boolean {
  if (!Array.isArray(security) || security.length === 0) return true;
  return security.some((r) => isObject(r) && Object.keys(r).length === 0);
}

/** A path's segments (`/api/v1/desk/{pk}` → `api`, `v1`, `desk`, `{pk}`). */
const segmentsOf = (path: string) => path.split('/').filter(Boolean);
const isParam = (segment: string) => /^\{[^}]+\}$/.test(segment);

/** A declared path: its Path Item (followed) and the methods it declares, in DRF's order. */
interface PathAt {
  readonly path: string;
  readonly item: At;
  readonly declared: readonly ViewMethod[];
}

/**
 * The routes the stub serves, read from the bundled spec, in its order, as DRF's DefaultRouter and
 * Django's URL patterns would route them:
 * - every GET whose 200 answer holds `results` is a collection (a ModelViewSet): POST on it is a
 *   create; its path plus one `/{param}` segment is its item path (retrieve, and PUT / PATCH /
 *   DELETE writes);
 * - a path under a collection is one of its viewset's extra actions: `<collection>/<url_path>` a
 *   list action, `<collection>/{pk}/<url_path>` a detail action;
 * - any other path is a view of its own, and a GET marked `x-api-root: true` is the router's root.
 * What DRF's router cannot route (PUT on a collection, POST on an item) is a LoadProblem: the spec
 * is the source of truth, and a path it cannot serve is an error to show, not to skip silently.
 */
export function readOperations(
  doc: Readonly<Record<string, unknown>>,
  file: string,
): { operations: Operations; problems: LoadProblem[] } {
  const reader = new OperationReader(doc, file);
  const paths = reader.declaredPaths();
  // 1. The collections (and the API root), first: every other path is routed by them.
  for (const at of paths) reader.collection(at);
  // 2. Every declared operation, by the route it belongs to.
  for (const at of paths) reader.route(at);
  // 3. The routes in Django's order.
  return { operations: reader.operations(), problems: reader.problems };
}

/** readOperations' steps, and what they gather, in the spec's order. */
class OperationReader {
  readonly problems: LoadProblem[] = [];
  readonly #doc: Readonly<Record<string, unknown>>;
  readonly #file: string;
  readonly #lists = new Map<string, ListOperation>();
  #root: ApiRootOperation | undefined;
  readonly #detailOf = new Map<string, DetailOperation>();
  readonly #writes: WriteOperation[] = [];
  readonly #customs: CustomOperation[] = [];
  readonly #listRoutes = new Map<string, PathRoute>();
  readonly #itemRoutes = new Map<string, PathRoute>();
  readonly #actionRoutes = new Map<string, PathRoute[]>();
  readonly #viewRoutes: PathRoute[] = [];

  constructor(doc: Readonly<Record<string, unknown>>, file: string) {
    this.#doc = doc;
    this.#file = file;
  }

  #problem = (pointer: string, reason: string): void => {
    this.problems.push({ file: this.#file, pointer: pointer.slice(1), reason });
  };

  /** The paths that declare at least one of the view's methods. */
  declaredPaths(): PathAt[] {
    const doc = this.#doc;
    const paths: At = { pointer: '#/paths', node: isObject(doc.paths) ? doc.paths : {} };
    const out: PathAt[] = [];
    for (const path of Object.keys(paths.node as Record<string, unknown>)) {
      const item = followChild(doc, paths, path);
      const declared = VIEW_METHODS.filter((m) => isObject(item.node) && isObject(item.node[LOWER_METHODS[m]]));
      if (declared.length > 0) out.push({ path, item, declared });
    }
    return out;
  }

  /** Step 1: a GET whose 200 answer is the list envelope, on a path ending in a literal (or the API root). */
  collection({ path, item, declared }: PathAt): void {
    const segments = segmentsOf(path);
    if (!declared.includes('GET') || segments.length === 0 || isParam(segments[segments.length - 1] as string)) return;
    const { fields, okSchema, node } = this.#operation(path, item, 'GET', segments[segments.length - 1] as string);
    if (node['x-api-root'] === true) {
      const { operationId, pointer, formats, renderers, anonymous } = fields;
      this.#root = { path, operationId, pointer, formats, renderers, anonymous };
      return;
    }
    const items = okSchema ? findResultsItems(this.#doc, okSchema) : undefined;
    if (items === undefined) return;
    const count = isObject(items.node) ? items.node['x-stub-count'] : undefined;
    if (count !== undefined && !(Number.isInteger(count) && (count as number) >= 0 && (count as number) <= 100_000))
      this.#problem(`${items.pointer}/x-stub-count`, 'must be an integer from 0 to 100000');
    this.#lists.set(path, {
      ...fields,
      kind: 'list',
      method: 'GET',
      itemPointer: items.pointer,
      itemName: schemaName(items.pointer),
      generateCount: typeof count === 'number' ? count : undefined,
      fixtureName: this.#fixtureName(node, fields.pointer),
      viewDescription: typeof node['x-view-description'] === 'string' ? node['x-view-description'] : '',
      viewName: typeof node['x-view-name'] === 'string' ? node['x-view-name'] : undefined,
      modelName: typeof node['x-model-name'] === 'string' ? node['x-model-name'] : schemaName(items.pointer),
      queryset: querysetOf(node['x-queryset'], `${fields.pointer}/x-queryset`, this.#problem),
    });
  }

  /** Step 2: a declared path's route: a collection's, its item path's, an extra action's or a view's. */
  route(at: PathAt): void {
    if (this.#root?.path === at.path) return;
    const list = this.#lists.get(at.path);
    if (list) return this.#listRoute(at, list);
    const owner = this.#ownerOf(at.path);
    const rest = owner?.rest ?? [];
    if (owner && rest.length === 1 && isParam(rest[0] as string))
      return this.#itemRoute(at, owner.list, rest[0] as string);
    // An extra action of a collection's viewset: literal segments after the collection, or after its {pk}.
    const detailAction = owner !== undefined && rest.length >= 2 && isParam(rest[0] as string);
    const actionPath = detailAction ? rest.slice(1) : rest;
    const action = owner !== undefined && actionPath.length > 0 && !actionPath.some(isParam) ? owner.list : undefined;
    const scope = action ? (detailAction ? 'detail-action' : 'list-action') : 'view';
    const methods = new Map<ViewMethod, AnyOperation>();
    for (const m of at.declared) methods.set(m, this.#custom(at, m, scope, action));
    const route: PathRoute = {
      path: at.path,
      kind: scope,
      collectionPath: action?.path ?? '',
      methods,
      urlPath: action ? actionPath.join('/') : '',
    };
    if (action) this.#actionRoutes.set(action.path, [...(this.#actionRoutes.get(action.path) ?? []), route]);
    else this.#viewRoutes.push(route);
  }

  /** A collection's path: list, and create where POST is declared. */
  #listRoute(at: PathAt, list: ListOperation): void {
    const methods = new Map<ViewMethod, AnyOperation>([['GET', list]]);
    for (const m of at.declared) {
      if (m === 'POST') methods.set('POST', this.#write(at, 'POST', 'list', list));
      else if (m !== 'GET')
        this.#problem(
          appendPointer(at.item.pointer, LOWER_METHODS[m]),
          `${m} on a collection path: DRF's router routes ${m} to the item path (${at.path}/{pk})`,
        );
    }
    this.#listRoutes.set(at.path, { path: at.path, kind: 'list', collectionPath: at.path, methods, urlPath: '' });
  }

  /** The item path (`{pk}` the last segment): retrieve, update, partial_update, destroy. */
  #itemRoute(at: PathAt, list: ListOperation, segment: string): void {
    const pkParam = segment.slice(1, -1);
    const methods = new Map<ViewMethod, AnyOperation>();
    for (const m of at.declared) {
      if (m === 'POST')
        this.#problem(
          appendPointer(at.item.pointer, 'post'),
          `POST on an item path: DRF's router routes POST to the collection (${list.path})`,
        );
      else if (m !== 'GET') methods.set(m, this.#write(at, m, 'detail', list));
      else {
        const detail = this.#detail(at, list, pkParam);
        this.#detailOf.set(list.path, detail);
        methods.set('GET', detail);
      }
    }
    this.#itemRoutes.set(list.path, { path: at.path, kind: 'detail', collectionPath: list.path, methods, urlPath: '' });
  }

  #detail({ path, item }: PathAt, list: ListOperation, pkParam: string): DetailOperation {
    const { fields, okSchema, params } = this.#operation(path, item, 'GET', list.resource);
    const pkDecl = params.find((p) => p.in === 'path' && p.name === pkParam);
    const pkSchema = pkDecl ? followChild(this.#doc, pkDecl, 'schema').node : undefined;
    return {
      ...fields,
      kind: 'detail',
      method: 'GET',
      pkParam,
      pkIsInteger: isObject(pkSchema) && pkSchema.type === 'integer',
      // The detail's own 200 schema is its item; a detail without one answers the collection's item.
      itemPointer: okSchema ? okSchema.pointer : list.itemPointer,
    };
  }

  /** The collection a path belongs to (the longest collection path it starts with), and the rest. */
  #ownerOf(path: string): { list: ListOperation; rest: string[] } | undefined {
    // Each prefix that a `/` follows, the longest first: one lookup each, whatever the collections.
    for (let i = path.lastIndexOf('/'); i >= 0; i = i === 0 ? -1 : path.lastIndexOf('/', i - 1)) {
      const list = this.#lists.get(path.slice(0, i));
      if (list !== undefined) return { list, rest: segmentsOf(path.slice(i)) };
    }
    return undefined;
  }

  #write(at: PathAt, method: ViewMethod, target: 'list' | 'detail', list: ListOperation): WriteOperation {
    const { fields, raw } = this.#operation(at.path, at.item, method, list.resource);
    const w: WriteOperation = {
      ...fields,
      kind: 'write',
      target,
      collectionPath: list.path,
      ...requestBody(this.#doc, raw),
    };
    this.#writes.push(w);
    return w;
  }

  #custom(at: PathAt, method: ViewMethod, scope: CustomOperation['scope'], list?: ListOperation): CustomOperation {
    const segments = segmentsOf(at.path).filter((s) => !isParam(s));
    const resource = list?.resource ?? segments[segments.length - 1] ?? 'root';
    const { fields, raw, node } = this.#operation(at.path, at.item, method, resource);
    const statuses = Object.keys(fields.responses).filter((st) => /^[23][0-9]{2}$/.test(st));
    const successStatus = statuses.find((st) => st.startsWith('2')) ?? statuses[0];
    const c: CustomOperation = {
      ...fields,
      kind: 'custom',
      scope,
      collectionPath: list?.path,
      ...requestBody(this.#doc, raw),
      success: successStatus === undefined ? undefined : fields.responses[successStatus],
      fixtureName: this.#fixtureName(node, fields.pointer),
    };
    this.#customs.push(c);
    return c;
  }

  /**
   * Step 3: each viewset's routes as DefaultRouter lists them (list, list actions, detail, detail
   * actions), in the spec's order of collections, then the other views.
   */
  operations(): Operations {
    const routes: PathRoute[] = [];
    const ordered: Operation[] = [];
    for (const list of this.#lists.values()) {
      const own = this.#actionRoutes.get(list.path) ?? [];
      routes.push(this.#listRoutes.get(list.path) as PathRoute);
      routes.push(...own.filter((r) => r.kind === 'list-action'));
      const detail = this.#itemRoutes.get(list.path);
      if (detail) routes.push(detail);
      routes.push(...own.filter((r) => r.kind === 'detail-action'));
      ordered.push(list);
      const d = this.#detailOf.get(list.path);
      if (d) ordered.push(d);
    }
    routes.push(...this.#viewRoutes);
    return {
      all: ordered,
      lists: [...this.#lists.values()],
      detailOf: this.#detailOf,
      writes: this.#writes,
      customs: this.#customs,
      root: this.#root,
      routes,
      itemRouteOf: this.#itemRoutes,
    };
  }

  /** The parameters of an operation: its Path Item's, then its own (`path` followed, `op` its raw node). */
  #parameters(path: At, op: At): Parameter[] {
    const out = new Map<string, Parameter>();
    for (const owner of [path, op]) {
      const list = childAt(this.#doc, owner, 'parameters');
      const items = followAt(this.#doc, list).node;
      if (!Array.isArray(items)) continue;
      for (let i = 0; i < items.length; i++) {
        const p = followChild(this.#doc, list, i);
        if (isObject(p.node) && typeof p.node.name === 'string' && typeof p.node.in === 'string')
          out.set(`${p.node.in}:${p.node.name}`, {
            name: p.node.name,
            in: p.node.in,
            pointer: p.pointer,
            node: p.node,
          });
      }
    }
    return [...out.values()];
  }

  /**
   * A declared operation: what every operation has (OperationBase), its 200 answer's schema, its
   * parameters, its raw node (`raw`: its responses, body) and its node followed (its id, summary).
   */
  #operation(path: string, item: At, method: ViewMethod, resource: string) {
    const doc = this.#doc;
    const raw = childAt(doc, item, LOWER_METHODS[method]);
    // An operation that is a dangling `$ref` (the spec's validation tells why): its defaults.
    const followed = followAt(doc, raw).node;
    const node = isObject(followed) ? followed : {};
    const params = this.#parameters(item, raw);
    const formatParam = params.find((p) => p.in === 'query' && p.name === 'format');
    const formatSchema = formatParam ? followChild(doc, formatParam, 'schema').node : undefined;
    const query = params
      .filter((p) => p.in === 'query')
      .map((p) => ({ name: p.name, pointer: p.pointer, schemaPointer: appendPointer(p.pointer, 'schema') }));
    const { responses, okSchema } = declaredResponses(doc, raw);
    const fields = {
      method,
      operationId: typeof node.operationId === 'string' ? node.operationId : `${LOWER_METHODS[method]} ${path}`,
      path,
      resource,
      pointer: raw.pointer,
      summary: typeof node.summary === 'string' ? node.summary : '',
      responses,
      formats: isObject(formatSchema) && Array.isArray(formatSchema.enum) ? formatSchema.enum.map(String) : undefined,
      renderers: renderersOf(formatSchema),
      queryParams: Object.fromEntries(query.map((q) => [q.name, q.schemaPointer])),
      parameters: query,
      anonymous: allowsAnonymous(Array.isArray(node.security) ? node.security : doc.security),
      djangoView: node['x-django-view'] === true,
    };
    return { fields, okSchema, params, raw, node };
  }

  /** `x-stub-fixture`: a fixture file's name, checked. */
  #fixtureName(opNode: Record<string, unknown>, opPointer: string): string | undefined {
    const fixture = opNode['x-stub-fixture'];
    if (fixture === undefined) return undefined;
    if (typeof fixture === 'string' && FIXTURE_NAME.test(fixture) && !fixture.includes('..'))
      return fixture.replace(/\.json$/, '');
    this.#problem(
      `${opPointer}/x-stub-fixture`,
      'must name a fixture file of the fixtures folder, such as "desk" or "desk.json" (letters, digits, ".", "_", "-")',
    );
    return undefined;
  }
}
