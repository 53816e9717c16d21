import { parseBody } from '../drf/parsers.js';
import { lastValue, type QueryMap } from '../python/query.js';
import type { RequestContext } from '../request.js';
import { cookieValue } from './sessions.js';

/**
 * Django's CsrfViewMiddleware.process_view (django/middleware/csrf.py, 4.2), as DRF's
 * SessionAuthentication.enforce_csrf runs it for a request its session authenticated: the reason
 * a write is refused ("CSRF cookie not set."), or undefined when it passes. No CSRF_TRUSTED_ORIGINS
 * (the deployment sets none) and CSRF_USE_SESSIONS off: the secret is the `csrftoken` cookie.
 */
const SAFE = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE']);
const CHARS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const SECRET_LENGTH = 32;
const TOKEN_LENGTH = 64;
const INVALID_CHARS = /[^a-zA-Z0-9]/;
const HEADER = "the 'X-Csrftoken' HTTP header";

/** `_check_token_format`: why a token or cookie cannot be one, if so. */
function formatProblem(token: string): string | undefined {
  if (token.length !== TOKEN_LENGTH && token.length !== SECRET_LENGTH) return 'has incorrect length';
  if (INVALID_CHARS.test(token)) return 'has invalid characters';
  return undefined;
}

/** `_unmask_cipher_token`: a masked token's secret. */
function unmask(token: string): string {
  const mask = token.slice(0, SECRET_LENGTH);
  const cipher = token.slice(SECRET_LENGTH);
  let out = '';
  for (let i = 0; i < SECRET_LENGTH; i++) {
    const d = CHARS.indexOf(cipher[i] as string) - CHARS.indexOf(mask[i] as string);
    out += CHARS[(d + CHARS.length) % CHARS.length];
  }
  return out;
}

const secretOf = (token: string) => (token.length === TOKEN_LENGTH ? unmask(token) : token);

export function csrfFailure(ctx: RequestContext): string | undefined {
  if (SAFE.has(ctx.method)) return undefined;
  const origin = ctx.header('origin');
  // `_origin_verified`: the request's own scheme and host, the only trusted origin here.
  if (origin !== undefined && origin !== ctx.baseUrl.replace(/^(https?:\/\/[^/]+).*$/, '$1'))
    return `Origin checking failed - ${origin} does not match any trusted origins.`;
  const cookie = cookieValue(ctx.header('cookie'), 'csrftoken');
  if (cookie === undefined) return 'CSRF cookie not set.';
  const bad = formatProblem(cookie);
  if (bad !== undefined) return `CSRF cookie ${bad}.`;
  let token = '';
  let source = HEADER;
  if (ctx.method === 'POST') {
    const parsed = parseBody(ctx.header('content-type'), ctx.body);
    if (parsed.ok && parsed.form) {
      token = lastValue(parsed.data as QueryMap, 'csrfmiddlewaretoken') ?? '';
      if (token !== '') source = 'POST';
    }
  }
  if (token === '') {
    const header = ctx.header('x-csrftoken');
    if (header === undefined) return 'CSRF token missing.';
    token = header;
  }
  const tokenProblem = formatProblem(token);
  if (tokenProblem !== undefined) return `CSRF token from ${source} ${tokenProblem}.`;
  return secretOf(token) === secretOf(cookie) ? undefined : `CSRF token from ${source} incorrect.`;
}
