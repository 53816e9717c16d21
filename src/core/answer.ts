import { escapeUriPath, pathInfo } from './django/urls.js';
import {
  DJANGO_ERRORS,
  detailBody,
  type DjangoPage,
  DRF_ERRORS,
  type DrfError,
  methodNotAllowedDetail,
  noMatchDetail,
} from './errors.js';
import { type HeaderGetter, resolveBaseUrl } from './django/host.js';
import { camelcaseToSpaces, viewMetadata } from './metadata.js';
import type { CollectionModel, Model } from './model.js';
import { negotiate } from './negotiation.js';
import { choosePage, pageLinks } from './pagination.js';
import {
  lastValue,
  linkQueryString,
  MAX_QUERY_FIELDS,
  parseQuery,
  pythonInt,
  type QueryMap,
  queryFieldCount,
  quotePlus,
} from './python/query.js';
import { sessionHeaders, withVaryCookie } from './session.js';
import { itemUrlParts, renderEnvelope, withIndent } from './render.js';
import type { ApiRoot, Match } from './router.js';
import { NO_SCENARIO, parseScenario, SCENARIO_QUERY_PARAMS, type Scenario } from './scenarios.js';
import type { AnyOperation, Operation, PathRoute, ViewMethod, WriteOperation } from '../openapi/operations.js';
import { drfJson, EMPTY_SET, type ItemSet, itemObject, type PreparedItem, renderItem } from './store.js';
import { authenticate } from './auth.js';
import { parseBody } from './body.js';
import { filterPredicate, orderingTerms, pageSizeOf } from './filters.js';
import { gatewayPage } from './gateway.js';
import { LiveCollection } from './live.js';
import { filterAndOrder } from './queryset.js';
import { type FieldRule, serializerFields, validateInput } from './serializer.js';
import { fieldSchema } from '../openapi/item-schema.js';
import { DJANGO_HEADERS } from './django/http.js';

/** One request, as any adapter sees it. */
export interface CoreRequest {
  /** The method as sent (Django upper-cases it). */
  readonly method: string;
  /** The request target: path and query, as received (bytes as latin1 chars, or percent-encoded). */
  readonly url: string;
  /** A header by lower-case name: undefined when absent, '' when present and empty. */
  readonly header: HeaderGetter;
  /** The body, for writes. */
  readonly body?: Uint8Array | undefined;
  /** The scheme the request came by (WSGI's url_scheme): https urls for an https request. */
  readonly scheme?: 'http' | 'https';
}

/** One answer: status, headers (lower-case names, no Content-Length), body. */
export interface CoreAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /** The body a GET would carry; adapters send none for HEAD (Django's WSGI server does the same). */
  readonly body: string;
  /** `Prefer: delay=MS`: wait this long before sending. */
  readonly delayMs?: number;
  /**
   * The answer is a pure function of the state, the method, the url and the headers of
   * CACHE_KEY_HEADERS, and may be kept by an answer cache.
   */
  readonly cacheable?: boolean;
}

/** The headers an answer depends on; an answer cache keys on these (presence and value). */
export const CACHE_KEY_HEADERS = Object.freeze([
  'host',
  'x-forwarded-host',
  'x-forwarded-proto',
  'accept',
  'authorization',
  'cookie',
  'origin',
  'prefer',
  'access-control-request-method',
  'access-control-request-headers',
]);

export interface CoreOptions {
  /** PageNumberPagination's PAGE_SIZE. */
  readonly pageSize: number;
  /** A fixed base URL for every absolute url, instead of the request's scheme and Host. */
  readonly baseUrl?: string | undefined;
  /** Read X-Forwarded-Host / X-Forwarded-Proto (USE_X_FORWARDED_HOST + SECURE_PROXY_SSL_HEADER). */
  readonly trustProxy: boolean;
  /** Django's ALLOWED_HOSTS. */
  readonly allowedHosts: readonly string[];
  /** Used when a request has no Host at all, as Django's SERVER_NAME:SERVER_PORT. */
  readonly fallbackHost: string;
  /** Upper bound of `Prefer: delay=MS`. */
  readonly maxDelayMs: number;
  /** CORS for a browser app on another origin: the Origin echoed, credentials allowed. */
  readonly cors: boolean;
  /** `--validate-requests`: violations of the declared query parameters, checked before the view. */
  readonly validateQuery?:
    ((op: AnyOperation, query: QueryMap) => readonly { location: string; message: string }[]) | undefined;
}

