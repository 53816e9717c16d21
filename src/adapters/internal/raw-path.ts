const encoder = new TextEncoder();

export const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** One hex digit of a `%XX` escape, in either case. */
function hexDigit(d: string): string {
  return /[0-9]/.test(d) ? d : `[${d.toUpperCase()}${d.toLowerCase()}]`;
}

/** The `%XX` escapes of one character's UTF-8 bytes, hex digits in either case. */
function escaped(ch: string): string {
  let out = '';
  for (const b of encoder.encode(ch)) {
    const hex = b.toString(16).padStart(2, '0');
    out += `%${hexDigit(hex[0] as string)}${hexDigit(hex[1] as string)}`;
  }
  return out;
}

/**
 * A RegExp source matching every spelling of the decoded `path` in a WHATWG-parsed pathname: each
 * ASCII character literal or percent-encoded, any other only percent-encoded (as the URL parser
 * leaves it). The core decodes a path as Django's WSGI handler does (`/api/v1/d%65sk` is the
 * desk list), so an adapter that routes by path must accept what the core would answer.
 */
export function anySpelling(path: string): string {
  let out = '';
  for (const ch of path) {
    const literal = ch.charCodeAt(0) < 0x80 ? escapeRegExp(ch) : undefined;
    out += literal === undefined ? escaped(ch) : `(?:${literal}|${escaped(ch)})`;
  }
  return out;
}
