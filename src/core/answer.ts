import { deploymentCors, notResolved, requestBaseUrl, sessionMiddleware } from './django/middleware.js';
import { pathInfo } from './django/urls.js';
import { camelcaseToSpaces, determineActions, viewMetadata } from './drf/metadata.js';
import {
  getObject,
  list,
  retrieve,
  serializerRules,
  urlOf,
  validatedBody,
  type ViewSet,
  visible,
  write,
  type WriteInput,
  writeInput,
} from './drf/mixins.js';
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
import {
  type ControlContext,
  controlAnswer,
  crossSiteRefused,
  type OperationSource,
  STUB_PREFIX,
} from './stub/control.js';
import { cookieValue } from './django/sessions.js';
import { type JournalEntry, type JournalFilter, journalBody } from './stub/journal.js';
import { SESSION_COOKIE, SESSION_HEADER, Sessions, type SessionState } from './stub/sessions.js';
import { crossSiteWrite, isPreflight, LOOPBACK_CORS, preflight, withCors } from './stub/cors.js';
import { declaredAnswer, operationSources, renderAnswer, successAnswer } from './stub/declared.js';
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
import { DJANGO_HEADERS, HTML_TYPE } from './django/http.js';
import { count } from '../openapi/words.js';
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
  readonly #sessions: Sessions<LiveCollection>;
  /**
   * Replaced by every write, scenario change and reset: an answer cache keys its entries on it, so
   * that nothing kept from before is served after it.
   */
  generation: object = {};

  constructor(model: Model, options: CoreOptions) {
    this.model = model;
    this.options = options;
    this.#sessions = new Sessions({
      max: options.maxSessions ?? 64,
      idleMs: options.sessionIdleMs ?? 30 * 60_000,
      journalSize: options.journal ?? 1000,
    });
  }

  /** Puts every collection back to the snapshot's items and clears the scenarios (`POST /__stub/reset`). */
  reset(session?: string): void {
    if (session !== undefined) this.#sessions.drop(session);
    else {
      this.#sessions.shared.live.clear();
      this.#sessions.shared.scenarios.clear();
    }
    this.generation = {};
  }

  /** The journal of the shared state, or of a session (the fetch and MSW handlers' `requests()`). */
  requests(filter: JournalFilter = {}, session?: string): JournalEntry[] {
    const found = this.#sessions.get(session, Date.now());
    return found.ok ? found.state.journal.entries(filter) : [];
  }

  #viewSet(state: State, collection: CollectionModel): ViewSet {
    let live = state.live.get(collection.list.path);
    if (!live) {
      live = new LiveCollection(collection);
      state.live.set(collection.list.path, live);
    }
    return { model: this.model, collection, live, pageSize: this.options.pageSize };
  }

  answer(req: CoreRequest): CoreAnswer | Promise<CoreAnswer> {
    const started = now();
    const name = req.header(SESSION_HEADER) ?? cookieValue(req.header('cookie'), SESSION_COOKIE);
    const found = this.#sessions.get(name, Date.now());
    if (!found.ok) return stubProblem('Session refused', found.detail, {}, found.status);
    const exchange: Exchange = { state: found.state, session: found.name };
    const finish = (a: CoreAnswer): CoreAnswer => {
      const session = sessionMiddleware(req, a, this.options.sessions);
      const answer = this.options.cors.mode === 'stub' ? withCors(this.options.cors, session, req.header) : session;
      if (!exchange.own) this.record(req, answer, now() - started, exchange);
      return answer;
    };
    const answered = this.#answer(req, exchange);
    return answered instanceof Promise ? answered.then(finish) : finish(answered);
  }

  /**
   * Keeps a request and its answer in the journal of its session; the server calls it for an
   * answer its cache gave without asking the core.
   */
  record(req: CoreRequest, answer: CoreAnswer, durationMs: number, exchange?: Exchange): void {
    let state = exchange?.state;
    if (state === undefined) {
      const found = this.#sessions.get(
        req.header(SESSION_HEADER) ?? cookieValue(req.header('cookie'), SESSION_COOKIE),
        Date.now(),
      );
      if (!found.ok) return;
      state = found.state;
    }
    if (state.journal.capacity === 0) return;
    const scenario = exchange?.scenario;
    state.journal.record({
      time: Date.now(),
      method: req.method.toUpperCase(),
      url: req.url,
      headers: req.headers ?? (() => []),
      ...journalBody(req.body),
      ...(answer.operationId !== undefined ? { operationId: answer.operationId } : {}),
      ...(scenario !== undefined ? { scenario: scenario.prefer, scenarioFrom: scenario.from } : {}),
      status: answer.status,
      durationMs: Math.round(durationMs * 1000) / 1000,
    });
  }

  #answer(req: CoreRequest, exchange: Exchange): CoreAnswer | Promise<CoreAnswer> {
    const method = req.method.toUpperCase();
    // 1. The host (CommonMiddleware).
    const host = requestBaseUrl(req, this.options);
    if ('status' in host) return host;
    const cors = this.options.cors;
    if (cors.mode === 'stub' && isPreflight(method, req.header)) return preflight(cors, req.header);
    const q = req.url.indexOf('?');
    const rawQuery = q === -1 ? '' : req.url.slice(q + 1);
    const path = pathInfo(q === -1 ? req.url : req.url.slice(0, q));
    // 2. The stub's own paths (refused to a page of another origin that sends no preflight).
    if (path.startsWith(STUB_PREFIX)) {
      exchange.own = true;
      if (
        crossSiteWrite(cors, method, req.header) ||
        (cors.mode !== 'stub' && crossSiteWrite(LOOPBACK_CORS, method, req.header))
      )
        return crossSiteRefused();
      const own = controlAnswer(method, path, parseQuery(rawQuery), req.body, this.#controlContext(exchange));
      if (own !== undefined) return own;
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
    const resolved = this.#resolved(ctx, match, exchange);
    return resolved instanceof Promise ? resolved.then(inner) : inner(resolved);
  }

  #controlContext(exchange: Exchange): ControlContext {
    return {
      state: exchange.state,
      session: exchange.session,
      reset: () => this.reset(exchange.session),
      operations: () => this.operationSources(),
      maxDelayMs: this.options.maxDelayMs,
      knows: (id) => this.#operationIds.has(id),
      changed: () => {
        this.generation = {};
      },
    };
  }

  get #operationIds(): Set<string> {
    const ops = this.model.operations;
    return new Set([...ops.all, ...ops.writes, ...ops.customs].map((op) => op.operationId));
  }

  /** Every operation of the spec, and where its answers come from (the page, `GET /__stub/operations`). */
  operationSources(): OperationSource[] {
    return operationSources(this.model, this.options.handlers);
  }

  /** The view of a resolved route. */
  #resolved(ctx: RequestContext, match: Match, exchange: Exchange): CoreAnswer | Promise<CoreAnswer> {
    if (match.kind === 'root') {
      const declared = this.model.operations.root;
      const renderers = declared?.renderers ?? this.model.operations.lists[0]?.renderers ?? DEFAULT_RENDERERS;
      const view = initial(ctx, this.#viewConfig('GET, HEAD, OPTIONS', renderers, declared?.anonymous ?? true));
      return 'status' in view ? view : apiRoot(ctx, view, match.root, renderers);
    }
    const answered = this.#route(ctx, match.route, exchange);
    const op = match.route.methods.get((ctx.method === 'HEAD' ? 'GET' : ctx.method) as ViewMethod);
    if (op === undefined) return answered;
    const named = (a: CoreAnswer): CoreAnswer => ({ ...a, operationId: op.operationId });
    return answered instanceof Promise ? answered.then(named) : named(answered);
  }

  /** Steps 4 to 9: the stub's scenario and validation, then the view. */
  #route(ctx: RequestContext, route: PathRoute, exchange: Exchange): CoreAnswer | Promise<CoreAnswer> {
    const collection = this.model.collections.get(route.collectionPath);
    const vs = collection === undefined ? undefined : this.#viewSet(exchange.state, collection);
    const first = (route.methods.get('GET') ?? route.methods.values().next().value) as AnyOperation;
    if (first.djangoView) return djangoView(ctx, route);
    const renderers = first.renderers ?? DEFAULT_RENDERERS;
    // 4. The stub's own scenario, 5. request validation: before the view, they are not the service's.
    const parsed = parseScenario(ctx.header('prefer'), ctx.query, this.options.maxDelayMs);
    if (!parsed.ok) return impossible(parsed.problems.join('; '));
    const target = route.methods.get(ctx.method === 'HEAD' ? 'GET' : (ctx.method as ViewMethod)) ?? first;
    // A request's own Prefer wins over a scenario set from outside.
    let scenario = parsed.scenario;
    if (scenario !== NO_SCENARIO)
      exchange.scenario = { prefer: ctx.header('prefer') ?? preferOfQuery(ctx.query), from: 'request' };
    else if (exchange.state.scenarios.size > 0) {
      const rule = exchange.state.scenarios.take(target.operationId, route.path, ctx.path, ctx.method);
      if (rule !== undefined) {
        scenario = rule.scenario;
        exchange.scenario = { prefer: rule.prefer, from: 'scenarios' };
      }
    }
    if (this.options.validateQuery) {
      const violations = this.options.validateQuery(target, ctx.query);
      if (violations.length > 0)
        return stubProblem(
          'Invalid request',
          `${count(violations.length, 'query parameter')} ${violations.length === 1 ? 'breaks' : 'break'} ${target.operationId}'s declaration`,
          { validation: violations },
        );
    }
    // 6. Negotiation, 7. authentication (APIView.initial).
    const view = initial(ctx, this.#viewConfig(allowHeader([...route.methods.keys()]), renderers, target.anonymous));
    if ('status' in view) return view;
    // 8. The method.
    if (ctx.method === 'OPTIONS') return this.#options(ctx, exchange.state, view, vs, route, renderers);
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
    const answered = this.#handled(ctx, exchange.state, view, vs, route, op, scenario, handler, body);
    return answered instanceof Promise ? answered.then(delayed) : delayed(answered);
  }

  #viewConfig(allow: string, renderers: readonly Renderer[], anonymous: boolean): ViewConfig {
    return {
      allow,
      renderers,
      authenticators: this.model.authenticators,
      tokens: this.options.tokens,
      sessions: this.options.sessions,
      anonymous,
    };
  }

  /** What the operation answers without a handler: its viewset's action, or its declared success. */
  #standard(
    ctx: RequestContext,
    view: View,
    vs: ViewSet | undefined,
    route: PathRoute,
    op: AnyOperation,
    scenario: Scenario,
    input?: WriteInput,
  ): CoreAnswer {
    if (op.kind === 'custom' || vs === undefined)
      return renderAnswer(view, op, successAnswer(op as CustomOperation, this.model));
    if (op.kind === 'write') {
      const written = write(ctx, view, vs, op, input);
      if (written.status < 300) this.generation = {};
      return written;
    }
    const set = scenarioItems(vs.collection, visible(vs, view, vs.live.set), op, scenario);
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
  #requestBody(ctx: RequestContext, view: View, vs: ViewSet | undefined, op: AnyOperation): RequestBody | CoreAnswer {
    if (op.kind === 'write' && vs !== undefined) {
      const input = writeInput(ctx, view, vs, op);
      return 'status' in input ? input : { values: input.values, data: input.values, input };
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
    state: State,
    view: View,
    vs: ViewSet | undefined,
    route: PathRoute,
    op: AnyOperation,
    scenario: Scenario,
    handler: Handler,
    body: RequestBody,
  ): CoreAnswer | Promise<CoreAnswer> {
    const standard = () => this.#standard(ctx, view, vs, route, op, scenario, body.input);
    const request = handlerRequest({
      method: ctx.method,
      path: ctx.path,
      operationId: op.operationId,
      paramNames: paramNames(route.path),
      params: ctx.params,
      query: ctx.query,
      body: body.data,
      header: ctx.header,
      user: view.user,
    });
    const context = this.#handlerContext(ctx, state, standard);
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

  #handlerContext(ctx: RequestContext, state: State, standard: () => CoreAnswer): HandlerContext {
    const changed = () => {
      this.generation = {};
    };
    const accessOf = (name: string): CollectionAccess => {
      const collection =
        this.model.collections.get(name) ?? [...this.model.collections.values()].find((c) => c.list.resource === name);
      if (collection === undefined) throw new TypeError(`no collection "${name}" in the spec`);
      const own = this.#viewSet(state, collection);
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

  /**
   * SimpleMetadata's `view.get_object()` before it shows PUT: the item found, and its object
   * permission granted (where a handler answers the item's GET with a refusal, it is not).
   */
  #canFetch(ctx: RequestContext, state: State, view: View, vs: ViewSet, route: PathRoute): boolean {
    if ('status' in getObject(ctx, view, vs, visible(vs, view, vs.live.set))) return false;
    const get = route.methods.get('GET');
    const handler = get === undefined ? undefined : this.options.handlers?.[get.operationId];
    if (get === undefined || handler === undefined) return true;
    const request = handlerRequest({
      method: 'GET',
      path: ctx.path,
      operationId: get.operationId,
      paramNames: paramNames(route.path),
      params: ctx.params,
      query: ctx.query,
      body: undefined,
      header: ctx.header,
      user: view.user,
    });
    try {
      const answer = handler(
        request,
        this.#handlerContext(ctx, state, () => respond(view, 200, '')),
      );
      return answer instanceof Promise || answer === undefined || !isHandlerAnswer(answer) || answer.status < 400;
    } catch {
      return true;
    }
  }

  /** OPTIONS: SimpleMetadata, with a viewset's serializer fields for a POST or a PUT. */
  #options(
    ctx: RequestContext,
    state: State,
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
      serializerFields(this.model.spec, collection.list.itemPointer, new Set()),
      () => this.#canFetch(ctx, state, view, vs, route),
    );
    const name = `${camelcaseToSpaces(collection.list.viewName ?? collection.list.itemName)} ${suffix}`;
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

type State = SessionState<LiveCollection>;

/** One request on its way: its session's state, and what the journal is told of it. */
interface Exchange {
  readonly state: State;
  readonly session: string | undefined;
  /** A request to the stub's own paths: not journaled. */
  own?: boolean;
  scenario?: { readonly prefer: string; readonly from: 'request' | 'scenarios' };
}

const now = (): number => performance.now();

/** The `__` parameters of a request, as the Prefer they stand for (for the journal). */
function preferOfQuery(query: QueryMap): string {
  return [...query.entries()]
    .filter(([k]) => k.startsWith('__'))
    .map(([k, v]) => `${k.slice(2)}=${v[v.length - 1] ?? ''}`)
    .join(', ');
}

/** A request's body as a handler gets it: validated values, or parsed data; a write's input kept for its standard answer. */
interface RequestBody {
  readonly values: Readonly<Record<string, unknown>> | undefined;
  readonly data: unknown;
  readonly input?: WriteInput;
}

/**
 * A plain Django view (`x-django-view`: a RedirectView): its declared answer as Django sends an
 * HttpResponse (text/html, its declared headers), without DRF's negotiation, authentication,
 * Allow or Vary; a method it does not declare is HttpResponseNotAllowed.
 */
function djangoView(ctx: RequestContext, route: PathRoute): CoreAnswer {
  const op = route.methods.get((ctx.method === 'HEAD' ? 'GET' : ctx.method) as ViewMethod);
  if (op === undefined) {
    const allow = [...route.methods.keys(), ...(route.methods.has('GET') ? ['HEAD'] : [])].join(', ');
    return { status: 405, headers: { ...DJANGO_HEADERS, 'content-type': HTML_TYPE, allow }, body: '' };
  }
  const success = op.kind === 'custom' ? op.success : undefined;
  const body = Object.values(success?.examples ?? {})[0];
  return {
    status: success === undefined ? 200 : Number(success.status),
    headers: { ...DJANGO_HEADERS, 'content-type': HTML_TYPE, ...(success?.headers ?? {}) },
    body: typeof body === 'string' ? body : '',
  };
}
