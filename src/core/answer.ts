import { notResolved, requestBaseUrl, sessionMiddleware } from './django/middleware.js';
import { pathInfo } from './django/urls.js';
import { camelcaseToSpaces, determineActions, viewMetadata } from './drf/metadata.js';
import { getObject, list, retrieve, serializerRules, type ViewSet, write } from './drf/mixins.js';
import { apiRoot } from './drf/routers.js';
import { allowHeader, initial, respond, type View } from './drf/views.js';
import { detailBody, methodNotAllowedDetail, stubProblem } from './errors.js';
import { LiveCollection } from './live.js';
import type { CollectionModel, Model } from './model.js';
import { parseQuery } from './python/query.js';
import type { CoreAnswer, CoreOptions, CoreRequest, RequestContext } from './request.js';
import { drfJson } from './store.js';
import { RESET_PATH, resetAnswer } from './stub/control.js';
import { isPreflight, preflight, withCors } from './stub/cors.js';
import {
  declaredAnswer,
  impossible,
  NO_SCENARIO,
  parseScenario,
  scenarioItems,
  withoutScenarioParams,
} from './stub/scenarios.js';
import type { AnyOperation, PathRoute, ViewMethod } from '../openapi/operations.js';

export { CACHE_KEY_HEADERS, type CoreAnswer, type CoreOptions, type CoreRequest } from './request.js';
export { djangoPage, stubProblem } from './errors.js';
export { HTML_TYPE } from './django/http.js';
export { RESET_PATH } from './stub/control.js';
export { SCENARIO_HELP } from './stub/scenarios.js';

/**
 * The stub: answers requests from a compiled snapshot, in the order of docs/response-selection.md,
 * which is Django's and DRF's (middleware, URL resolution, then the view: negotiation,
 * authentication, method, handler). Pure: no I/O; its only state is what writes change.
 */
export class StubCore {
  readonly model: Model;
  readonly options: CoreOptions;
  #live = new Map<string, LiveCollection>();
  /**
   * Replaced by every write and reset: an answer cache keys its entries on it, so that nothing
   * kept from before a write is served after it.
   */
  generation: object = {};

  constructor(model: Model, options: CoreOptions) {
    this.model = model;
    this.options = options;
  }

  /** Puts every collection back to the snapshot's items (`POST /__stub/reset`). */
  reset(): void {
    this.#live = new Map();
    this.generation = {};
  }

