import FindMyWay from 'find-my-way';
import type { StubConfig } from '../config.js';
import { detailBody, methodNotAllowedDetail, noMatchDetail, SERVICE_ERRORS, type ServiceError } from '../errors.js';
import { type Collection, EMPTY_SET, type ItemSet, renderItem } from '../fixtures/store.js';
import { declaredBody } from '../scenarios/declared.js';
import { NO_SCENARIO, parseScenario, SCENARIO_QUERY_PARAMS, type Scenario } from '../scenarios/parse.js';
import { validateQuery } from './request-validation.js';
import type { Operation } from '../spec/operations.js';
import type { StubState } from '../state.js';
import { choosePage, pageLinks } from './pagination.js';
import { lastValue, parseQuery, pythonInt, type QueryMap } from './python-query.js';
import { itemUrlParts, renderEnvelope } from './render.js';

/** What a service route answers: status, body, and whether DRF's view headers apply. */
export interface ServiceAnswer {
  readonly status: number;
  readonly body: string;
  /** DRF's view headers (Allow, Vary) apply. */
  readonly view: boolean;
  /** `application/json` unless the stub itself speaks (`application/problem+json`). */
  readonly contentType?: string;
  /** `Prefer: delay=MS`. */
  readonly delayMs?: number;
  /**
   * The answer may be kept by the answer cache: a spec route asked with only the query parameters
   * it declares (a url with parameters of its own, a cache-buster, is answered but not kept).
   */
  readonly cacheable?: boolean;
}

/** A fault of the request to the mock itself (a scenario that cannot be), RFC 9457. */
export function mockProblem(title: string, detail: string, extra: Record<string, unknown> = {}): ServiceAnswer {
  return { status: 400, view: false, contentType: 'application/problem+json', body: JSON.stringify({ type: 'about:blank', title, status: 400, detail, ...extra }) };
}

/** Headers of every answer a DRF view gives (APIView.default_response_headers, Vary for negotiation). */
export const VIEW_HEADERS = Object.freeze({ allow: 'GET, HEAD, OPTIONS', vary: 'Accept' });

interface RouteEntry {
  readonly kind: 'list' | 'detail';
  readonly collection: Collection;
}

type MatchedRoute = RouteEntry & { readonly params: Readonly<Record<string, string | undefined>> };

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

export interface ServiceRequest {
  readonly method: string;
  /** The raw request target (path and query, as received). */
  readonly url: string;
  readonly baseUrl: string;
  /** The `Prefer` header, for scenarios. */
  readonly prefer?: string | string[] | undefined;
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
  const route: MatchedRoute = { ...(found.store as RouteEntry), params: found.params };
  const query = parseQuery(q === -1 ? '' : req.url.slice(q + 1));
  const parsed = parseScenario(req.prefer, query, config.maxDelayMs);
  if (!parsed.ok) return mockProblem('Impossible scenario', parsed.problems.join('; '), { available: SCENARIO_HELP });
  const scenario = parsed.scenario;
  const format = lastValue(query, 'format');
  const op = route.kind === 'list' ? route.collection.list : route.collection.detail;
  if (!op) return error(SERVICE_ERRORS.NOT_FOUND, false);
  if (config.validateRequests) {
    const violations = validateQuery(state, op, query);
    if (violations.length > 0) {
      return mockProblem('Invalid request', `${violations.length} query parameter(s) break ${op.operationId}'s declaration`, { validation: violations });
    }
  }
  const formats = op.formats ?? ['api', 'json'];
  // DRF ignores an empty format (falsy) in negotiation, but item urls still keep it.
  if (format && !formats.includes(format)) return error(SERVICE_ERRORS.NOT_FOUND, true);
  if (req.method === 'OPTIONS') return { status: 200, body: metadata(route), view: true };
  if (req.method !== 'GET' && req.method !== 'HEAD') return { status: 405, body: detailBody(methodNotAllowedDetail(req.method)), view: true };
  const answer = answerRoute(state, config, req, route, op, query, format, scenario);
  if (scenario.delayMs > 0) return { ...answer, delayMs: scenario.delayMs };
  let cacheable = scenario === NO_SCENARIO && answer.contentType === undefined;
  for (const key of query.keys()) if (!Object.hasOwn(op.queryParams, key)) cacheable = false;
  return cacheable ? { ...answer, cacheable } : answer;
}

export const SCENARIO_HELP = Object.freeze({
  prefer: 'Prefer: code=<status>, example=<name>, dynamic=true, empty=true, delay=<ms>',
  query: '__code, __example, __dynamic, __empty, __delay',
});

/** The items a scenario asks for (docs/response-selection.md), or a problem. */
function itemSet(collection: Collection, op: Operation, scenario: Scenario): ItemSet | ServiceAnswer {
  if (scenario.empty) return EMPTY_SET;
  if (scenario.dynamic) {
    return collection.dynamic ?? mockProblem('Impossible scenario', `${op.operationId}: its item schema describes no field to generate from`, { available: SCENARIO_HELP });
  }
  if (scenario.example !== undefined) {
    return (
      collection.examples.get(scenario.example) ??
      mockProblem('Impossible scenario', `the 200 response of ${op.operationId} has no example "${scenario.example}"`, { available: { examples: [...collection.examples.keys()] } })
    );
  }
  return collection;
}

function answerRoute(
  state: StubState,
  config: StubConfig,
  req: ServiceRequest,
  route: MatchedRoute,
  op: Operation,
  query: QueryMap,
  format: string | undefined,
  scenario: Scenario,
): ServiceAnswer {
  if (scenario.code !== undefined && scenario.code !== 200) {
    const declared = declaredBody(state.spec.doc, op, scenario.code, scenario.example, config.seed);
    if (!declared.ok) return mockProblem('Impossible scenario', declared.problem, { available: declared.available });
    return { status: scenario.code, body: declared.body, view: true };
  }
  const { collection } = route;
  const set = itemSet(collection, op, scenario);
  if ('status' in set) return set;
  const url = itemUrlParts(req.baseUrl, collection.detail, format);
  if (route.kind === 'detail') {
    const raw = route.params[collection.detail?.pkParam ?? 'pk'] ?? '';
    let key = raw;
    if (collection.detail?.pkIsInteger) {
      // Django's IntegerField.to_python: int() of the url segment, else 404 "Not found.".
      const n = pythonInt(raw);
      if (n === undefined) return error(SERVICE_ERRORS.NOT_FOUND, true);
      key = n.toString();
    }
    const item = set.byPk.get(key);
    if (!item) return { status: 404, body: detailBody(noMatchDetail(collection.list.itemName)), view: true };
    return { status: 200, body: renderItem(item, url), view: true };
  }
  const count = set.items.length;
  const choice = choosePage(lastValue(query, 'page'), count, config.pageSize);
  if (!choice.ok) return error(SERVICE_ERRORS.INVALID_PAGE, true);
  const start = (choice.page - 1) * config.pageSize;
  const links = pageLinks(`${req.baseUrl}${collection.list.path}`, linkQuery(query), choice.page, choice.numPages);
  const body = renderEnvelope(count, links.next, links.previous, set.items.slice(start, start + config.pageSize), url);
  return { status: 200, body, view: true };
}

function linkQuery(query: QueryMap): QueryMap {
  let out = query;
  for (const key of query.keys()) {
    if (SCENARIO_QUERY_PARAMS.has(key)) {
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
