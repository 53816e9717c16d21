import { http, type HttpHandler } from 'msw';
import { createFetchHandler, type FetchHandler, type HandlerOptions } from './fetch.js';

export type { HandlerOptions } from './fetch.js';

/** Is this request one for the service: under its collections' folders (and on `baseUrl`, if set)? */
function isService(handler: FetchHandler, options: HandlerOptions, request: Request): boolean {
  const url = new URL(request.url);
  let path = url.pathname;
  if (options.baseUrl !== undefined) {
    const base = new URL(options.baseUrl);
    const prefix = base.pathname.replace(/\/+$/, '');
    if (url.origin !== base.origin || !(path === prefix || path.startsWith(`${prefix}/`))) return false;
    path = path.slice(prefix.length) || '/';
  }
  if (path === '/__stub/reset') return true;
  return handler.model.router.roots.some((root) => path.startsWith(root.prefix) || `${path}/` === root.prefix);
}

/**
 * msw 2 handlers answering the service's paths exactly as the stub's HTTP server does, for
 * `setupServer(...createHandlers())` in Node tests and `setupWorker(...createHandlers())` in the
 * browser. Other requests (your app's assets, other APIs) are left to the next handler.
 */
export function createHandlers(options: HandlerOptions = {}): HttpHandler[] {
  const handle = createFetchHandler(options);
  return [
    http.all('*', async ({ request }) => {
      if (!isService(handle, options, request)) return undefined;
      return handle(request);
    }),
  ];
}
