import type { HeaderGetter } from './host.js';

/**
 * Django's SessionMiddleware, as it treats the answers of a deployment where no session exists
 * (django/contrib/sessions/middleware.py, backends/base.py): a request carrying a `sessionid`
 * cookie whose session turns out empty gets the cookie deleted and `Vary: Cookie`. A key shorter
 * than 8 characters is invalid at once; a longer one is looked up (and found empty) only when the
 * session is read, which DRF's SessionAuthentication does: otherwise nothing changes.
 */
export const SESSION_COOKIE = 'sessionid';

/** django.http.cookie.parse_cookie: `;`-separated `name=value`, the last of a name wins. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  if (header === undefined) return undefined;
  let found: string | undefined;
  for (const chunk of header.split(';')) {
    const eq = chunk.indexOf('=');
    const key = (eq === -1 ? '' : chunk.slice(0, eq)).trim();
    const value = (eq === -1 ? chunk : chunk.slice(eq + 1)).trim();
    if (key === name)
      found = value.length >= 2 && value.startsWith('"') && value.endsWith('"') ? value.slice(1, -1) : value;
  }
  return found;
}

/** What SessionMiddleware.process_response adds: the `Set-Cookie` deleting an empty session's cookie, if any. */
export function sessionCookieDeletion(
  header: HeaderGetter,
  accessed: boolean,
  /** The sessions that exist (`--sessions`): theirs is not empty, and never deleted. */
  sessions?: ReadonlySet<string>,
): string | undefined {
  const key = cookieValue(header('cookie'), SESSION_COOKIE);
  if (key === undefined || sessions?.has(key) === true) return undefined;
  const empty = key.length < 8 || accessed;
  if (!empty) return undefined;
  return `${SESSION_COOKIE}=""; expires=Thu, 01 Jan 1970 00:00:00 GMT; Max-Age=0; Path=/; SameSite=Lax`;
}

/** `patch_vary_headers(response, ('Cookie',))`. */
export function withVaryCookie(vary: string | undefined): string {
  if (vary === undefined || vary === '') return 'Cookie';
  return vary.split(',').some((v) => v.trim().toLowerCase() === 'cookie') ? vary : `${vary}, Cookie`;
}
