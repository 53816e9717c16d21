/**
 * Python's `urllib.parse` as DRF uses it to build pagination links
 * (rest_framework/utils/urls.py: `replace_query_param`, `remove_query_param`):
 * `parse_qs(query, keep_blank_values=True)`, then `urlencode(sorted(items), doseq=True)`.
 * Reproduced here so that the stub's `next`/`previous` are byte-identical to the service's.
 */

/** Parsed query: keys in first-seen order, each with all its values in order (parse_qs). */
export type QueryMap = Map<string, string[]>;

const HEX = /^[0-9A-Fa-f]{2}$/;
const decoder = new TextDecoder('utf-8', { fatal: false });

/**
 * `urllib.parse.unquote(s.replace('+', ' '))`: percent-escapes become bytes, decoded as UTF-8 with
 * U+FFFD for invalid sequences; an escape that is not two hex digits stays as it is.
 * `raw` holds one char per byte of the request line (latin1), so non-ASCII bytes stay bytes.
 */
export function unquotePlus(raw: string): string {
  const s = raw.replaceAll('+', ' ');
  if (!s.includes('%') && !/[\u0080-\u00ff]/.test(s)) return s;
  const bytes: number[] = [];
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x25 && HEX.test(s.slice(i + 1, i + 3))) {
      bytes.push(Number.parseInt(s.slice(i + 1, i + 3), 16));
      i += 2;
    } else if (c < 0x100) {
      bytes.push(c);
    } else {
      // Already decoded text (a caller passing a JS string): keep its UTF-8 bytes.
      bytes.push(...Buffer.from(s[i] ?? '', 'utf8'));
    }
  }
  return decoder.decode(Uint8Array.from(bytes));
}

/** `parse_qs(query, keep_blank_values=True)`: `&` separates, empty parts are skipped. */
export function parseQuery(rawQuery: string): QueryMap {
  const out: QueryMap = new Map();
  if (rawQuery === '') return out;
  for (const part of rawQuery.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const key = unquotePlus(eq === -1 ? part : part.slice(0, eq));
    const value = eq === -1 ? '' : unquotePlus(part.slice(eq + 1));
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

// Python's quote() never escapes these (urllib.parse._ALWAYS_SAFE); urlencode passes safe=''.
const ALWAYS_SAFE = /[A-Za-z0-9_.\-~]/;

/** `urllib.parse.quote_plus(s, safe='')`: UTF-8 percent-encoding, upper-case hex, space as `+`. */
export function quotePlus(value: string): string {
  let out = '';
  for (const ch of value) {
    if (ch === ' ') out += '+';
    else if (ALWAYS_SAFE.test(ch)) out += ch;
    else for (const b of Buffer.from(ch, 'utf8')) out += `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** Python compares str by code point; JS `<` compares UTF-16 units, which differs past U+FFFF. */
function compareCodePoints(a: string, b: string): number {
  const ia = a[Symbol.iterator]();
  const ib = b[Symbol.iterator]();
  for (;;) {
    const x = ia.next();
    const y = ib.next();
    if (x.done || y.done) return (x.done ? 0 : 1) - (y.done ? 0 : 1);
    const d = (x.value.codePointAt(0) ?? 0) - (y.value.codePointAt(0) ?? 0);
    if (d !== 0) return d;
  }
}

/** `urlencode(sorted(query.items()), doseq=True)`. */
export function encodeSortedQuery(query: QueryMap): string {
  const keys = [...query.keys()].sort(compareCodePoints);
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

// Python's int(str): surrounding white space, a sign, ASCII digits with single underscores between.
const PY_INT = /^\s*([+-]?)([0-9](?:_?[0-9])*)\s*$/;

/** `int(s)` as Python reads a string (for DRF's page numbers and Django's integer pks), or undefined. */
export function pythonInt(raw: string): bigint | undefined {
  const m = PY_INT.exec(raw);
  return m ? BigInt(`${m[1] ?? ''}${(m[2] ?? '').replaceAll('_', '')}`) : undefined;
}
