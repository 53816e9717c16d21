// Percent-escapes decoded byte by byte: only ASCII matters here ('/', '\', '.', ';'), and a
// malformed escape (`%zz`) stays as it is instead of throwing.
const decodeBytes = (s: string): string =>
  s.replace(/%([0-9a-f]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));

/**
 * Does a path under a prefixed base (the part after the prefix) lead off it once a server on the
 * way reads it otherwise than WHATWG URL does? An encoded `/` or `\` in a segment (nginx decodes
 * `%2F` before routing: `/workplace/..%2Fother` reaches `/other`), or a dot segment with a path
 * parameter (`..;`, Tomcat and Jetty's form), in any encoding, decoded up to three times.
 */
function leavesPrefix(path: string): boolean {
  for (const raw of path.split('/')) {
    let segment = raw;
    for (let k = 0; k < 3 && segment.includes('%'); k++) {
      const decoded = decodeBytes(segment);
      if (decoded === segment) break;
      segment = decoded;
    }
    if (segment.includes('/') || segment.includes('\\')) return true;
    const name = segment.split(';', 1)[0];
    if (segment.includes(';') && (name === '.' || name === '..')) return true;
    if (segment !== raw && (segment === '.' || segment === '..')) return true;
  }
  return false;
}

/**
 * The deployment under check: its base URL (the deployment root, which may carry a path prefix:
 * `https://host/workplace`) and what lies on it. A link is compared with the base only after it
 * is resolved as a browser would (WHATWG URL: `..` and `%2e%2e` segments removed, host lower-cased,
 * default port dropped), so `https://host/workplace/../admin` is not on `https://host/workplace`;
 * under a prefix, neither is a path that another server would read as leaving it (leavesPrefix).
 * Credentials go only to urls on the base; nothing off it is ever requested or forwarded.
 */
export class BaseScope {
  /** The base without a trailing slash and without user info: `https://host/workplace`. */
  readonly href: string;
  readonly origin: string;
  /** The base's path without its trailing slash ('' at the root). */
  readonly path: string;
  /** User info of the base URL, moved into an Authorization header by the caller. */
  readonly username: string;
  readonly password: string;

  constructor(base: string | URL) {
    const u = new URL(base.toString());
    this.username = decodeURIComponent(u.username);
    this.password = decodeURIComponent(u.password);
    this.origin = u.origin;
    this.path = u.pathname.replace(/\/+$/, '');
    this.href = `${this.origin}${this.path}`;
  }

  /** The absolute url of a path of the service (`/api/v1/desk`) on this deployment. */
  url(path: string): string {
    return `${this.href}${path}`;
  }

  /** Is `url` on this deployment: same scheme, host and port, under the base's path, no user info of its own? */
  contains(url: URL | string): boolean {
    let u: URL;
    try {
      u = typeof url === 'string' ? new URL(url) : url;
    } catch {
      return false;
    }
    if (u.origin !== this.origin || u.username !== '' || u.password !== '') return false;
    if (this.path === '') return true;
    if (u.pathname !== this.path && !u.pathname.startsWith(`${this.path}/`)) return false;
    return !leavesPrefix(u.pathname.slice(this.path.length));
  }

  /** An absolute link (it names its scheme) that resolves onto this deployment. */
  holdsLink(link: unknown): link is string {
    return typeof link === 'string' && /^[a-z][a-z0-9+.-]*:/i.test(link) && this.contains(link);
  }

  /** The path of `url` relative to the base (`/api/v1/desk?format=api`), for the proxy and the recorder. */
  relative(url: URL): string {
    return `${url.pathname.slice(this.path.length)}${url.search}`;
  }
}
