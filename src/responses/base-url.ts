import type { IncomingHttpHeaders } from 'node:http';

/**
 * The deployment's base URL for one request (§9.2: urls inside items use the base address of the
 * deployment that served them). Django's `HttpRequest.get_host()` + `build_absolute_uri()`:
 * the Host header (X-Forwarded-Host only when the proxy is trusted, as USE_X_FORWARDED_HOST),
 * checked against `host_validation_re` and ALLOWED_HOSTS; the scheme is https only when a trusted
 * X-Forwarded-Proto says so (SECURE_PROXY_SSL_HEADER, first value of a list).
 */
export interface BaseUrlOptions {
  /** A fixed base URL (no trailing slash): the Host header then only needs to be valid. */
  readonly baseUrl?: string | undefined;
  readonly trustProxy: boolean;
  /** Django's ALLOWED_HOSTS syntax: `*`, `.example.com` (and subdomains), or an exact host. */
  readonly allowedHosts: readonly string[];
  /** Used when a request carries no Host at all (HTTP/1.0), as Django's SERVER_NAME:SERVER_PORT. */
  readonly fallbackHost: string;
}

export type BaseUrlResult = { ok: true; baseUrl: string } | { ok: false; reason: 'invalid-host' | 'disallowed-host' };

// django/http/request.py host_validation_re, applied to the lower-cased host.
const HOST_RE = /^([a-z0-9.-]+|\[[a-f0-9]*:[a-f0-9.:]+\])(?::([0-9]+))?$/;

function headerValue(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

/** Splits and checks a host[:port]; answers the domain (lower case, no trailing dot) or undefined. */
export function validHostDomain(host: string): string | undefined {
  if (host.length === 0 || host.length > 260) return undefined;
  const m = HOST_RE.exec(host.toLowerCase());
  if (!m) return undefined;
  const port = m[2];
  if (port !== undefined && (port.length > 5 || Number(port) > 65535)) return undefined;
  const domain = m[1] ?? '';
  return domain.endsWith('.') ? domain.slice(0, -1) : domain;
}

/** django.http.request.validate_host */
export function hostAllowed(domain: string, allowed: readonly string[]): boolean {
  return allowed.some((pattern) => {
    const p = pattern.toLowerCase();
    if (p === '*') return true;
    if (p.startsWith('.')) return domain === p.slice(1) || domain.endsWith(p);
    return domain === p;
  });
}

export function resolveBaseUrl(headers: IncomingHttpHeaders, opts: BaseUrlOptions): BaseUrlResult {
  const forwardedHost = opts.trustProxy ? headerValue(headers['x-forwarded-host']) : undefined;
  const host = forwardedHost ?? headerValue(headers.host) ?? opts.fallbackHost;
  const domain = validHostDomain(host);
  if (domain === undefined) return { ok: false, reason: 'invalid-host' };
  if (!hostAllowed(domain, opts.allowedHosts)) return { ok: false, reason: 'disallowed-host' };
  if (opts.baseUrl !== undefined) return { ok: true, baseUrl: opts.baseUrl };
  const proto = opts.trustProxy ? headerValue(headers['x-forwarded-proto']) : undefined;
  const scheme = proto !== undefined && proto.split(',', 1)[0]?.trim() === 'https' ? 'https' : 'http';
  return { ok: true, baseUrl: `${scheme}://${host}` };
}