  #viewSet(collection: CollectionModel): ViewSet {
    let live = this.#live.get(collection.list.path);
    if (!live) {
      live = new LiveCollection(collection);
      this.#live.set(collection.list.path, live);
    }
    return { model: this.model, collection, live, pageSize: this.options.pageSize };
  }

  answer(req: CoreRequest): CoreAnswer {
    const answer = sessionMiddleware(req, this.#answer(req));
    return this.options.cors ? withCors(answer, req.header) : answer;
  }

  #answer(req: CoreRequest): CoreAnswer {
    const method = req.method.toUpperCase();
    // 1. The host (CommonMiddleware).
    const host = requestBaseUrl(req, this.options);
    if ('status' in host) return host;
    if (this.options.cors && isPreflight(method, req.header)) return preflight(req.header);
    const q = req.url.indexOf('?');
    const rawQuery = q === -1 ? '' : req.url.slice(q + 1);
    const path = pathInfo(q === -1 ? req.url : req.url.slice(0, q));
    // 2. The stub's own paths.
    if (path === RESET_PATH) return resetAnswer(method, () => this.reset());
    // 3. The route (DefaultRouter), or CommonMiddleware's answers.
    const match = this.model.router.match(path);
    if (!match) return notResolved(path, rawQuery, (p) => this.model.router.match(p) !== undefined);
    const ctx: RequestContext = {
      method,
      baseUrl: host.baseUrl,
      path,
      query: parseQuery(rawQuery),
      rawQuery,
      suffix: match.suffix,
      params: match.kind === 'route' ? match.params : [],
      header: req.header,
      body: req.body,
    };
    if (match.kind === 'root') {
      const formats = this.model.operations.lists[0]?.formats ?? ['api', 'json'];
      const view = initial(ctx, 'GET, HEAD, OPTIONS', formats);
      return 'status' in view ? view : apiRoot(ctx, view, match.root, formats);
    }
    return this.#route(ctx, match.route);
  }

  /** Steps 4 to 9: the stub's scenario and validation, then the view. */
  #route(ctx: RequestContext, route: PathRoute): CoreAnswer {
    const collection = this.model.collections.get(route.collectionPath) as CollectionModel;
    const vs = this.#viewSet(collection);
    const op = (route.methods.get('GET') ?? route.methods.values().next().value) as AnyOperation;
    const formats = op.formats ?? ['api', 'json'];
    // 4. The stub's own scenario, 5. request validation: before the view, they are not the service's.
    const parsed = parseScenario(ctx.header('prefer'), ctx.query, this.options.maxDelayMs);
    if (!parsed.ok) return impossible(parsed.problems.join('; '));
    const scenario = parsed.scenario;
    const target = route.methods.get(ctx.method === 'HEAD' ? 'GET' : (ctx.method as ViewMethod)) ?? op;
    if (this.options.validateQuery) {
      const violations = this.options.validateQuery(target, ctx.query);
      if (violations.length > 0)
        return stubProblem(
          'Invalid request',
          `${violations.length} query parameter(s) break ${target.operationId}'s declaration`,
          { validation: violations },
        );
    }
    // 6. Negotiation, 7. authentication (APIView.initial).
    const view = initial(ctx, allowHeader([...route.methods.keys()]), formats);
    if ('status' in view) return view;
    // 8. The method.
    if (ctx.method === 'OPTIONS') return this.#options(ctx, view, vs, route, formats);
    const handler = route.methods.get((ctx.method === 'HEAD' ? 'GET' : ctx.method) as ViewMethod);
    if (!handler) return respond(view, 405, detailBody(methodNotAllowedDetail(ctx.method)));
    // 9. The answer.
    const delayed = (a: CoreAnswer): CoreAnswer => (scenario.delayMs > 0 ? { ...a, delayMs: scenario.delayMs } : a);
    if (scenario.code !== undefined && scenario.code !== 200)
      return delayed(declaredAnswer(view, handler, scenario, this.model.generatedBodies));
    if (handler.kind === 'write') {
      const written = write(ctx, view, vs, handler);
      if (written.status < 300) this.generation = {};
      return delayed(written);
    }
    const set = scenarioItems(collection, vs.live.set, handler, scenario);
    if ('status' in set) return set;
    const answer =
      handler.kind === 'detail' ? retrieve(ctx, view, vs, set) : list(ctx, view, vs, set, withoutScenarioParams);
    if (scenario !== NO_SCENARIO || answer.status >= 500) return delayed(answer);
    // An answer to declared parameters only may be kept: nothing else of the request shaped it.
    const params =
      route.kind === 'list' ? handler.queryParams : { ...collection.list.queryParams, ...handler.queryParams };
    for (const key of ctx.query.keys()) if (!Object.hasOwn(params, key)) return answer;
    return { ...answer, cacheable: true };
  }

  /** OPTIONS: SimpleMetadata, with the serializer's fields for a POST or a PUT. */
  #options(ctx: RequestContext, view: View, vs: ViewSet, route: PathRoute, formats: readonly string[]): CoreAnswer {
    const { collection } = vs;
    const suffix = route.kind === 'list' ? 'List' : 'Instance';
    const actions = determineActions(
      route,
      collection.fields,
      (op) => serializerRules(this.model, collection, op),
      () => !('status' in getObject(ctx, view, vs, vs.live.set)),
    );
    const name = `${camelcaseToSpaces(collection.list.itemName)} ${suffix}`;
    return respond(view, 200, drfJson(viewMetadata(name, collection.list.viewDescription, formats, actions)));
  }
}
