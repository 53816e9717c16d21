/**
 * Which browser pages may read the stub's answers.
 * - `stub` (the default): the stub's own CORS, for a browser app on another origin: an allowed
 *   Origin echoed with credentials, preflights answered. By default only loopback origins
 *   (`http://localhost:5173`, `http://127.0.0.1:3000`, `*.localhost`, `[::1]`, any port) and
 *   those `--cors-origin` adds; `any` echoes every origin, `null` included.
 * - `deployment` (`--frontend-origin URL`): exactly the deployment's own middleware, which sets
 *   its FRONTEND_DOMAIN on every answer that passes through it and leaves preflights to the view.
 * - `off` (`--no-cors`): no CORS header at all.
 */
export type CorsPolicy =
  | { readonly mode: 'stub'; readonly origins: 'loopback' | 'any'; readonly extra: readonly string[] }
  | { readonly mode: 'deployment'; readonly frontendOrigin: string }
  | { readonly mode: 'off' };
