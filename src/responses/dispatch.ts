import FindMyWay from 'find-my-way';
import type { StubConfig } from '../config.js';
import { detailBody, methodNotAllowedDetail, noMatchDetail, SERVICE_ERRORS, type ServiceError } from '../errors.js';
import type { Collection } from '../fixtures/store.js';
import { renderItem } from '../fixtures/store.js';
import type { StubState } from '../state.js';
import { choosePage, pageLinks } from './pagination.js';
import { lastValue, parseQuery, type QueryMap } from './python-query.js';
import { renderEnvelope, urlContext } from './render.js';

/** What a service route answers: status, body, and whether DRF's view headers apply. */
export interface ServiceAnswer {
  readonly status: number;
  readonly body: string;
  /** Extra headers (Allow on 405 is already among the view headers). */
  readonly view: boolean;
}

/** Headers of every answer a DRF view gives (APIView.default_response_headers, Vary for negotiation). */
export const VIEW_HEADERS = Object.freeze({ allow: 'GET, HEAD, OPTIONS', vary: 'Accept' });

/** Query parameters of the stub's own (scenarios), never copied into links. */
export const STUB_QUERY_PARAMS: ReadonlySet<string> = new Set(['__code', '__example', '__dynamic', '__delay', '__empty', '__seed']);

interface RouteEntry {
  readonly kind: 'list' | 'detail';
  readonly collection: Collection;
}

const routers = new WeakMap<StubState, FindMyWay.Instance<FindMyWay.HTTPVersion.V1>>();

/** find-my-way (Fastify's router) over the state's operations, built once per state. */
function routerOf(state: StubState): FindMyWay.Instance<FindMyWay.HTTPVersion.V1> {
  let router = routers.get(state);
  if (router) return router;
  // DRF's routes have no trailing slash here (trailing_slash=False); pks may be long.
  router = FindMyWay({ ignoreTrailingSlash: false, ignoreDuplicateSlashes: false, maxParamLength: 2048 });
  for (const collection of state.collections.values()) {
    router.on('GET', collection.list.path, () => undefined, { kind: 'list', collection } satisfies RouteEntry);
    if (collection.detail) router.on('GET', toRouterPath(collection.detail.path), () => undefined, { kind: 'detail', collection } satisfies RouteEntry);
  }
  routers.set(state, router);
  return router;
}

export function toRouterPath(specPath: string): string {
  return specPath.replace(/\{([^}]+)\}/g, ':$1');
}

function error(e: ServiceError, view: boolean): ServiceAnswer {
  return { status: e.status, body: detailBody(e.detail), view };
}

// Python's int() as Django's IntegerField.to_python applies it to a pk from the url.
const PY_INT = /^\s*[+-]?[0-9](?:_?[0-9])*\s*$/;

export interface ServiceRequest {
  readonly method: string;
  /** The raw request target (path and query, as received). */
  readonly url: string;
  readonly baseUrl: string;
}

/**
 * One request to the service's paths, in DRF's order (rest_framework/views.py `initial` then
 * `dispatch`): the router (unknown path → 404), content negotiation (`format`), the method
 * (405 with Allow), then the handler (page or pk → 404s). Pure: no I/O, no state change.
 */
export function answerService(state: StubState, config: StubConfig, req: ServiceRequest): ServiceAnswer {
  const q = req.url.indexOf('?');
  const path = q === -1 ? req.url : req.url.slice(0, q);
  const found = routerOf(state).find('GET', path);
  if (!found) return error(SERVICE_ERRORS.NOT_FOUND, false);
  const route = found.store as RouteEntry;
  const query = parseQuery(q === -1 ? '' : req.url.slice(q + 1));
  const format = lastValue(query, 'format');
  const op = route.kind === 'list' ? route.collection.list : route.collection.detail;
  const formats = op?.formats ?? ['api', 'json'];
  // DRF ignores an empty format (falsy) in negotiation, but item urls still keep it.
  if (format && !formats.includes(format)) return error(SERVICE_ERRORS.NOT_FOUND, true);
  if (req.method === 'OPTIONS') return { status: 200, body: metadata(route), view: true };
  if (req.method !== 'GET' && req.method !== 'HEAD') return { status: 405, body: detailBody(methodNotAllowedDetail(req.method)), view: true };
  const ctx = urlContext(req.baseUrl, format);
  const { collection } = route;
  if (route.kind === 'detail') {
    const raw = found.params[collection.detail?.pkParam ?? 'pk'] ?? '';
    let key = raw;
    if (collection.detail?.pkIsInteger) {
      if (!PY_INT.test(raw)) return error(SERVICE_ERRORS.NOT_FOUND, true);
      key = BigInt(raw.trim().replaceAll('_', '')).toString();
    }
    const item = collection.byPk.get(key);
    if (!item) return { status: 404, body: detailBody(noMatchDetail(collection.list.itemName)), view: true };
    return { status: 200, body: renderItem(item, ctx.urlPrefixJson, ctx.formatQuery), view: true };
  }
  const count = collection.items.length;
  const choice = choosePage(lastValue(query, 'page'), count, config.pageSize);
  if (!choice.ok) return error(SERVICE_ERRORS.INVALID_PAGE, true);
  const start = (choice.page - 1) * config.pageSize;
  const links = pageLinks(`${req.baseUrl}${collection.list.path}`, linkQuery(query), choice.page, choice.numPages);
  const body = renderEnvelope(count, links.next, links.previous, collection.items.slice(start, start + config.pageSize), ctx);
  return { status: 200, body, view: true };
}

function linkQuery(query: QueryMap): QueryMap {
  let out = query;
  for (const key of query.keys()) {
    if (STUB_QUERY_PARAMS.has(key)) {
      if (out === query) out = new Map(query);
      out.delete(key);
    }
  }
  return out;
}

/** DRF's SimpleMetadata for OPTIONS (rest_framework/metadata.py): name, description, renders, parses. */
function metadata(route: RouteEntry): string {
  const op = route.kind === 'list' ? route.collection.list : route.collection.detail;
  return JSON.stringify({
    name: `${route.collection.list.itemName} ${route.kind === 'list' ? 'List' : 'Instance'}`,
    description: op?.summary ?? '',
    renders: ['application/json', 'text/html'],
    parses: ['application/json', 'application/x-www-form-urlencoded', 'multipart/form-data'],
  });
}
