import { detailBody, methodNotAllowedDetail, STUB_PROBLEMS, stubProblem } from './errors.js';
import { deploymentCors, notResolved, requestBaseUrl, sessionMiddleware } from './django/middleware.js';
import { requestMethod } from './django/http.js';
import { pathInfo } from './django/urls.js';
import { djangoView } from './django/views.js';
import { options } from './drf/metadata.js';
import { list, retrieve, serializerRules, type ViewSet, visible, write, type WriteInput } from './drf/mixins.js';
import { DEFAULT_RENDERERS } from './drf/negotiation.js';
import { apiRoot, type Match } from './drf/routers.js';
import { serializerFields } from './drf/serializers.js';
import { allowHeader, initial, respond, type View, type ViewConfig } from './drf/views.js';
import { LiveCollection } from './live.js';
import type { CollectionModel, Model } from './model.js';
import { parseQuery } from './python/query.js';
import type { CoreAnswer, CoreOptions, CoreRequest, RequestContext } from './request.js';
import { withMembers } from './members.js';
import { wallTime } from './clock.js';
import {
  type ControlContext,
  controlAnswer,
  crossSiteRefused,
  type OperationSource,
  STUB_PREFIX,
} from './stub/control.js';
import { crossSiteWrite, isPreflight, LOOPBACK_CORS, preflight, withCors } from './stub/cors.js';
import { declaredAnswer, operationSources, renderAnswer, successAnswer } from './stub/declared.js';
import { callHandler, canFetch, type HandlerScope, requestBody } from './stub/handler-call.js';
import type { JournalEntry, JournalFilter } from './stub/journal.js';
import { impossible, NO_SCENARIO, type Scenario, scenarioItems, withoutScenarioParams } from './stub/scenarios.js';
import { Sessions, type SessionState, sessionOf } from './stub/sessions.js';
import type { AnyOperation, CustomOperation, PathRoute, Renderer, ViewMethod } from '../openapi/operations.js';
import { count } from '../openapi/words.js';

export { CACHE_KEY_HEADERS, type CoreAnswer, type CoreOptions, type CoreRequest } from './request.js';
export { djangoPage } from './errors.js';

