/**
 * How Django turns a request target into `path_info` (django/core/handlers/wsgi.py), escapes a
 * path for an absolute link, and writes an argument into a path (`reverse()`).
 */
import { quote, quoteBytes } from '../python/quote.js';
import { oneByte } from '../one-byte.js';
import { firstDecodeError } from '../python/utf8.js';

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

/** Django's `get_path_info`: the decoded path, with bytes that are not UTF-8 percent-encoded again. */
export function pathInfo(rawPath: string): string {
  const bytes = Uint8Array.from(pathBytes(rawPath));
  let out = '';
  let start = 0;
  // django.utils.encoding.repercent_broken_unicode, one decode error at a time.
  for (let bad = firstDecodeError(bytes, 0); bad !== undefined; bad = firstDecodeError(bytes, start)) {
    out += utf8.decode(bytes.subarray(start, bad.start));
    out += quoteBytes(bytes.subarray(bad.start, bad.end), "/#%[]=:;$&()+,!?*@'~");
    start = bad.end;
  }
  return out + utf8.decode(bytes.subarray(start));
}

/** `escape_uri_path`: the path as `request.get_full_path()` gives it, for absolute links. */
export function escapeUriPath(path: string): string {
  return quote(path, "/:@&+$,-_.!~*'()");
}

// DRF's router pk pattern `[^/.]+`: a pk that cannot stand in a path cannot be addressed.
export const PK_SEGMENT = /^[^/.]+$/;

/** The item path around its pk: `/api/v1/desk/{pk}` → [`/api/v1/desk/`, ``]. */
export function itemPathParts(detail: { path: string; pkParam: string }): readonly [string, string] {
  let parts = pathParts.get(detail);
  if (parts === undefined) {
    const [before = '', after = ''] = detail.path.split(`{${detail.pkParam}}`);
    // Every list answer is made of them: kept one byte a character where they can be.
    parts = [oneByte(before), oneByte(after)];
    pathParts.set(detail, parts);
  }
  return parts;
}
/** Each operation's item path parts, made once (an operation is never changed). */
const pathParts = new WeakMap<{ readonly path: string; readonly pkParam: string }, readonly [string, string]>();

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
  /** The same as plain text: the url is `${before}${reverseQuote(pk)}${after}`. */
  readonly before: string;
  readonly after: string;
}

/** How Django's `reverse()` writes an argument into a path (RFC 3986's sub-delimiters and /~:@ safe). */
export function reverseQuote(value: string): string {
  return quote(value, "!$&'()*+,;=~:@");
}

/** The absolute url of an item (its `url` member, and `Location` after a create). */
export function itemUrl(url: ItemUrlParts, pk: string): string {
  return `${url.before}${reverseQuote(pk)}${url.after}`;
}

/** django.utils.encoding.iri_to_uri. */
export function iriToUri(iri: string): string {
  return quote(iri, "/#%[]=:;$&()+,!?*@'~");
}

/**
 * CommonMiddleware's APPEND_SLASH target, `request.get_full_path(force_append_slash=True)`: the
 * query as the WSGI server passed it, one char per byte, each byte escaped as itself.
 */
export function withAppendedSlash(path: string, rawQuery: string): string {
  if (rawQuery === '') return `${escapeUriPath(path)}/`;
  const bytes: number[] = [];
  for (const ch of rawQuery) {
    const cp = ch.codePointAt(0) as number;
    if (cp < 0x100) bytes.push(cp);
    else bytes.push(...encoder.encode(ch));
  }
  return `${escapeUriPath(path)}/?${quoteBytes(bytes, "/#%[]=:;$&()+,!?*@'~")}`;
}
