import { DJANGO_ERRORS, djangoPage } from '../errors.js';
import type { CoreAnswer, CoreOptions, CoreRequest } from '../request.js';
import { resolveBaseUrl } from './host.js';
import { DJANGO_HEADERS, HTML_TYPE } from './http.js';
import { sessionCookieDeletion, withVaryCookie } from './sessions.js';
import { withAppendedSlash } from './urls.js';
import { withHeaders, withMembers } from '../members.js';

/*
 * What the deployment's middleware does around the URL resolver and the view, in MIDDLEWARE's
 * order: CommonMiddleware's host check and APPEND_SLASH on the way in, SessionMiddleware's
 * cookie handling on the way out.
 */

/**
 * The headers of an answer CommonMiddleware makes itself: it returns before the middleware after
 * it (XFrameOptionsMiddleware) sees anything, so only SecurityMiddleware's headers are added.
 */
const { 'x-frame-options': _xFrame, ...COMMON_HEADERS } = DJANGO_HEADERS;

/** CommonMiddleware: `get_host()` before anything else; a bad Host is Django's 400 page. */
export function requestBaseUrl(req: CoreRequest, options: CoreOptions): { baseUrl: string } | CoreAnswer {
  const host = resolveBaseUrl(req.header, options, req.scheme);
  if (host.ok) return { baseUrl: host.baseUrl };
  const page = djangoPage(DJANGO_ERRORS.BAD_REQUEST);
  return withMembers(page, { headers: withMembers(COMMON_HEADERS, { 'content-type': HTML_TYPE }) });
}

/**
 * CommonMiddleware (APPEND_SLASH) for a path no pattern matches: a 301 to the path with a slash
 * when that one would resolve, else Django's 404 page.
 */
export function notResolved(path: string, rawQuery: string, resolves: (path: string) => boolean): CoreAnswer {
  if (!path.endsWith('/') && resolves(`${path}/`)) {
    return {
      status: 301,
      headers: withMembers(COMMON_HEADERS, { 'content-type': HTML_TYPE, location: withAppendedSlash(path, rawQuery) }),
      body: '',
    };
  }
  return djangoPage(DJANGO_ERRORS.PAGE_NOT_FOUND);
}

/** SessionMiddleware.process_response, on every answer Django sends. */
export function sessionMiddleware(
  req: CoreRequest,
  answer: CoreAnswer,
  sessions: ReadonlySet<string> | undefined,
): CoreAnswer {
  const setCookie = sessionCookieDeletion(req.header, answer.headers.vary?.includes('Cookie') ?? false, sessions);
  if (setCookie === undefined) return answer;
  return withHeaders(answer, { vary: withVaryCookie(answer.headers.vary), 'set-cookie': setCookie });
}

/**
 * The deployment's own CORS middleware (`--frontend-origin`): its FRONTEND_DOMAIN, the headers and
 * the methods it allows, on every answer that passes through it (those of the view and of the URL
 * resolver; not CommonMiddleware's own, which sits outside it). No credentials, no `Vary: Origin`,
 * and no preflight handling: an OPTIONS reaches the view.
 */
export function deploymentCors(answer: CoreAnswer, frontendOrigin: string): CoreAnswer {
  return withHeaders(answer, {
    'access-control-allow-origin': frontendOrigin,
    'access-control-allow-headers': 'Content-Type, Authorization',
    'access-control-allow-methods': 'GET, POST, PATCH, PUT, DELETE, OPTIONS',
  });
}