/**
 * The stub: answers requests from a compiled snapshot, in the numbered steps of
 * docs/response-selection.md, which are Django's and DRF's (middleware, URL resolution, then the
 * view: negotiation, authentication, method, handler). Each step is a module of its own under
 * django/, drf/ and stub/; this file is their order. Pure: no I/O; its only state is what writes change.
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
    this.#changed();
  }

  /** The journal of the shared state, or of a session (the fetch and MSW handlers' `requests()`). */
  requests(filter: JournalFilter = {}, session?: string): JournalEntry[] {
    const found = this.#sessions.get(session, Date.now());
    return found.ok ? found.state.journal.entries(filter) : [];
  }

  /** Every operation of the spec, and where its answers come from (the page, `GET /__stub/operations`). */
  operationSources(): OperationSource[] {
    return operationSources(this.model, this.options.handlers);
  }

  answer(req: CoreRequest): CoreAnswer | Promise<CoreAnswer> {
    const started = performance.now();
    const found = this.#sessions.get(sessionOf(req.header), Date.now());
    if (!found.ok) return stubProblem(STUB_PROBLEMS.SESSION_REFUSED, found.detail, {}, found.status);
    const exchange: Exchange = { state: found.state, session: found.name, method: requestMethod(req.method) };
    const finish = (a: CoreAnswer): CoreAnswer => {
      const session = sessionMiddleware(req, a, this.options.sessions);
      const answer = this.options.cors.mode === 'stub' ? withCors(this.options.cors, session, req.header) : session;
      if (!exchange.own) this.record(req, answer, started, performance.now(), exchange);
      return answer;
    };
    const answered = this.#answer(req, exchange);
    return answered instanceof Promise ? answered.then(finish) : finish(answered);
  }

  /**
   * Keeps a request and its answer in the journal of its session; the server calls it for an
   * answer its cache gave without asking the core. `started` and `ended` are readings of
   * `performance.now()`: when the request came (as `wallTime` tells it) and the time its answer took.
   */
  record(req: CoreRequest, answer: CoreAnswer, started: number, ended: number, exchange?: Exchange): void {
    const now = wallTime(started);
    let state = exchange?.state;
    if (state === undefined) {
      const found = this.#sessions.get(sessionOf(req.header), now);
      if (!found.ok) return;
      state = found.state;
    }
    if (state.journal.capacity === 0) return;
    const scenario = exchange?.scenario;
    state.journal.record({
      time: now,
      method: exchange?.method ?? requestMethod(req.method),
      url: req.url,
      headers: req.headers ?? noHeaders,
      body: req.body,
      operationId: answer.operationId,
      scenario: scenario?.prefer,
      scenarioFrom: scenario?.from,
      status: answer.status,
      durationMs: Math.round((ended - started) * 1000) / 1000,
    });
  }

  /** Steps 1 to 3: the middleware, the stub's own paths, the route. */
  #answer(req: CoreRequest, exchange: Exchange): CoreAnswer | Promise<CoreAnswer> {
    const { method } = exchange;
    // 1. The host (CommonMiddleware); the stub's CORS preflight.
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

  /** The view of a resolved route: the API root, a plain Django view, or a DRF view (steps 4 to 9). */
  #resolved(ctx: RequestContext, match: Match, exchange: Exchange): CoreAnswer | Promise<CoreAnswer> {
    if (match.kind === 'root') {
      const declared = this.model.operations.root;
      const renderers = declared?.renderers ?? this.model.operations.lists[0]?.renderers ?? DEFAULT_RENDERERS;
      const view = initial(ctx, this.#viewConfig('GET, HEAD, OPTIONS', renderers, declared?.anonymous ?? true));
      return 'status' in view ? view : apiRoot(ctx, view, match.root, renderers);
    }
    const { route } = match;
    const first = (route.methods.get('GET') ?? route.methods.values().next().value) as AnyOperation;
    if (first.djangoView) return djangoView(ctx, route);
    const op = route.methods.get((ctx.method === 'HEAD' ? 'GET' : ctx.method) as ViewMethod);
    const answered = this.#view(ctx, route, first, op, exchange);
    if (op === undefined) return answered;
    const named = (a: CoreAnswer): CoreAnswer => withMembers(a, { operationId: op.operationId });
    return answered instanceof Promise ? answered.then(named) : named(answered);
  }

  /** Steps 4 to 9: the stub's scenario and validation, then the DRF view (`op`: the method's operation, if any). */
  #view(
    ctx: RequestContext,
    route: PathRoute,
    first: AnyOperation,
    op: AnyOperation | undefined,
    exchange: Exchange,
  ): CoreAnswer | Promise<CoreAnswer> {
    const collection = this.model.collections.get(route.collectionPath);
    const vs = collection === undefined ? undefined : this.#viewSet(exchange.state, collection);
    const renderers = first.renderers ?? DEFAULT_RENDERERS;
    // 4. The stub's own scenario, 5. request validation: before the view, they are not the service's.
    const target = op ?? first;
    const chosen = exchange.state.scenarios.choose(
      {
        prefer: ctx.header('prefer'),
        query: ctx.query,
        operationId: target.operationId,
        template: route.path,
        path: ctx.path,
        method: ctx.method,
      },
      this.options.maxDelayMs,
    );
    if (!chosen.ok) return impossible(chosen.problems.join('; '));
    const { scenario } = chosen;
    if (chosen.told !== undefined) exchange.scenario = chosen.told;
    const violations = this.options.validateQuery?.(target, ctx.query) ?? [];
    if (violations.length > 0)
      return stubProblem(
        STUB_PROBLEMS.INVALID_REQUEST,
        `${count(violations.length, 'query parameter')} ${violations.length === 1 ? 'breaks' : 'break'} ${target.operationId}'s declaration`,
        { validation: violations },
      );
    // 6. Negotiation, 7. authentication (APIView.initial).
    const view = initial(ctx, this.#viewConfig(allowHeader([...route.methods.keys()]), renderers, target.anonymous));
    if ('status' in view) return view;
    // 8. The method.
    if (ctx.method === 'OPTIONS') return this.#options(ctx, exchange.state, view, vs, route, renderers);
    if (!op) return respond(view, 405, detailBody(methodNotAllowedDetail(ctx.method)));
    // A write a page of another origin sent without a preflight: refused before it changes anything.
    if (crossSiteWrite(this.options.cors, ctx.method, ctx.header)) return crossSiteRefused();
    // 9. The answer: a scenario's, a handler's, else the operation's own.
    const delayed = (a: CoreAnswer): CoreAnswer =>
      scenario.delayMs > 0 ? withMembers(a, { delayMs: scenario.delayMs }) : a;
    if (scenario.code !== undefined && scenario.code !== 200)
      return delayed(declaredAnswer(view, op, scenario, this.model));
    const handler = this.options.handlers?.[op.operationId];
    if (handler === undefined) return delayed(this.#standard(ctx, view, vs, route, op, scenario));
    const body = requestBody(this.model, ctx, view, vs, op);
    if ('status' in body) return delayed(body);
    const standard = () => this.#standard(ctx, view, vs, route, op, scenario, body.input);
    const answered = callHandler(this.#handlerScope(exchange.state), ctx, view, route, op, handler, body, standard);
    return answered instanceof Promise ? answered.then(delayed) : delayed(answered);
  }

  /**
   * Steps 9.3 and 9.4, what the operation answers without a handler: its viewset's action (the
   * items a scenario chose), or its declared success.
   */
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
      if (written.status < 300) this.#changed();
      return written;
    }
    const set = scenarioItems(vs.collection, visible(vs, view, vs.live.set), op, scenario);
    if ('status' in set) return set;
    const answer =
      op.kind === 'detail' ? retrieve(ctx, view, vs, set) : list(ctx, view, vs, set, withoutScenarioParams);
    if (scenario !== NO_SCENARIO || answer.status >= 500) return answer;
    // An answer to declared parameters only may be kept: nothing else of the request shaped it.
    const params = route.kind === 'list' ? op.queryParams : withMembers(vs.collection.list.queryParams, op.queryParams);
    for (const key of ctx.query.keys()) if (!Object.hasOwn(params, key)) return answer;
    return withMembers(answer, { cacheable: true });
  }

  /** OPTIONS (SimpleMetadata), with a viewset's serializer fields for a POST or a PUT. */
  #options(
    ctx: RequestContext,
    state: State,
    view: View,
    vs: ViewSet | undefined,
    route: PathRoute,
    renderers: readonly Renderer[],
  ): CoreAnswer {
    if (vs === undefined) return options(view, route, renderers, undefined);
    const { collection } = vs;
    return options(view, route, renderers, {
      name: collection.list.viewName ?? collection.list.itemName,
      description: collection.list.viewDescription,
      itemFields: collection.fields,
      rulesOf: (op) => serializerRules(this.model, collection, op),
      itemRules: serializerFields(this.model.spec, collection.list.itemPointer, new Set()),
      canFetch: () => canFetch(this.#handlerScope(state), ctx, view, vs, route),
    });
  }

  #viewSet(state: State, collection: CollectionModel): ViewSet {
    let live = state.live.get(collection.list.path);
    if (!live) {
      live = new LiveCollection(collection);
      state.live.set(collection.list.path, live);
    }
    return { model: this.model, collection, live, pageSize: this.options.pageSize };
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

  #handlerScope(state: State): HandlerScope {
    return {
      model: this.model,
      options: this.options,
      viewSet: (collection) => this.#viewSet(state, collection),
      changed: () => this.#changed(),
    };
  }

  #controlContext(exchange: Exchange): ControlContext {
    const ops = this.model.operations;
    return {
      state: exchange.state,
      session: exchange.session,
      reset: () => this.reset(exchange.session),
      operations: () => this.operationSources(),
      maxDelayMs: this.options.maxDelayMs,
      knows: (id) => [...ops.all, ...ops.writes, ...ops.customs].some((op) => op.operationId === id),
      changed: () => this.#changed(),
    };
  }

  #changed(): void {
    this.generation = {};
  }
}

type State = SessionState<LiveCollection>;

const noHeaders = (): readonly string[] => [];

/** One request on its way: its session's state, and what the journal is told of it. */
interface Exchange {
  readonly state: State;
  readonly session: string | undefined;
  readonly method: string;
  /** A request to the stub's own paths: not journaled. */
  own?: boolean;
  scenario?: { readonly prefer: string; readonly from: 'request' | 'scenarios' };
}
