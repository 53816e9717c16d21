/** A `baseUrl`, checked as the server checks `--base-url`, and the path the service lives under. */
export interface Base {
  /** Origin and path, no trailing slash: the base of every absolute url. */
  readonly url: string;
  readonly origin: string;
  /** '' or `/workplace`: no trailing slash. */
  readonly path: string;
}

export function parseBaseUrl(raw: string | undefined): Base | undefined {
  if (raw === undefined) return undefined;
  let u: URL | undefined;
  try {
    u = new URL(raw);
  } catch {
    u = undefined;
  }
  if (!u || (u.protocol !== 'http:' && u.protocol !== 'https:') || u.search || u.hash || u.username || u.password) {
    throw new TypeError(
      `baseUrl must be an absolute http(s) URL without query, fragment or credentials (got ${JSON.stringify(raw)})`,
    );
  }
  const path = u.pathname.replace(/\/+$/, '');
  return { url: `${u.origin}${path}`, origin: u.origin, path };
}
