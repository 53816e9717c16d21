import { DJANGO_HEADERS } from '../django/http.js';
import { type HeaderGetter, isLoopbackOrigin } from '../django/host.js';
import type { CorsPolicy } from './cors-policy.js';
import type { CoreAnswer } from '../request.js';
import { NO_CONTENT } from './control.js';
import { withHeaders, withMembers } from '../members.js';

export type { CorsPolicy } from './cors-policy.js';

export const LOOPBACK_CORS: CorsPolicy = Object.freeze({ mode: 'stub', origins: 'loopback', extra: [] });

/** May a page of this origin read the stub's answers under the stub's policy? */
export function originAllowed(policy: CorsPolicy, origin: string): boolean {
  if (policy.mode !== 'stub') return false;
  if (policy.origins === 'any') return true;
  return isLoopbackOrigin(origin) || policy.extra.includes(origin);
}

/**
 * The stub's CORS headers on an answer to a request from an allowed origin. `Vary` stays the
 * service's: these answers carry no freshness information (no Cache-Control, Expires or
 * validator), so no cache reuses one for another origin, and `Vary: Origin` would only make them
 * differ from what the service sends.
 */
export function withCors(policy: CorsPolicy, answer: CoreAnswer, header: HeaderGetter): CoreAnswer {
  const origin = header('origin');
  if (origin === undefined || answer.headers['access-control-allow-origin'] !== undefined) return answer;
  if (!originAllowed(policy, origin)) return answer;
  return withHeaders(answer, {
    'access-control-allow-origin': origin,
    'access-control-allow-credentials': 'true',
    'access-control-expose-headers': 'Allow, Content-Length, Location, Vary',
  });
}

/** Is this a CORS preflight (an OPTIONS with Origin and Access-Control-Request-Method)? */
export function isPreflight(method: string, header: HeaderGetter): boolean {
  return (
    method === 'OPTIONS' && header('origin') !== undefined && header('access-control-request-method') !== undefined
  );
}

/**
 * The stub's answer to a preflight from an allowed origin: every method, the headers asked for
 * (only tokens, so that nothing of the request reaches a header unchecked). From any other
 * origin: a 204 without CORS headers, which the browser refuses.
 */
export function preflight(policy: CorsPolicy, header: HeaderGetter): CoreAnswer {
  const origin = header('origin') ?? '';
  if (!originAllowed(policy, origin)) return NO_CONTENT;
  const requested = header('access-control-request-headers');
  const headers: Record<string, string> = withMembers(DJANGO_HEADERS, {
    'access-control-allow-origin': origin,
    'access-control-allow-credentials': 'true',
    'access-control-allow-methods': 'GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS',
    'access-control-max-age': '600',
  });
  if (requested !== undefined && HEADER_LIST.test(requested)) headers['access-control-allow-headers'] = requested;
  return { status: 204, headers, body: '' };
}

// A list of header names: RFC 9110 tokens, commas and spaces.
const HEADER_LIST = /^[!#$%&'*+.^_`|~0-9A-Za-z, \t-]*$/;

/**
 * A request a web page can send without a preflight (a CORS-simple one: a form POST, a
 * `text/plain` body) from an origin the policy does not allow: refused before it changes
 * anything (the stub's writes and everything under /__stub/). A browser sends `Origin` on every
 * such request; requests without one (curl, a server) are never refused here.
 */
export function crossSiteWrite(policy: CorsPolicy, method: string, header: HeaderGetter): boolean {
  if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') return false;
  const origin = header('origin');
  if (origin === undefined) return false;
  if (policy.mode === 'deployment' || originAllowed(policy, origin)) return false;
  return isSimple(header);
}

/** A CORS-simple request's body type: a form or plain text (what a page may send without asking). */
function isSimple(header: HeaderGetter): boolean {
  const type = (header('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  return (
    type === '' ||
    type === 'application/x-www-form-urlencoded' ||
    type === 'multipart/form-data' ||
    type === 'text/plain'
  );
}
