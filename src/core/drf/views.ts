import { DJANGO_HEADERS, JSON_TYPE } from '../django/http.js';
import { DJANGO_ERRORS, detailBody, djangoPage, DRF_ERRORS, type DrfError } from '../errors.js';
import { lastValue, MAX_QUERY_FIELDS, queryFieldCount } from '../python/query.js';
import type { CoreAnswer, RequestContext } from '../request.js';
import type { Renderer } from '../../openapi/operations.js';
import { authenticate, authenticateHeader, type Authenticator } from './authentication.js';
import { csrfFailure } from '../django/csrf.js';
import { cookieValue, SESSION_COOKIE, withVaryCookie } from '../django/sessions.js';
import { negotiate } from './negotiation.js';
import type { ParsedBody } from './parsers.js';
import { withIndent } from './renderers.js';
import { withHeaders, withMembers } from '../members.js';

/**
 * DRF's APIView around a handler (rest_framework/views.py): `initial()` (content negotiation,
 * then authentication) before it, `finalize_response()` after it (the renderer's body, `Allow`,
 * `Vary`).
 */
export interface View {
  /** The `Allow` header: the view's methods. */
  readonly allow: string;
  /** SessionAuthentication ran (it reads the session): SessionMiddleware adds `Vary: Cookie`. */
  sessionRead: boolean;
  /** `request.user` is authenticated. */
  user: boolean;
  /** `indent=N` of the accepted media type. */
  indent: number | undefined;
  /** The first authentication class's `WWW-Authenticate`, for a 401. */
  readonly authenticateHeader: string | undefined;
}

/** What `initial()` checks a request against: the view's renderers, authentication and permission. */
export interface ViewConfig {
  readonly allow: string;
  readonly renderers: readonly Renderer[];
  readonly authenticators: readonly Authenticator[];
  /** `--tokens`: the valid token keys; any key without it. */
  readonly tokens: ReadonlySet<string> | undefined;
  /** `--sessions`: the session keys of logged-in users; none without it. */
  readonly sessions: ReadonlySet<string> | undefined;
  /** AllowAny; else IsAuthenticated. */
  readonly anonymous: boolean;
}

/** DRF's `Allow`: the declared methods in View.http_method_names order, HEAD with GET, and OPTIONS. */
export function allowHeader(declared: readonly string[]): string {
  const methods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].filter((m) => declared.includes(m));
  if (declared.includes('GET')) methods.push('HEAD');
  methods.push('OPTIONS');
  return methods.join(', ');
}

/**
 * `initial()`: content negotiation (the format suffix or `format`, then Accept), then
 * authentication, then the permission. The view's state, or the error it raised (with the
 * view's headers).
 */
export function initial(ctx: RequestContext, config: ViewConfig): View | CoreAnswer {
  const view: View = {
    allow: config.allow,
    sessionRead: false,
    user: false,
    indent: undefined,
    authenticateHeader: authenticateHeader(config.authenticators),
  };
  // DRF reads request.GET first (the format): a query of too many fields is Django's 400.
  if (queryFieldCount(ctx.rawQuery) > MAX_QUERY_FIELDS) return djangoPage(DJANGO_ERRORS.BAD_REQUEST);
  const neg = negotiate(config.renderers, ctx.suffix ?? lastValue(ctx.query, 'format'), ctx.header('accept'));
  if (!neg.ok) return respondError(view, neg.status === 404 ? DRF_ERRORS.NOT_FOUND : DRF_ERRORS.NOT_ACCEPTABLE);
  view.indent = neg.indent;
  const auth = authenticate(
    config.authenticators,
    {
      authorization: ctx.header('authorization'),
      sessionKey: cookieValue(ctx.header('cookie'), SESSION_COOKIE),
      csrf: () => csrfFailure(ctx),
    },
    config,
  );
  view.sessionRead = auth.sessionRead;
  view.user = auth.user;
  if (auth.error !== undefined) return respondError(view, auth.error);
  if (!config.anonymous && !auth.user) return respondError(view, DRF_ERRORS.NOT_AUTHENTICATED);
  return view;
}

/** `finalize_response()`: JSONRenderer's body (indented when negotiated), `Allow` and `Vary`. */
export function respond(view: View, status: number, body: string): CoreAnswer {
  const headers = withMembers(DJANGO_HEADERS, {
    'content-type': JSON_TYPE,
    vary: view.sessionRead ? 'Accept, Cookie' : 'Accept',
    allow: view.allow,
  });
  return { status, headers, body: withIndent(body, view.indent) };
}

/**
 * An APIException raised in the view, as `handle_exception()` answers it: an authentication
 * failure is 401 with `WWW-Authenticate` where the first authentication class has one, else 403.
 */
export function respondError(view: View, e: DrfError): CoreAnswer {
  if (e.authentication === true) {
    if (view.authenticateHeader === undefined) return respond(view, 403, detailBody(e.detail));
    const answer = respond(view, 401, detailBody(e.detail));
    return withHeaders(answer, { 'www-authenticate': view.authenticateHeader });
  }
  return respond(view, e.status, detailBody(e.detail));
}

/** An answer without a body (a 204 of DestroyModelMixin): no Content-Type. */
export function respondEmpty(view: View, status: number): CoreAnswer {
  const vary = view.sessionRead ? 'Accept, Cookie' : 'Accept';
  return { status, headers: withMembers(DJANGO_HEADERS, { vary, allow: view.allow }), body: '' };
}

/**
 * A body the parsers refuse: DRF's ParseError or UnsupportedMediaType, or Django's 400 page for
 * more fields than DATA_UPLOAD_MAX_NUMBER_FIELDS (raised before DRF sees the body).
 */
export function refusedBody(view: View, refused: Extract<ParsedBody, { ok: false }>): CoreAnswer {
  if (!('tooManyFields' in refused)) return respond(view, refused.status, detailBody(refused.detail));
  // The view authenticated first: the session was read, so SessionMiddleware varies on Cookie.
  const page = djangoPage(DJANGO_ERRORS.BAD_REQUEST);
  return withHeaders(page, { vary: withVaryCookie(page.headers.vary) });
}