export const SCENARIO_HELP = Object.freeze({
  prefer: 'Prefer: code=<status>, example=<name>, dynamic=true, empty=true, delay=<ms>',
  query: '__code, __example, __dynamic, __empty, __delay',
});

/** The stub's own path that puts written state back to the snapshot's (outside the service's paths). */
export const RESET_PATH = '/__stub/reset';

const JSON_TYPE = 'application/json';
// Django 4.0+ lets HttpResponse default the type of its error pages: text/html; charset=utf-8.
export const HTML_TYPE = 'text/html; charset=utf-8';

type Headers = Record<string, string>;

interface View {
  readonly allow: string;
  /** SessionAuthentication ran (it reads the session): SessionMiddleware adds `Vary: Cookie`. */
  authenticated: boolean;
  indent: number | undefined;
}

/** A fault of the request to the stub itself (a scenario that cannot be), RFC 9457. */
export function stubProblem(title: string, detail: string, extra: Record<string, unknown> = {}): CoreAnswer {
  return {
    status: 400,
    headers: { ...DJANGO_HEADERS, 'content-type': 'application/problem+json' },
    body: JSON.stringify({ type: 'about:blank', title, status: 400, detail, ...extra }),
  };
}

/** One of Django's own pages, as the service sends it. */
export function djangoPage(e: DjangoPage | { status: number; page: string }): CoreAnswer {
  return { status: e.status, headers: { ...DJANGO_HEADERS, 'content-type': HTML_TYPE }, body: e.page };
}
const page = djangoPage;

/**
 * The stub: answers requests from a compiled snapshot, in Django's and DRF's order (middleware,
 * URL resolution, then the view: negotiation, authentication, method, handler). Pure: no I/O; the
 * only state is what declared writes change (none yet).
 */
export class StubCore {
  readonly model: Model;
  readonly options: CoreOptions;
  #live = new Map<string, LiveCollection>();
  readonly #rules = new Map<string, FieldRule[]>();
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

