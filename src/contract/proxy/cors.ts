import type { IncomingHttpHeaders } from 'node:http';
import { isLoopbackOrigin, originOf } from '../../core/django/host.js';

/**
 * The proxy's CORS, so that a dev server's page (http://localhost:5173) can call it: the policy the
 * stub has by default (#30), as Vite chose after its CORS advisory. Only loopback origins are
 * echoed (`localhost`, `*.localhost`, `127.0.0.1`, `[::1]`, any port, http or https) and those
 * given with --cors-origin; never `null` (sandboxed and `file:` pages). An upstream with a CORS
 * policy of its own keeps it: its Access-Control-* headers pass unchanged and none is added.
 */
export class CorsPolicy {
  readonly #extra: ReadonlySet<string>;

  /** `extra`: origins checked already (corsOrigin), as `new URL(o).origin` writes them. */
  constructor(extra: readonly string[] = []) {
    this.#extra = new Set(extra);
  }

  /** The origin to echo, or undefined when this one may not read the answers. */
  allowed(origin: string | undefined): string | undefined {
    if (origin === undefined) return undefined;
    return isLoopbackOrigin(origin) || this.#extra.has(origin) ? origin : undefined;
  }
}

/** `--cors-origin` as an origin (`https://dev.example.org:8443`), or why it is not one. */
export function corsOrigin(value: string): { ok: true; origin: string } | { ok: false; error: string } {
  if (value === 'null')
    return { ok: false, error: `--cors-origin ${value}: never allowed (the origin of sandboxed and file: pages)` };
  const origin = originOf(value);
  return origin === undefined
    ? {
        ok: false,
        error: `--cors-origin ${value}: an origin is http(s)://host[:port], without a path, query or user, such as https://dev.example.org`,
      }
    : { ok: true, origin };
}

/** The upstream answers with a CORS policy of its own. */
export function hasOwnCors(headers: IncomingHttpHeaders): boolean {
  return Object.keys(headers).some((name) => name.startsWith('access-control-'));
}

/** `Vary` with `Origin` added: the answer depends on it now. */
function varyOrigin(vary: string | string[] | undefined): string {
  const given = (Array.isArray(vary) ? vary.join(', ') : (vary ?? '')).trim();
  if (given === '') return 'Origin';
  return /(^|,)\s*(origin|\*)\s*(,|$)/i.test(given) ? given : `${given}, Origin`;
}

/** The headers that let `origin` read an answer (and its x-contract-violations). */
export function corsHeaders(origin: string, vary?: string | string[]): Record<string, string> {
  return {
    'access-control-allow-origin': origin,
    'access-control-allow-credentials': 'true',
    'access-control-expose-headers': 'x-contract-violations',
    vary: varyOrigin(vary),
  };
}

/** The answer to a preflight from `origin`: the method and headers it asks for, for ten minutes. */
export function preflightHeaders(origin: string, request: IncomingHttpHeaders): Record<string, string> {
  const asked = request['access-control-request-headers'];
  // Header names, comma-separated: anything else is not echoed.
  const names =
    asked !== undefined && /^\s*[!#$%&'*+.^_`|~0-9A-Za-z-]+(\s*,\s*[!#$%&'*+.^_`|~0-9A-Za-z-]+)*\s*$/.test(asked);
  return {
    ...corsHeaders(origin),
    'access-control-allow-methods': 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS',
    ...(names ? { 'access-control-allow-headers': asked.trim() } : {}),
    'access-control-max-age': '600',
    vary: 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers',
  };
}
