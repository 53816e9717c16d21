/**
 * The deployment's base URL for one request (§9.2: urls inside items use the base address of the
 * deployment that served them). Django's `HttpRequest.get_host()` + `build_absolute_uri()`:
 * the Host header (X-Forwarded-Host only when the proxy is trusted, as USE_X_FORWARDED_HOST; a
 * header that is present but empty counts, and fails), checked against `host_validation_re` and
 * ALLOWED_HOSTS; the scheme is https only when a trusted X-Forwarded-Proto says so
 * (SECURE_PROXY_SSL_HEADER, the first value of a list as Django 4.1+ reads it).
 */
export interface HostOptions {
  /**
   * A fixed base URL (no trailing slash) for every absolute url, instead of the request's scheme
   * and Host: the Host header then only needs to be valid.
   */
  readonly baseUrl?: string | undefined;
  /** Read X-Forwarded-Host / X-Forwarded-Proto (USE_X_FORWARDED_HOST + SECURE_PROXY_SSL_HEADER). */
  readonly trustProxy: boolean;
  /** Django's ALLOWED_HOSTS syntax: `*`, `.example.com` (and subdomains), or an exact host. */
  readonly allowedHosts: readonly string[];
  /** Used when a request carries no Host at all (HTTP/1.0), as Django's SERVER_NAME:SERVER_PORT. */
  readonly fallbackHost: string;
}

/** A request header by lower-case name: undefined when absent, '' when present and empty. */
export type HeaderGetter = (name: string) => string | undefined;

export type BaseUrlResult = { ok: true; baseUrl: string } | { ok: false };

// django/http/request.py host_validation_re (Django 4.2+), matched whole against the lower-cased
// host: no limit on the port's value or length.
const HOST_RE = /^([a-z0-9.-]+|\[[a-f0-9]*:[a-f0-9.:]+\])(?::([0-9]+))?$/;

/** `split_domain_port`: the domain (lower case, a trailing dot removed), undefined when the host is invalid. */
export function validHostDomain(host: string): string | undefined {
  const m = HOST_RE.exec(host.toLowerCase());
  if (!m) return undefined;
  const domain = m[1] ?? '';
  const d = domain.endsWith('.') ? domain.slice(0, -1) : domain;
  // get_host(): `if domain and validate_host(...)`: an empty domain ('.', ':80') is invalid.
  return d === '' ? undefined : d;
}

/** django.http.request.validate_host */
function hostAllowed(domain: string, allowed: readonly string[]): boolean {
  return allowed.some((pattern) => {
    const p = pattern.toLowerCase();
    if (p === '*') return true;
    if (p.startsWith('.')) return domain === p.slice(1) || domain.endsWith(p);
    return domain === p;
  });
}

/**
 * `scheme` is the connection's own (WSGI's url_scheme): a trusted X-Forwarded-Proto, when
 * present, decides instead (Django's `is_secure()`).
 */
export function resolveBaseUrl(
  header: HeaderGetter,
  opts: HostOptions,
  scheme: 'http' | 'https' = 'http',
): BaseUrlResult {
  const forwardedHost = opts.trustProxy ? header('x-forwarded-host') : undefined;
  const host = forwardedHost ?? header('host') ?? opts.fallbackHost;
  const domain = validHostDomain(host);
  if (domain === undefined || !hostAllowed(domain, opts.allowedHosts)) return { ok: false };
  if (opts.baseUrl !== undefined) return { ok: true, baseUrl: opts.baseUrl };
  const proto = opts.trustProxy ? header('x-forwarded-proto') : undefined;
  const secure = proto !== undefined ? proto.split(',', 1)[0]?.trim() === 'https' : scheme === 'https';
  return { ok: true, baseUrl: `${secure ? 'https' : 'http'}://${host}` };
}

/** A fixed base URL (`--base-url`, an adapter's `baseUrl`), and the path the service lives under. */
export interface FixedBase {
  /** Origin and path, no trailing slash: the base of every absolute url. */
  readonly url: string;
  readonly origin: string;
  /** '' or `/workplace`: no trailing slash. */
  readonly path: string;
}

/**
 * A fixed base URL as the stub takes it (the stub's own option, not Django's): absolute http(s),
 * no query, fragment or credentials; undefined when it is not one.
 */
export function fixedBase(raw: string): FixedBase | undefined {
  const u = parsedUrl(raw);
  if (!u || (u.protocol !== 'http:' && u.protocol !== 'https:') || u.search || u.hash || u.username || u.password)
    return undefined;
  const path = u.pathname.replace(/\/+$/, '');
  return { url: `${u.origin}${path}`, origin: u.origin, path };
}

/** `new URL(raw)`, or undefined where that throws. */
function parsedUrl(raw: string): URL | undefined {
  try {
    return new URL(raw);
  } catch {
    return undefined;
  }
}

/**
 * An Origin as a browser sends it (`scheme://host[:port]`, lower case, http or https), or
 * undefined: `null`, a path, a user, another scheme. (Origins are not Django's; loopback ones are
 * what the stub and its proxy let read their answers by default.)
 */
export function originOf(value: string): string | undefined {
  const u = value === 'null' ? undefined : parsedUrl(value);
  if (!u || (u.protocol !== 'http:' && u.protocol !== 'https:')) return undefined;
  if (u.username || u.password || u.search || u.hash || (u.pathname !== '/' && u.pathname !== '')) return undefined;
  return u.origin;
}

/** A loopback origin exactly as a browser writes it: localhost and its subdomains, 127.0.0.1, [::1]. */
export function isLoopbackOrigin(origin: string): boolean {
  if (originOf(origin) !== origin) return false;
  const host = new URL(origin).hostname;
  return host === 'localhost' || host.endsWith('.localhost') || host === '127.0.0.1' || host === '[::1]';
}