  #liveOf(collection: CollectionModel): LiveCollection {
    let live = this.#live.get(collection.list.path);
    if (!live) {
      live = new LiveCollection(collection);
      this.#live.set(collection.list.path, live);
    }
    return live;
  }

  answer(req: CoreRequest): CoreAnswer {
    let answer = this.#answer(req);
    // SessionMiddleware.process_response, on every answer Django sends.
    const session = sessionHeaders(req.header, answer.headers.vary?.includes('Cookie') ?? false);
    if (session.setCookie !== undefined)
      answer = {
        ...answer,
        headers: { ...answer.headers, vary: withVaryCookie(answer.headers.vary), 'set-cookie': session.setCookie },
      };
    return this.options.cors ? withCors(answer, req.header) : answer;
  }

  #answer(req: CoreRequest): CoreAnswer {
    const method = req.method.toUpperCase();
    // CommonMiddleware: get_host() before anything else; a bad Host is Django's 400 page.
    const host = resolveBaseUrl(req.header, this.options, req.scheme);
    if (!host.ok) return page(DJANGO_ERRORS.BAD_REQUEST);
    if (
      this.options.cors &&
      method === 'OPTIONS' &&
      req.header('origin') !== undefined &&
      req.header('access-control-request-method') !== undefined
    ) {
      return preflight(req.header);
    }
    const q = req.url.indexOf('?');
    const rawPath = q === -1 ? req.url : req.url.slice(0, q);
    const rawQuery = q === -1 ? '' : req.url.slice(q + 1);
    const path = pathInfo(rawPath);
    if (path === RESET_PATH) return this.#resetAnswer(method);
    const match = this.model.router.match(path);
    if (!match) {
      // CommonMiddleware (APPEND_SLASH): a 404 whose path with a slash would resolve is a 301 there.
      if (!path.endsWith('/') && this.model.router.match(`${path}/`)) {
        return {
          status: 301,
          headers: {
            ...DJANGO_HEADERS,
            'content-type': 'text/html; charset=utf-8',
            location: `${escapeUriPath(path)}/${rawQuery === '' ? '' : `?${iriToUri(rawQuery)}`}`,
          },
          body: '',
        };
      }
      return page(DJANGO_ERRORS.PAGE_NOT_FOUND);
    }
    const query = parseQuery(rawQuery);
    const ctx: RequestContext = {
      method,
      baseUrl: host.baseUrl,
      path,
      query,
      rawQuery,
      match,
      header: req.header,
      body: req.body,
    };
    return match.kind === 'root' ? this.#root(ctx, match.root) : this.#route(ctx, match.route);
  }

  /** `POST /__stub/reset`: the stub's own path, outside the service's; any other method is refused. */
  #resetAnswer(method: string): CoreAnswer {
    if (method !== 'POST') {
      return {
        ...stubProblem(
          'Method not allowed',
          `${RESET_PATH} takes POST: it puts every collection back to the snapshot's items`,
        ),
        status: 405,
        headers: { ...DJANGO_HEADERS, 'content-type': 'application/problem+json', allow: 'POST' },
      };
    }
    this.reset();
    return { status: 204, headers: { ...DJANGO_HEADERS }, body: '' };
  }

  /** DefaultRouter's APIRootView: `{"desk": "<base>/api/v1/desk", ...}`, GET only. */
  #root(ctx: RequestContext, root: ApiRoot): CoreAnswer {
    const formats = this.model.operations.lists[0]?.formats ?? ['api', 'json'];
    const view = this.#initial(ctx, 'GET, HEAD, OPTIONS', formats);
    if ('status' in view) return view;
    if (ctx.method === 'OPTIONS')
      return respond(
        view,
        200,
        drfJson(viewMetadata('Api Root', 'The default basic root view for DefaultRouter', formats)),
      );
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD')
      return respond(view, 405, detailBody(methodNotAllowedDetail(ctx.method)));
    const format = lastValue(ctx.query, 'format');
    const query = format === undefined ? '' : `?format=${quotePlus(format)}`;
    const suffix = ctx.match.suffix === undefined ? '' : `.${ctx.match.suffix}`;
    const body: Record<string, string> = {};
    for (const e of root.entries) body[e.key] = `${ctx.baseUrl}${e.path}${suffix}${query}`;
    return { ...respond(view, 200, drfJson(body)), cacheable: true };
  }

  #route(ctx: RequestContext, route: PathRoute): CoreAnswer {
    const collection = this.model.collections.get(route.collectionPath) as CollectionModel;
    const op = (route.methods.get('GET') ?? route.methods.values().next().value) as AnyOperation;
    const formats = op.formats ?? ['api', 'json'];
    const allow = allowHeader([...route.methods.keys()]);
    // The stub's own scenarios and request validation come first: they are not the service's.
    const parsed = parseScenario(ctx.header('prefer'), ctx.query, this.options.maxDelayMs);
    if (!parsed.ok) return stubProblem('Impossible scenario', parsed.problems.join('; '), { available: SCENARIO_HELP });
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
    const view = this.#initial(ctx, allow, formats);
    if ('status' in view) return view;
    if (ctx.method === 'OPTIONS') {
      const suffix = route.kind === 'list' ? 'List' : 'Instance';
      return respond(
        view,
        200,
        drfJson(
          viewMetadata(
            `${camelcaseToSpaces(collection.list.itemName)} ${suffix}`,
            collection.list.viewDescription,
            formats,
            this.#actions(ctx, collection, route),
          ),
        ),
      );
    }
    const method = ctx.method === 'HEAD' && route.methods.has('GET') ? 'GET' : ctx.method;
    const handler = route.methods.get(method as ViewMethod);
    if (!handler) return respond(view, 405, detailBody(methodNotAllowedDetail(ctx.method)));
    if (scenario.code !== undefined && scenario.code !== 200)
      return {
        ...this.#declared(view, handler, scenario),
        ...(scenario.delayMs > 0 ? { delayMs: scenario.delayMs } : {}),
      };
    if (handler.kind === 'write') {
      const written = this.#write(ctx, view, collection, handler);
      return scenario.delayMs > 0 ? { ...written, delayMs: scenario.delayMs } : written;
    }
    const answer = this.#read(ctx, view, collection, handler, scenario);
    if (scenario.delayMs > 0) return { ...answer, delayMs: scenario.delayMs };
    if (scenario !== NO_SCENARIO || answer.status >= 500) return answer;
    const params =
      route.kind === 'list' ? handler.queryParams : { ...collection.list.queryParams, ...handler.queryParams };
    for (const key of ctx.query.keys()) if (!Object.hasOwn(params, key)) return answer;
    return { ...answer, cacheable: true };
  }

  /**
   * APIView.initial: content negotiation (the format, then Accept), then authentication. Answers
   * the view's state, or the error it raised (with the view's headers).
   */
  #initial(ctx: RequestContext, allow: string, formats: readonly string[]): View | CoreAnswer {
    const view: View = { allow, authenticated: false, indent: undefined };
    // DRF reads request.GET first (the format): a query of too many fields is Django's 400.
    if (queryFieldCount(ctx.rawQuery) > MAX_QUERY_FIELDS) return page(DJANGO_ERRORS.BAD_REQUEST);
    const neg = negotiate(formats, ctx.match.suffix ?? lastValue(ctx.query, 'format'), ctx.header('accept'));
    if (!neg.ok)
      return respond(
        view,
        neg.status,
        detailBody(neg.status === 404 ? DRF_ERRORS.NOT_FOUND.detail : DRF_ERRORS.NOT_ACCEPTABLE.detail),
      );
    view.indent = neg.indent;
    view.authenticated = true;
    const auth = authenticate(ctx.header('authorization'));
    if (auth !== undefined) return respondError(view, auth);
    return view;
  }

  #read(ctx: RequestContext, view: View, collection: CollectionModel, op: Operation, scenario: Scenario): CoreAnswer {
    const set = itemSet(collection, this.#liveOf(collection).set, op, scenario);
    if ('status' in set) return set;
    const format = lastValue(ctx.query, 'format');
    const url = collection.withUrl ? itemUrlParts(ctx.baseUrl, collection.detail, format, ctx.match.suffix) : undefined;
    // DjangoFilterBackend and SearchFilter filter the queryset of a list and of get_object alike.
    const filtered = filterPredicate(collection.filters, ctx.query);
    if (!filtered.ok) return respond(view, 400, drfJson(filtered.errors));
    const active = collection.filters.fields.length > 0 || collection.filters.search !== undefined;
    if (op.kind === 'detail') {
      const found = this.#lookup(ctx, view, collection, set);
      if ('status' in found) return found;
      if (active && !filtered.keep(itemObject(found)))
        return respond(view, 404, detailBody(noMatchDetail(collection.list.itemName)));
      return respond(view, 200, renderItem(found, url));
    }
    const ordering = orderingTerms(collection.filters, ctx.query);
    const items = active || ordering.length > 0 ? filterAndOrder(set.items, filtered, ordering) : set.items;
    const count = items.length;
    const pageSize = pageSizeOf(collection.filters, ctx.query, this.options.pageSize);
    const choice = choosePage(lastValue(ctx.query, 'page'), count, pageSize);
    if (!choice.ok) return respondError(view, DRF_ERRORS.INVALID_PAGE);
    const start = (choice.page - 1) * pageSize;
    const links = pageLinks(
      `${ctx.baseUrl}${escapeUriPath(ctx.path)}`,
      linkQuery(ctx.rawQuery === '' ? ctx.query : parseQuery(linkQueryString(ctx.rawQuery))),
      choice.page,
      choice.numPages,
    );
    return respond(
      view,
      200,
      renderEnvelope(count, links.next, links.previous, items.slice(start, start + pageSize), url),
    );
  }

  /** get_object: the url segment read as the lookup field's type, then the item, or DRF's 404s. */
  #lookup(ctx: RequestContext, view: View, collection: CollectionModel, set: ItemSet): PreparedItem | CoreAnswer {
    const raw = ctx.match.kind === 'route' ? (ctx.match.params[0] ?? '') : '';
    let key = raw;
    if (collection.detail?.pkIsInteger ?? isIntegerLookup(this.model, collection)) {
      // Django's IntegerField.to_python: int() of the url segment, else DRF's 404 "Not found.".
      const n = pythonInt(raw);
      if (n === undefined) return respondError(view, DRF_ERRORS.NOT_FOUND);
      key = n.toString();
    }
    const item = collection.lookup === undefined ? undefined : set.byPk.get(key);
    return item ?? respond(view, 404, detailBody(noMatchDetail(collection.list.itemName)));
  }

  /** The serializer's fields for a write: its request body's schema, else the item's. */
  #rulesOf(collection: CollectionModel, op: WriteOperation): FieldRule[] {
    let rules = this.#rules.get(op.pointer);
    if (!rules) {
      const readOnly = new Set(['url', 'pk', ...(collection.lookup === 'id' ? ['id'] : [])]);
      rules = serializerFields(this.model.spec, op.bodyPointer ?? collection.list.itemPointer, readOnly);
      this.#rules.set(op.pointer, rules);
    }
    return rules;
  }

  /** CreateModelMixin, UpdateModelMixin, DestroyModelMixin on the live copy of the collection. */
  #write(ctx: RequestContext, view: View, collection: CollectionModel, op: WriteOperation): CoreAnswer {
    const live = this.#liveOf(collection);
    const format = lastValue(ctx.query, 'format');
    const url = collection.withUrl
      ? itemUrlParts(
          ctx.baseUrl,
          collection.detail ?? { path: collection.itemRoute?.path ?? '', pkParam: pkParamOf(collection) },
          format,
          undefined,
        )
      : undefined;
    let existing: PreparedItem | undefined;
    if (op.target === 'detail') {
      const filtered = filterPredicate(collection.filters, ctx.query);
      if (!filtered.ok) return respond(view, 400, drfJson(filtered.errors));
      const found = this.#lookup(ctx, view, collection, live.set);
      if ('status' in found) return found;
      existing = found;
      if (op.method === 'DELETE') {
        live.remove(existing);
        this.generation = {};
        const headers: Headers = { ...DJANGO_HEADERS, vary: 'Accept, Cookie', allow: view.allow };
        return { status: 204, headers, body: '' };
      }
    }
    const parsed = parseBody(ctx.header('content-type'), ctx.body);
    if (!parsed.ok) return respond(view, parsed.status, detailBody(parsed.detail));
    const valid = validateInput(this.#rulesOf(collection, op), parsed.data, {
      partial: op.method === 'PATCH',
      form: parsed.form,
    });
    if (!valid.ok) return respond(view, 400, drfJson(valid.errors));
    const before = existing ? itemObject(existing) : undefined;
    const values: Record<string, unknown> = {};
    for (const field of collection.fields) {
      if (field === 'url') continue;
      if (Object.hasOwn(valid.values, field)) values[field] = valid.values[field];
      else if (before && Object.hasOwn(before, field)) values[field] = before[field];
      else if (!before && field === collection.lookup && (field === 'pk' || field === 'id'))
        values[field] = live.nextPk();
      else if (!before) {
        const schema = fieldSchema(this.model.spec, collection.list.itemPointer, field);
        values[field] = 'default' in schema ? schema.default : null;
      }
    }
    const item = existing ? live.replace(existing, values) : live.insert(values);
    this.generation = {};
    const body = renderItem(item, url);
    const answer = respond(view, existing ? 200 : 201, body);
    if (existing || item.urlAt < 0 || url === undefined) return answer;
    // CreateModelMixin.get_success_headers: Location is the created item's url.
    return { ...answer, headers: { ...answer.headers, location: (JSON.parse(body) as { url: string }).url } };
  }

  /** SimpleMetadata.determine_actions: the serializer's fields for POST (a list) and PUT (an item). */
  #actions(ctx: RequestContext, collection: CollectionModel, route: PathRoute): Record<string, unknown> | undefined {
    const method = route.methods.has('POST') ? 'POST' : route.methods.has('PUT') ? 'PUT' : undefined;
    if (method === undefined) return undefined;
    const op = route.methods.get(method) as WriteOperation;
    if (method === 'PUT') {
      const found = this.#lookup(
        ctx,
        { allow: '', authenticated: true, indent: undefined },
        collection,
        this.#liveOf(collection).set,
      );
      if ('status' in found) return undefined;
    }
    const rules = new Map(this.#rulesOf(collection, op).map((r) => [r.name, r]));
    const info: Record<string, unknown> = {};
    const names = [...new Set([...collection.fields, ...rules.keys()])];
    for (const name of names) {
      const rule = rules.get(name);
      const readOnly = rule?.readOnly ?? true;
      const field: Record<string, unknown> = {
        type: name === 'url' ? 'field' : fieldType(rule),
        required: rule?.required ?? false,
        read_only: readOnly,
        label: name === 'pk' || name === 'id' ? 'ID' : capfirst(name.replaceAll('_', ' ')),
      };
      if (rule?.minLength !== undefined) field.min_length = rule.minLength;
      if (rule?.maxLength !== undefined) field.max_length = rule.maxLength;
      if (rule?.minimum !== undefined) field.min_value = rule.minimum;
      if (rule?.maximum !== undefined) field.max_value = rule.maximum;
      if (!readOnly && rule?.choices) field.choices = rule.choices.map((c) => ({ value: c, display_name: pyStrOf(c) }));
      info[name] = field;
    }
    return { [method]: info };
  }

  /** `Prefer: code=N`: the declared response's example, else its seeded body, else none. */
  #declared(view: View, op: AnyOperation, scenario: Scenario): CoreAnswer {
    const status = scenario.code as number;
    const declared = op.responses[String(status)];
    if (!declared) {
      // The one exception to "declared codes only": a server failure, as the deployment sends it.
      if (status === 500) return page(DJANGO_ERRORS.SERVER_ERROR);
      if (status === 502 || status === 503 || status === 504) return gatewayPage(status);
      return stubProblem('Impossible scenario', `${op.operationId} declares no ${status} response`, {
        available: { codes: Object.keys(op.responses) },
      });
    }
    const names = Object.keys(declared.examples);
    if (scenario.example !== undefined) {
      if (!names.includes(scenario.example))
        return stubProblem(
          'Impossible scenario',
          `the ${status} response of ${op.operationId} has no example "${scenario.example}"`,
          { available: { examples: names } },
        );
      return respond(view, status, drfJson(declared.examples[scenario.example]));
    }
    if (names.length > 0) return respond(view, status, drfJson(declared.examples[names[0] as string]));
    const generated = this.model.generatedBodies[`${op.pointer} ${status}`];
    return respond(view, status, generated === undefined ? '' : drfJson(generated));
  }
}

