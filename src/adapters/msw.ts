import { http, type HttpHandler } from 'msw';
import { STUB_PREFIX } from '../core/stub/control.js';
import { createFetchHandler, type FetchHandler, type HandlerOptions } from './fetch.js';
import { parseBaseUrl } from './internal/base-url.js';
import { anySpelling, escapeRegExp } from './internal/raw-path.js';

export type { FetchHandler, HandlerOptions } from './fetch.js';

/**
 * The service's requests, as msw matches a RegExp (against the request's origin and path): under
 * the first segment of any path the spec routes (`/api` and below, in any spelling the core
 * decodes) or the stub's own `/__stub/` paths; on `baseUrl`'s origin and below its path when one
 * is given, on any origin otherwise (the site's own Django views, such as `/`, then left out).
 */
function servicePattern(paths: readonly string[], baseUrl: string | undefined): RegExp {
  const base = parseBaseUrl(baseUrl);
  const origin = base ? escapeRegExp(base.origin) : '[a-z][a-z0-9+.-]*://[^/]+';
  const basePath = base ? anySpelling(base.path) : '';
  const firsts = new Set([...paths.map((p) => `/${p.split('/')[1] ?? ''}`), STUB_PREFIX.replace(/\/$/, '')]);
  const folders = [...firsts].map((f) => `${anySpelling(f)}(?:${anySpelling('/')}.*)?`);
  return new RegExp(`^${origin}${basePath}(?:${folders.join('|')})$`);
}

/**
 * msw 2 handlers answering the service's paths exactly as the stub's HTTP server does, for
 * `setupServer(...createHandlers())` in Node tests and `setupWorker(...createHandlers())` in the
 * browser. Other requests (your app's own, other APIs) match none of them: msw leaves them to
 * your other handlers and its `onUnhandledRequest`.
 */
export function createHandlers(options: HandlerOptions = {}): HttpHandler[] {
  return createHandlersWith(createFetchHandler(options), options.baseUrl);
}

/**
 * The same handlers over a fetch handler of yours, whose controls (`requests()`, `scenarios`,
 * `reset()`) a test then uses: `const stub = createFetchHandler(); server.use(...createHandlersWith(stub))`.
 */
export function createHandlersWith(handle: FetchHandler, baseUrl?: string): HttpHandler[] {
  // A plain Django view of the site (`/`, `/favicon.ico`) is the API host's, not the app's: on any
  // origin it would take the app's own `/` and icon, so it is matched on `baseUrl`'s origin only.
  const siteView = (r: (typeof handle.model.operations.routes)[number]) =>
    [...r.methods.values()].every((op) => op.kind === 'custom' && op.djangoView);
  const paths = [
    ...handle.model.operations.routes.filter((r) => baseUrl !== undefined || !siteView(r)).map((r) => r.path),
    ...handle.model.router.roots.map((r) => r.prefix),
  ];
  return [http.all(servicePattern(paths, baseUrl), ({ request }) => handle(request))];
}
