import { compareStr } from './str.js';
import { quotePlus } from './quote.js';
/**
 * Python's `urllib.parse` as DRF uses it to build pagination links
 * (rest_framework/utils/urls.py: `replace_query_param`, `remove_query_param`):
 * `parse_qs(query, keep_blank_values=True)`, then `urlencode(sorted(items), doseq=True)`.
 * Reproduced here so that the stub's `next`/`previous` are byte-identical to the service's.
 */

/** Parsed query: keys in first-seen order, each with all its values in order (parse_qs). */
export type QueryMap = Map<string, string[]>;

const HEX = /^[0-9A-Fa-f]{2}$/;
// ignoreBOM: a leading U+FEFF is a character of the value, not a mark to drop (Python keeps it).
const decoder = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });
const encoder = new TextEncoder();

/**
 * `urllib.parse.unquote(s.replace('+', ' '))`: percent-escapes become bytes, decoded as UTF-8 with
 * U+FFFD for invalid sequences; an escape that is not two hex digits stays as it is.
 * `raw` holds one char per byte of the request line (latin1), so non-ASCII bytes stay bytes;
 * with `text`, it is text already (a form body Django decoded), and only the escapes are bytes.
 */
export function unquotePlus(raw: string, text = false): string {
  const s = raw.replaceAll('+', ' ');
  if (!s.includes('%') && (text || !/[\u0080-\u00ff]/.test(s))) return s;
  const bytes: number[] = [];
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x25 && HEX.test(s.slice(i + 1, i + 3))) {
      bytes.push(Number.parseInt(s.slice(i + 1, i + 3), 16));
      i += 2;
    } else if (c < 0x80 || (c < 0x100 && !text)) {
      bytes.push(c);
    } else {
      // Already decoded text (a caller passing a JS string): keep its UTF-8 bytes.
      const cp = s.codePointAt(i) ?? c;
      bytes.push(...encoder.encode(String.fromCodePoint(cp)));
      if (cp > 0xffff) i++;
    }
  }
  return decoder.decode(Uint8Array.from(bytes));
}

/** Django's QueryDict limit (DATA_UPLOAD_MAX_NUMBER_FIELDS): more fields is TooManyFieldsSent, a 400. */
export const MAX_QUERY_FIELDS = 1000;

/** The field count Python's parse_qsl checks against its limit: one more than the separators. */
export function queryFieldCount(raw: string): number {
  let n = 1;
  for (let i = raw.indexOf('&'); i !== -1; i = raw.indexOf('&', i + 1)) n++;
  return n;
}

/**
 * `parse_qs(query, keep_blank_values=True)`: `&` separates, empty parts are skipped (`text`: the
 * query is text already, see unquotePlus).
 */
export function parseQuery(rawQuery: string, text = false): QueryMap {
  const out: QueryMap = new Map();
  if (rawQuery === '') return out;
  for (const part of rawQuery.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const key = unquotePlus(eq === -1 ? part : part.slice(0, eq), text);
    const value = eq === -1 ? '' : unquotePlus(part.slice(eq + 1), text);
    const list = out.get(key);
    if (list) list.push(value);
    else out.set(key, [value]);
  }
  return out;
}

/** The value Django's `QueryDict.get(key)` answers: the last one given. */
export function lastValue(query: QueryMap, key: string): string | undefined {
  const values = query.get(key);
  return values === undefined ? undefined : values[values.length - 1];
}

/** `urlencode(sorted(query.items()), doseq=True)`. */
export function encodeSortedQuery(query: QueryMap): string {
  const keys = [...query.keys()].sort(compareStr);
  const parts: string[] = [];
  for (const key of keys) {
    const k = quotePlus(key);
    for (const v of query.get(key) ?? []) parts.push(`${k}=${quotePlus(v)}`);
  }
  return parts.join('&');
}

/** `urlunsplit`: the `?` appears only when there is a query. */
export function withQuery(url: string, query: string): string {
  return query === '' ? url : `${url}?${query}`;
}
