import { http, type HttpHandler } from 'msw';
import { RESET_PATH } from '../core/answer.js';
import { createFetchHandler, type HandlerOptions } from './fetch.js';
import { parseBaseUrl } from './internal/base-url.js';
import { anySpelling } from './internal/raw-path.js';

export type { HandlerOptions } from './fetch.js';

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/**
 * The service's requests, as msw matches a RegExp (against the request's origin and path): under
 * a folder of its collections (`/api/v1` and below, in any spelling the core decodes) or the
 * stub's reset path; on `baseUrl`'s origin and below its path when one is given, on any origin
 * otherwise.
 */
function servicePattern(roots: readonly { readonly prefix: string }[], baseUrl: string | undefined): RegExp {
  const base = parseBaseUrl(baseUrl);
  const origin = base ? escapeRegExp(base.origin) : '[a-z][a-z0-9+.-]*://[^/]+';
  const basePath = base ? anySpelling(base.path) : '';
  const folders = roots.map((r) => `${anySpelling(r.prefix.replace(/\/$/, ''))}(?:${anySpelling('/')}.*)?`);
  return new RegExp(`^${origin}${basePath}(?:${[...folders, anySpelling(RESET_PATH)].join('|')})$`);
}

/**
 * msw 2 handlers answering the service's paths exactly as the stub's HTTP server does, for
 * `setupServer(...createHandlers())` in Node tests and `setupWorker(...createHandlers())` in the
 * browser. Other requests (your app's own, other APIs) match none of them: msw leaves them to
 * your other handlers and its `onUnhandledRequest`.
 */
export function createHandlers(options: HandlerOptions = {}): HttpHandler[] {
  const handle = createFetchHandler(options);
  return [http.all(servicePattern(handle.model.router.roots, options.baseUrl), ({ request }) => handle(request))];
}