interface RequestContext {
  readonly method: string;
  readonly baseUrl: string;
  /** The decoded path (Django's path_info). */
  readonly path: string;
  /** request.GET. */
  readonly query: QueryMap;
  /** The query as received (for links, which Django builds from it). */
  readonly rawQuery: string;
  readonly match: Match;
  readonly header: HeaderGetter;
  readonly body: Uint8Array | undefined;
}

/** DRF's `Allow`: the declared methods in View.http_method_names order, HEAD with GET, and OPTIONS. */
function allowHeader(declared: readonly ViewMethod[]): string {
  const order: string[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
  const methods = order.filter((m) => declared.includes(m as ViewMethod));
  if (declared.includes('GET')) methods.push('HEAD');
  methods.push('OPTIONS');
  return methods.join(', ');
}

/** A DRF view's answer: JSONRenderer's body (indented when negotiated), Allow and Vary. */
function respond(view: View, status: number, body: string): CoreAnswer {
  const headers: Headers = {
    ...DJANGO_HEADERS,
    'content-type': JSON_TYPE,
    vary: view.authenticated ? 'Accept, Cookie' : 'Accept',
    allow: view.allow,
  };
  return { status, headers, body: withIndent(body, view.indent) };
}

function respondError(view: View, e: DrfError): CoreAnswer {
  return respond(view, e.status, detailBody(e.detail));
}

/** The items a scenario asks for (docs/response-selection.md), or a problem. */
function itemSet(collection: CollectionModel, own: ItemSet, op: Operation, scenario: Scenario): ItemSet | CoreAnswer {
  if (scenario.empty) return EMPTY_SET;
  if (scenario.dynamic) {
    return (
      collection.dynamic ??
      stubProblem('Impossible scenario', `${op.operationId}: its item schema describes no field to generate from`, {
        available: SCENARIO_HELP,
      })
    );
  }
  if (scenario.example !== undefined) {
    return (
      collection.examples.get(scenario.example) ??
      stubProblem('Impossible scenario', `the 200 response of ${op.operationId} has no example "${scenario.example}"`, {
        available: { examples: [...collection.examples.keys()] },
      })
    );
  }
  return own;
}

/** The query of pagination links: the request's, without the stub's own scenario parameters. */
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

// django.utils.encoding.iri_to_uri: quote(iri, safe="/#%[]=:;$&()+,!?*@'~").
const IRI_SAFE = /[A-Za-z0-9_.\-~/#%[\]=:;$&()+,!?*@']/;
const encoder = new TextEncoder();

function iriToUri(raw: string): string {
  let out = '';
  for (const ch of raw) {
    const cp = ch.codePointAt(0) ?? 0;
    if (IRI_SAFE.test(ch)) out += ch;
    else if (cp < 0x100) out += `%${cp.toString(16).toUpperCase().padStart(2, '0')}`;
    else for (const b of encoder.encode(ch)) out += `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/**
 * CORS (the stub's, for a browser app on another origin): the Origin echoed with credentials, on
 * answers to a request that carries an Origin (a browser always sends it cross-origin). `Vary`
 * stays the service's: these answers carry no freshness information (no Cache-Control, Expires
 * or validator), so no cache reuses one for another origin, and `Vary: Origin` would only make
 * them differ from what the service sends.
 */
function withCors(answer: CoreAnswer, header: HeaderGetter): CoreAnswer {
  const origin = header('origin');
  if (origin === undefined || answer.headers['access-control-allow-origin'] !== undefined) return answer;
  return {
    ...answer,
    headers: {
      ...answer.headers,
      'access-control-allow-origin': origin,
      'access-control-allow-credentials': 'true',
      'access-control-expose-headers': 'Allow, Content-Length, Location, Vary',
    },
  };
}

function preflight(header: HeaderGetter): CoreAnswer {
  const requested = header('access-control-request-headers');
  const headers: Headers = {
    ...DJANGO_HEADERS,
    'access-control-allow-origin': header('origin') ?? '*',
    'access-control-allow-credentials': 'true',
    'access-control-allow-methods': 'GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS',
    'access-control-max-age': '600',
  };
  if (requested !== undefined) headers['access-control-allow-headers'] = requested;
  return { status: 204, headers, body: '' };
}

function capfirst(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

function pyStrOf(v: unknown): string {
  return v === null ? 'None' : typeof v === 'boolean' ? (v ? 'True' : 'False') : String(v);
}

/** SimpleMetadata.label_lookup for the field a rule describes. */
function fieldType(rule: FieldRule | undefined): string {
  if (!rule) return 'field';
  if (rule.kind === 'number') return 'float';
  if (rule.kind === 'list') return 'list';
  if (rule.kind === 'dict') return 'nested object';
  if (rule.kind === 'any') return 'field';
  if (rule.kind === 'string') {
    const byFormat: Record<string, string> = {
      email: 'email',
      uri: 'url',
      url: 'url',
      date: 'date',
      'date-time': 'datetime',
      uuid: 'string',
    };
    return byFormat[rule.format ?? ''] ?? 'string';
  }
  return rule.kind;
}

function pkParamOf(collection: CollectionModel): string {
  return collection.itemRoute ? (/\{([^}]+)\}$/.exec(collection.itemRoute.path)?.[1] ?? 'pk') : 'pk';
}

/** Without a GET on the item path, the lookup is an integer when the item schema says so. */
function isIntegerLookup(model: Model, collection: CollectionModel): boolean {
  if (collection.lookup === undefined) return false;
  const schema = fieldSchema(model.spec, collection.list.itemPointer, collection.lookup);
  return schema.type === 'integer';
}
