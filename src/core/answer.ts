import { deploymentCors, notResolved, requestBaseUrl, sessionMiddleware } from './django/middleware.js';
import { pathInfo } from './django/urls.js';
import { camelcaseToSpaces, determineActions, viewMetadata } from './drf/metadata.js';
import { getObject, list, retrieve, serializerRules, urlOf, validatedBody, type ViewSet, write } from './drf/mixins.js';
import { parseBody } from './drf/parsers.js';
import { serializerFields } from './drf/serializers.js';
import { apiRoot, type Match } from './drf/routers.js';
import { DEFAULT_RENDERERS } from './drf/negotiation.js';
import { allowHeader, initial, respond, type View, type ViewConfig } from './drf/views.js';
import { DJANGO_ERRORS, detailBody, djangoPage, DRF_ERRORS, methodNotAllowedDetail, stubProblem } from './errors.js';
import { LiveCollection } from './live.js';
import type { CollectionModel, Model } from './model.js';
import { parseQuery, type QueryMap } from './python/query.js';
import type { AnswerViolation, CoreAnswer, CoreOptions, CoreRequest, RequestContext } from './request.js';
import { drfJson } from './store.js';
import { crossSiteRefused, RESET_PATH, resetAnswer, STUB_PREFIX } from './stub/control.js';
import { crossSiteWrite, isPreflight, LOOPBACK_CORS, preflight, withCors } from './stub/cors.js';
import { declaredAnswer, renderAnswer, successAnswer } from './stub/declared.js';
import {
  type CollectionAccess,
  collectionAccess,
  type Handler,
  type HandlerAnswer,
  type HandlerContext,
  handlerRequest,
  type HandlerResult,
  paramNames,
} from './stub/handlers.js';
import {
  impossible,
  NO_SCENARIO,
  parseScenario,
  type Scenario,
  scenarioItems,
  withoutScenarioParams,
} from './stub/scenarios.js';
import type { AnyOperation, CustomOperation, PathRoute, Renderer, ViewMethod } from '../openapi/operations.js';

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

  answer(req: CoreRequest): CoreAnswer | Promise<CoreAnswer> {
    const finish = (a: CoreAnswer): CoreAnswer => {
      const answer = sessionMiddleware(req, a);
      return this.options.cors.mode === 'stub' ? withCors(this.options.cors, answer, req.header) : answer;
    };
    const answered = this.#answer(req);
    return answered instanceof Promise ? answered.then(finish) : finish(answered);
  }

  #answer(req: CoreRequest): CoreAnswer | Promise<CoreAnswer> {
    const method = req.method.toUpperCase();
    // 1. The host (CommonMiddleware).
    const host = requestBaseUrl(req, this.options);
    if ('status' in host) return host;
    const cors = this.options.cors;
    if (cors.mode === 'stub' && isPreflight(method, req.header)) return preflight(cors, req.header);
    const q = req.url.indexOf('?');
    const rawQuery = q === -1 ? '' : req.url.slice(q + 1);
    const path = pathInfo(q === -1 ? req.url : req.url.slice(0, q));
    // 2. The stub's own paths.
    if (path.startsWith(STUB_PREFIX)) {
      if (
        crossSiteWrite(cors, method, req.header) ||
        (cors.mode !== 'stub' && crossSiteWrite(LOOPBACK_CORS, method, req.header))
      )
        return crossSiteRefused();
      if (path === RESET_PATH) return resetAnswer(method, () => this.reset());
    }
    // 3. The route (DefaultRouter), or CommonMiddleware's answers; the deployment's CORS middleware
    // sits inside CommonMiddleware.
    const inner = (a: CoreAnswer): CoreAnswer =>
      cors.mode === 'deployment' ? deploymentCors(a, cors.frontendOrigin) : a;
    const match = this.model.router.match(path);
    if (!match) {
      const answer = notResolved(path, rawQuery, (p) => this.model.router.match(p) !== undefined);
      return answer.status === 404 ? inner(answer) : answer;
    }
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
    const resolved = this.#resolved(ctx, match);
    return resolved instanceof Promise ? resolved.then(inner) : inner(resolved);
  }

  /** The view of a resolved route. */
  #resolved(ctx: RequestContext, match: Match): CoreAnswer | Promise<CoreAnswer> {
    if (match.kind === 'root') {
      const declared = this.model.operations.root;
      const renderers = declared?.renderers ?? this.model.operations.lists[0]?.renderers ?? DEFAULT_RENDERERS;
      const view = initial(ctx, this.#viewConfig('GET, HEAD, OPTIONS', renderers, declared?.anonymous ?? true));
      return 'status' in view ? view : apiRoot(ctx, view, match.root, renderers);
    }
    return this.#route(ctx, match.route);
  }

  /** Steps 4 to 9: the stub's scenario and validation, then the view. */
  #route(ctx: RequestContext, route: PathRoute): CoreAnswer | Promise<CoreAnswer> {
    const collection = this.model.collections.get(route.collectionPath);
    const vs = collection === undefined ? undefined : this.#viewSet(collection);
    const first = (route.methods.get('GET') ?? route.methods.values().next().value) as AnyOperation;
    const renderers = first.renderers ?? DEFAULT_RENDERERS;
    // 4. The stub's own scenario, 5. request validation: before the view, they are not the service's.
    const parsed = parseScenario(ctx.header('prefer'), ctx.query, this.options.maxDelayMs);
    if (!parsed.ok) return impossible(parsed.problems.join('; '));
    const scenario = parsed.scenario;
    const target = route.methods.get(ctx.method === 'HEAD' ? 'GET' : (ctx.method as ViewMethod)) ?? first;
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
    const view = initial(ctx, this.#viewConfig(allowHeader([...route.methods.keys()]), renderers, target.anonymous));
    if ('status' in view) return view;
    // 8. The method.
    if (ctx.method === 'OPTIONS') return this.#options(ctx, view, vs, route, renderers);
    const op = route.methods.get((ctx.method === 'HEAD' ? 'GET' : ctx.method) as ViewMethod);
    if (!op) return respond(view, 405, detailBody(methodNotAllowedDetail(ctx.method)));
    // A write a page of another origin sent without a preflight: refused before it changes anything.
    if (crossSiteWrite(this.options.cors, ctx.method, ctx.header)) return crossSiteRefused();
    // 9. The answer: a scenario's, a handler's, else the operation's own.
    const delayed = (a: CoreAnswer): CoreAnswer => (scenario.delayMs > 0 ? { ...a, delayMs: scenario.delayMs } : a);
    if (scenario.code !== undefined && scenario.code !== 200)
      return delayed(declaredAnswer(view, op, scenario, this.model));
    const handler = this.options.handlers?.[op.operationId];
    if (handler === undefined) return delayed(this.#standard(ctx, view, vs, route, op, scenario));
    const body = this.#requestBody(ctx, view, vs, op);
    if ('status' in body) return delayed(body);
    const answered = this.#handled(ctx, view, vs, route, op, scenario, handler, body);
    return answered instanceof Promise ? answered.then(delayed) : delayed(answered);
  }

  #viewConfig(allow: string, renderers: readonly Renderer[], anonymous: boolean): ViewConfig {
    return { allow, renderers, authenticators: this.model.authenticators, tokens: this.options.tokens, anonymous };
  }

  /** What the operation answers without a handler: its viewset's action, or its declared success. */
  #standard(
    ctx: RequestContext,
    view: View,
    vs: ViewSet | undefined,
    route: PathRoute,
    op: AnyOperation,
    scenario: Scenario,
    validated?: Readonly<Record<string, unknown>>,
  ): CoreAnswer {
    if (op.kind === 'custom' || vs === undefined)
      return renderAnswer(view, op, successAnswer(op as CustomOperation, this.model));
    if (op.kind === 'write') {
      const written = write(ctx, view, vs, op, validated);
      if (written.status < 300) this.generation = {};
      return written;
    }
    const set = scenarioItems(vs.collection, vs.live.set, op, scenario);
    if ('status' in set) return set;
    const answer =
      op.kind === 'detail' ? retrieve(ctx, view, vs, set) : list(ctx, view, vs, set, withoutScenarioParams);
    if (scenario !== NO_SCENARIO || answer.status >= 500) return answer;
    // An answer to declared parameters only may be kept: nothing else of the request shaped it.
    const params = route.kind === 'list' ? op.queryParams : { ...vs.collection.list.queryParams, ...op.queryParams };
    for (const key of ctx.query.keys()) if (!Object.hasOwn(params, key)) return answer;
    return { ...answer, cacheable: true };
  }

  /**
   * The body a handler gets: validated by the serializer the operation declares (a write's, or
   * the request schema of an action or a view), else as parsed; a body DRF would refuse is
   * answered as DRF answers it, before any handler.
   */
  #requestBody(
    ctx: RequestContext,
    view: View,
    vs: ViewSet | undefined,
    op: AnyOperation,
  ): { values: Readonly<Record<string, unknown>> | undefined; data: unknown } | CoreAnswer {
    if (op.kind === 'write' && op.method === 'DELETE') return { values: undefined, data: undefined };
    if (op.kind === 'write' && vs !== undefined) {
      const valid = validatedBody(ctx, view, serializerRules(this.model, vs.collection, op), op.method === 'PATCH');
      return 'status' in valid ? valid : { values: valid.values, data: valid.values };
    }
    if (op.kind !== 'custom' || (ctx.body === undefined && op.bodyPointer === undefined))
      return { values: undefined, data: undefined };
    const rules = op.bodyPointer === undefined ? [] : serializerFields(this.model.spec, op.bodyPointer, new Set());
    if (rules.length > 0) {
      const valid = validatedBody(ctx, view, rules, op.method === 'PATCH');
      return 'status' in valid ? valid : { values: undefined, data: valid.values };
    }
    const parsed = parseBody(ctx.header('content-type'), ctx.body);
    if (!parsed.ok) return respond(view, parsed.status, detailBody(parsed.detail));
    return {
      values: undefined,
      data: parsed.form
        ? Object.fromEntries([...(parsed.data as QueryMap)].map(([k, v]) => [k, v[v.length - 1]]))
        : parsed.data,
    };
  }

  /** A handler's answer, held to the spec; undefined from it is the operation's own answer. */
  #handled(
    ctx: RequestContext,
    view: View,
    vs: ViewSet | undefined,
    route: PathRoute,
    op: AnyOperation,
    scenario: Scenario,
    handler: Handler,
    body: { values: Readonly<Record<string, unknown>> | undefined; data: unknown },
  ): CoreAnswer | Promise<CoreAnswer> {
    const standard = () => this.#standard(ctx, view, vs, route, op, scenario, body.values);
    const request = handlerRequest({
      method: ctx.method,
      path: ctx.path,
      operationId: op.operationId,
      paramNames: paramNames(route.path),
      params: ctx.params,
      query: ctx.query,
      body: body.data,
      header: ctx.header,
    });
    const context = this.#handlerContext(ctx, standard);
    const finish = (result: HandlerResult): CoreAnswer => {
      if (result === undefined) return standard();
      if (!isHandlerAnswer(result))
        return this.#handlerFailed(op, new TypeError('a handler answers { status, body?, headers? } or undefined'));
      const violations = this.options.checkAnswer?.(op, result.status, result.body) ?? [];
      if (violations.length > 0) {
        this.options.onHandlerProblem?.({ operationId: op.operationId, violations });
        if (this.options.strictHandlers) return handlerViolation(op, violations);
      }
      return renderAnswer(view, op, result);
    };
    try {
      const result = handler(request, context);
      return result instanceof Promise
        ? result.then(finish, (e: unknown) => this.#handlerFailed(op, e))
        : finish(result);
    } catch (e) {
      return this.#handlerFailed(op, e);
    }
  }

  #handlerContext(ctx: RequestContext, standard: () => CoreAnswer): HandlerContext {
    const changed = () => {
      this.generation = {};
    };
    const accessOf = (name: string): CollectionAccess => {
      const collection =
        this.model.collections.get(name) ?? [...this.model.collections.values()].find((c) => c.list.resource === name);
      if (collection === undefined) throw new TypeError(`no collection "${name}" in the spec`);
      const own = this.#viewSet(collection);
      return collectionAccess(own, urlOf({ ...ctx, params: [] }, own, undefined), changed);
    };
    const detail = (status: number, text: string): HandlerAnswer => ({ status, body: { detail: text } });
    return {
      collection: accessOf,
      ok: (body, status = 200) => ({ status, body }),
      created: (item, name) => {
        const access = accessOf(name);
        const represented = access.represent(item);
        const url = represented.url;
        return { status: 201, body: represented, ...(typeof url === 'string' ? { headers: { location: url } } : {}) };
      },
      noContent: () => ({ status: 204 }),
      notFound: (text = DRF_ERRORS.NOT_FOUND.detail) => detail(404, text),
      badRequest: (errors) => ({ status: 400, body: errors }),
      error: detail,
      declared: () => {
        const a = standard();
        const location = a.headers.location;
        return {
          status: a.status,
          ...(a.body === '' ? {} : { body: JSON.parse(a.body) as unknown }),
          ...(location === undefined ? {} : { headers: { location } }),
        };
      },
      now: () => this.options.now?.() ?? new Date(),
    };
  }

  /** A handler that throws: Django's 500 page, and the error told to whoever runs the stub. */
  #handlerFailed(op: AnyOperation, error: unknown): CoreAnswer {
    this.options.onHandlerProblem?.({ operationId: op.operationId, error });
    return djangoPage(DJANGO_ERRORS.SERVER_ERROR);
  }

  /** OPTIONS: SimpleMetadata, with a viewset's serializer fields for a POST or a PUT. */
  #options(
    ctx: RequestContext,
    view: View,
    vs: ViewSet | undefined,
    route: PathRoute,
    renderers: readonly Renderer[],
  ): CoreAnswer {
    if (vs === undefined || (route.kind !== 'list' && route.kind !== 'detail')) {
      const op = route.methods.values().next().value as AnyOperation;
      return respond(view, 200, drfJson(viewMetadata(actionName(route, op), '', renderers)));
    }
    const { collection } = vs;
    const suffix = route.kind === 'list' ? 'List' : 'Instance';
    const actions = determineActions(
      route,
      collection.fields,
      (op) => serializerRules(this.model, collection, op),
      () => !('status' in getObject(ctx, view, vs, vs.live.set)),
    );
    const name = `${camelcaseToSpaces(collection.list.itemName)} ${suffix}`;
    return respond(view, 200, drfJson(viewMetadata(name, collection.list.viewDescription, renderers, actions)));
  }
}

/** DRF's name of an extra action (`pretty_name` of its function) or of a view. */
function actionName(route: PathRoute, op: AnyOperation): string {
  const words = (route.urlPath || op.operationId).replace(/[-_]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function isHandlerAnswer(v: unknown): v is HandlerAnswer {
  return (
    typeof v === 'object' &&
    v !== null &&
    Number.isInteger((v as HandlerAnswer).status) &&
    (v as HandlerAnswer).status >= 100 &&
    (v as HandlerAnswer).status <= 599
  );
}

/** `--strict-handlers`: an answer the spec refuses is the stub's 500, with why. */
function handlerViolation(op: AnyOperation, violations: readonly AnswerViolation[]): CoreAnswer {
  const problem = stubProblem(
    'Handler answer breaks the spec',
    `${op.operationId}'s handler answered what its declaration refuses`,
    {
      violations,
    },
  );
  return { ...problem, status: 500, body: JSON.stringify({ ...JSON.parse(problem.body), status: 500 }) };
}
