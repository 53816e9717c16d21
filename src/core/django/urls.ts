/**
 * How Django turns a request target into `path_info` (django/core/handlers/wsgi.py), escapes a
 * path for an absolute link, and writes an argument into a path (`reverse()`).
 */
const HEX = /^[0-9A-Fa-f]{2}$/;
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const encoder = new TextEncoder();

/**
 * The bytes of a request path as the WSGI server gives them to Django: every `%XX` decoded (a
 * `%2F` too: wsgiref's `unquote(path, 'iso-8859-1')`); `raw` holds one char per byte (latin1),
 * as Node's HTTP parser gives the request line, or a WHATWG-encoded pathname.
 */
function pathBytes(raw: string): number[] {
  const bytes: number[] = [];
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (c === 0x25 && HEX.test(raw.slice(i + 1, i + 3))) {
      bytes.push(Number.parseInt(raw.slice(i + 1, i + 3), 16));
      i += 2;
    } else if (c < 0x100) bytes.push(c);
    else for (const b of encoder.encode(String.fromCodePoint(raw.codePointAt(i) ?? c))) bytes.push(b);
    if (c >= 0xd800 && c <= 0xdbff) i++;
  }
  return bytes;
}

// django.utils.encoding.repercent_broken_unicode: quote(..., safe=b"/#%[]=:;$&()+,!?*@'~").
const REPERCENT_SAFE = new Set([..."/#%[]=:;$&()+,!?*@'~_.-"].map((c) => c.charCodeAt(0)));

/** Django's `get_path_info`: the decoded path, with bytes that are not UTF-8 percent-encoded again. */
export function pathInfo(rawPath: string): string {
  const bytes = pathBytes(rawPath);
  let out = '';
  let start = 0;
  for (;;) {
    const bad = firstInvalid(bytes, start);
    out += utf8.decode(Uint8Array.from(bytes.slice(start, bad.at)));
    if (bad.length === 0) return out;
    for (let i = bad.at; i < bad.at + bad.length; i++) {
      const b = bytes[i] as number;
      out +=
        isAlnum(b) || REPERCENT_SAFE.has(b)
          ? String.fromCharCode(b)
          : `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
    }
    start = bad.at + bad.length;
  }
}

function isAlnum(b: number): boolean {
  return (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a);
}

/**
 * Python's UnicodeDecodeError range for the first invalid UTF-8 sequence from `from`: a bad lead
 * byte alone, or a lead byte with the continuation bytes that were valid before the break.
 */
function firstInvalid(bytes: readonly number[], from: number): { at: number; length: number } {
  let i = from;
  while (i < bytes.length) {
    const b = bytes[i] as number;
    const need =
      b < 0x80 ? 0 : b >= 0xc2 && b <= 0xdf ? 1 : b >= 0xe0 && b <= 0xef ? 2 : b >= 0xf0 && b <= 0xf4 ? 3 : -1;
    if (need < 0) return { at: i, length: 1 };
    let ok = 0;
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k];
      const lo = k === 1 && b === 0xe0 ? 0xa0 : k === 1 && b === 0xf0 ? 0x90 : 0x80;
      const hi = k === 1 && b === 0xed ? 0x9f : k === 1 && b === 0xf4 ? 0x8f : 0xbf;
      if (c === undefined || c < lo || c > hi) break;
      ok++;
    }
    if (ok < need) return { at: i, length: 1 + ok };
    i += need + 1;
  }
  return { at: bytes.length, length: 0 };
}

// django.utils.encoding.escape_uri_path: quote(path, safe="/:@&+$,-_.!~*'()").
const URI_PATH_SAFE = new Set([..."/:@&+$,-_.!~*'()"].map((c) => c.charCodeAt(0)));

/** `escape_uri_path`: the path as `request.get_full_path()` gives it, for absolute links. */
export function escapeUriPath(path: string): string {
  let out = '';
  for (const b of encoder.encode(path)) {
    out +=
      isAlnum(b) || URI_PATH_SAFE.has(b) ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

// DRF's router pk pattern `[^/.]+`: a pk that cannot stand in a path cannot be addressed.
export const PK_SEGMENT = /^[^/.]+$/;

/** The item path around its pk: `/api/v1/desk/{pk}` → [`/api/v1/desk/`, ``]. */
export function itemPathParts(detail: { path: string; pkParam: string }): readonly [string, string] {
  const [before = '', after = ''] = detail.path.split(`{${detail.pkParam}}`);
  return [before, after];
}

export function itemUrlPath(detail: { path: string; pkParam: string }, pk: string): string {
  const [before, after] = itemPathParts(detail);
  return `${before}${reverseQuote(pk)}${after}`;
}

/**
 * What a request puts into every item url: `head` is the JSON string literal of the base URL and
 * the item path up to the pk, without its closing quote; `tail` the rest of the path and the query.
 */
export interface ItemUrlParts {
  readonly head: string;
  readonly tail: string;
}

// django.urls.resolvers: reverse() quotes each argument with RFC 3986's sub-delimiters and /~:@ safe.
const REVERSE_SAFE = /[A-Za-z0-9_.\-~!$&'()*+,;=:@]/;

/** A text of safe characters only, which `reverse()` writes as it is (an integer pk, a slug): one test, not one a character. */
const REVERSE_SAFE_TEXT = /^[A-Za-z0-9_.\-~!$&'()*+,;=:@]*$/;

/** How Django's `reverse()` writes a pk into a path. */
export function reverseQuote(value: string): string {
  if (REVERSE_SAFE_TEXT.test(value)) return value;
  let out = '';
  for (const ch of value) {
    if (REVERSE_SAFE.test(ch)) out += ch;
    else for (const b of encoder.encode(ch)) out += `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}
