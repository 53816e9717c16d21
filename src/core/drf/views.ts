import { DJANGO_HEADERS, JSON_TYPE } from '../django/http.js';
import { DJANGO_ERRORS, detailBody, djangoPage, DRF_ERRORS, type DrfError } from '../errors.js';
import { lastValue, MAX_QUERY_FIELDS, queryFieldCount } from '../python/query.js';
import type { CoreAnswer, RequestContext } from '../request.js';
import { authenticate } from './authentication.js';
import { negotiate } from './negotiation.js';
import { withIndent } from './renderers.js';

/**
 * DRF's APIView around a handler (rest_framework/views.py): `initial()` (content negotiation,
 * then authentication) before it, `finalize_response()` after it (the renderer's body, `Allow`,
 * `Vary`).
 */
export interface View {
  /** The `Allow` header: the view's methods. */
  readonly allow: string;
  /** SessionAuthentication ran (it reads the session): SessionMiddleware adds `Vary: Cookie`. */
  authenticated: boolean;
  /** `indent=N` of the accepted media type. */
  indent: number | undefined;
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
 * authentication. The view's state, or the error it raised (with the view's headers).
 */
export function initial(ctx: RequestContext, allow: string, formats: readonly string[]): View | CoreAnswer {
  const view: View = { allow, authenticated: false, indent: undefined };
  // DRF reads request.GET first (the format): a query of too many fields is Django's 400.
  if (queryFieldCount(ctx.rawQuery) > MAX_QUERY_FIELDS) return djangoPage(DJANGO_ERRORS.BAD_REQUEST);
  const neg = negotiate(formats, ctx.suffix ?? lastValue(ctx.query, 'format'), ctx.header('accept'));
  if (!neg.ok) return respondError(view, neg.status === 404 ? DRF_ERRORS.NOT_FOUND : DRF_ERRORS.NOT_ACCEPTABLE);
  view.indent = neg.indent;
  view.authenticated = true;
  const auth = authenticate(ctx.header('authorization'));
  if (auth !== undefined) return respondError(view, auth);
  return view;
}

/** `finalize_response()`: JSONRenderer's body (indented when negotiated), `Allow` and `Vary`. */
export function respond(view: View, status: number, body: string): CoreAnswer {
  const headers = {
    ...DJANGO_HEADERS,
    'content-type': JSON_TYPE,
    vary: view.authenticated ? 'Accept, Cookie' : 'Accept',
    allow: view.allow,
  };
  return { status, headers, body: withIndent(body, view.indent) };
}

/** An APIException raised in the view, as `handle_exception()` answers it. */
export function respondError(view: View, e: DrfError): CoreAnswer {
  return respond(view, e.status, detailBody(e.detail));
}

/** An answer without a body (a 204 of DestroyModelMixin): no Content-Type. */
export function respondEmpty(view: View, status: number): CoreAnswer {
  const vary = view.authenticated ? 'Accept, Cookie' : 'Accept';
  return { status, headers: { ...DJANGO_HEADERS, vary, allow: view.allow }, body: '' };
}
