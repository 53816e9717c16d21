import { escapeToken, follow, isObject } from '../../openapi/pointer.js';
import { csrfFailedDetail, DRF_ERRORS, type DrfError } from '../errors.js';
import { pythonB64decode } from '../python/base64.js';
import { withMembers } from '../members.js';

/**
 * DRF's authentication classes (rest_framework/authentication.py), as the spec declares them in
 * `components.securitySchemes`, in that order (drf-spectacular's way of writing each):
 * - `{type: apiKey, in: header, name: Authorization}`: TokenAuthentication, its keyword
 *   `x-token-keyword` (default `Token`);
 * - `{type: apiKey, in: cookie}`: SessionAuthentication;
 * - `{type: http, scheme: basic}`: BasicAuthentication.
 * Other schemes are not DRF's own and authenticate nobody. The stub has no users: a session
 * authenticates when `--sessions` lists its key (none without the option), Basic credentials
 * always fail, and a token is valid when `--tokens` lists it (any token, without the option).
 */
export type Authenticator =
  { readonly kind: 'token'; readonly keyword: string } | { readonly kind: 'session' } | { readonly kind: 'basic' };

export function authenticatorsOf(doc: unknown): Authenticator[] {
  const schemes = follow(doc, '#/components/securitySchemes').node;
  if (!isObject(schemes)) return [];
  const out: Authenticator[] = [];
  for (const name of Object.keys(schemes)) {
    const scheme = follow(doc, `#/components/securitySchemes/${escapeToken(name)}`).node;
    if (!isObject(scheme)) continue;
    if (scheme.type === 'apiKey' && scheme.in === 'header' && String(scheme.name).toLowerCase() === 'authorization')
      out.push({
        kind: 'token',
        keyword: typeof scheme['x-token-keyword'] === 'string' ? scheme['x-token-keyword'] : 'Token',
      });
    else if (scheme.type === 'apiKey' && scheme.in === 'cookie') out.push({ kind: 'session' });
    else if (scheme.type === 'http' && String(scheme.scheme).toLowerCase() === 'basic') out.push({ kind: 'basic' });
  }
  return out;
}

/** What `request.user` came to: a user or not, whether the session was read, or the failure raised. */
export interface Authenticated {
  readonly user: boolean;
  /** SessionAuthentication ran: the session was read (SessionMiddleware then varies on Cookie). */
  readonly sessionRead: boolean;
  readonly error?: DrfError;
}

/** `get_authorization_header(request).split()`: bytes split on ASCII white space. */
function authorizationParts(authorization: string | undefined): string[] {
  return authorization === undefined ? [] : authorization.split(/[ \t\n\v\f\r]+/).filter(Boolean);
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** TokenAuthentication.authenticate: null when the header is not this keyword's. */
function token(
  a: { keyword: string },
  authorization: string | undefined,
  tokens: ReadonlySet<string> | undefined,
): true | DrfError | null {
  const parts = authorizationParts(authorization);
  if (parts.length === 0 || parts[0]?.toLowerCase() !== a.keyword.toLowerCase()) return null;
  if (parts.length === 1) return DRF_ERRORS.TOKEN_NO_CREDENTIALS;
  if (parts.length > 2) return DRF_ERRORS.TOKEN_SPACES;
  // `auth[1].decode()`: the header's bytes (ISO-8859-1, as WSGI gives them) read as UTF-8.
  let key: string;
  try {
    key = utf8.decode(Uint8Array.from(parts[1] as string, (c) => c.charCodeAt(0) & 0xff));
  } catch {
    return DRF_ERRORS.TOKEN_INVALID_CHARACTERS;
  }
  return tokens === undefined || tokens.has(key) ? true : DRF_ERRORS.INVALID_TOKEN;
}

/** BasicAuthentication.authenticate: the stub's user table is empty, so credentials always fail. */
function basic(authorization: string | undefined): DrfError | null {
  const parts = authorizationParts(authorization);
  if (parts.length === 0 || parts[0]?.toLowerCase() !== 'basic') return null;
  if (parts.length === 1) return DRF_ERRORS.BASIC_NO_CREDENTIALS;
  if (parts.length > 2) return DRF_ERRORS.BASIC_SPACES;
  const decoded = pythonB64decode(parts[1] as string);
  if (decoded === undefined || !decoded.includes(':')) return DRF_ERRORS.BASIC_NOT_BASE64;
  return DRF_ERRORS.INVALID_USERNAME_PASSWORD;
}

/** What authentication reads of a request. */
export interface Credentials {
  readonly authorization: string | undefined;
  /** The `sessionid` cookie, if any. */
  readonly sessionKey: string | undefined;
  /** The reason CsrfViewMiddleware refuses the request, if it does (django/csrf.ts). */
  csrf(): string | undefined;
}

/**
 * SessionAuthentication.authenticate: a session of a logged-in user (one `--sessions` lists)
 * authenticates, and then enforces CSRF on an unsafe method ("CSRF Failed: …", a 403).
 */
function session(c: Credentials, sessions: ReadonlySet<string> | undefined): true | DrfError | null {
  if (c.sessionKey === undefined || sessions?.has(c.sessionKey) !== true) return null;
  const reason = c.csrf();
  if (reason === undefined) return true;
  return withMembers(DRF_ERRORS.PERMISSION_DENIED, {
    detail: csrfFailedDetail(reason),
    doc: 'SessionAuthentication.enforce_csrf',
  });
}

/** `Request._authenticate`: each authenticator in turn, until one answers a user or raises. */
export function authenticate(
  authenticators: readonly Authenticator[],
  credentials: Credentials,
  known: { readonly tokens: ReadonlySet<string> | undefined; readonly sessions: ReadonlySet<string> | undefined },
): Authenticated {
  let sessionRead = false;
  for (const a of authenticators) {
    const result =
      a.kind === 'token'
        ? token(a, credentials.authorization, known.tokens)
        : a.kind === 'basic'
          ? basic(credentials.authorization)
          : session(credentials, known.sessions);
    if (a.kind === 'session') sessionRead = true;
    if (result === true) return { user: true, sessionRead };
    if (result !== null) return { user: false, sessionRead, error: result };
  }
  return { user: false, sessionRead };
}

/**
 * `APIView.get_authenticate_header`: the first authenticator's `WWW-Authenticate`; without one,
 * NotAuthenticated and AuthenticationFailed are answered 403 instead of 401.
 */
export function authenticateHeader(authenticators: readonly Authenticator[]): string | undefined {
  const first = authenticators[0];
  if (first?.kind === 'token') return first.keyword;
  if (first?.kind === 'basic') return 'Basic realm="api"';
  return undefined;
}
