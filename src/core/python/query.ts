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
      const cp = s.codePointAt(i) ?? c;
      bytes.push(...encoder.encode(String.fromCodePoint(cp)));
      if (cp > 0xffff) i++;
    }
  }
  return decoder.decode(Uint8Array.from(bytes));
}

/**
 * The query as `request.build_absolute_uri()` sees it (pagination links): the WSGI environ's
 * QUERY_STRING holds raw bytes as latin-1 characters, and `iri_to_uri` encodes those characters
 * as UTF-8, so a raw `ü` (bytes C3 BC) comes back as `%C3%83%C2%BC` (`request.GET` itself
 * decodes the bytes as UTF-8: `ü`). A percent-encoded query, which any browser sends, is the same
 * either way.
 */
export function linkQueryString(raw: string): string {
  return /[\u0080-\u00ff]/.test(raw)
    ? raw.replace(/[\u0080-\u00ff]/g, (ch) =>
        [...encoder.encode(ch)].map((b) => `%${b.toString(16).toUpperCase()}`).join(''),
      )
    : raw;
}

/** Django's QueryDict limit (DATA_UPLOAD_MAX_NUMBER_FIELDS): more fields is TooManyFieldsSent, a 400. */
export const MAX_QUERY_FIELDS = 1000;

/** The field count Python's parse_qsl checks against its limit: one more than the separators. */
export function queryFieldCount(raw: string): number {
  let n = 1;
  for (let i = raw.indexOf('&'); i !== -1; i = raw.indexOf('&', i + 1)) n++;
  return n;
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
    else for (const b of encoder.encode(ch)) out += `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
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

// Python's int(str) (Objects/longobject.c): any Unicode decimal digit (category Nd) counts as its
// ASCII digit and any Unicode white space as a space (`_PyUnicode_TransformDecimalAndSpaceToASCII`);
// then surrounding white space, a sign, digits with single underscores between. The digit zeros
// below are Python 3.11's (`unicodedata.decimal(c) == 0`, Unicode 14), the version the reference
// deployment runs: every decimal digit is one of them plus 0 to 9.
const DIGIT_ZEROS = [
  0x30, 0x660, 0x6f0, 0x7c0, 0x966, 0x9e6, 0xa66, 0xae6, 0xb66, 0xbe6, 0xc66, 0xce6, 0xd66, 0xde6, 0xe50, 0xed0, 0xf20,
  0x1040, 0x1090, 0x17e0, 0x1810, 0x1946, 0x19d0, 0x1a80, 0x1a90, 0x1b50, 0x1bb0, 0x1c40, 0x1c50, 0xa620, 0xa8d0,
  0xa900, 0xa9d0, 0xa9f0, 0xaa50, 0xabf0, 0xff10, 0x104a0, 0x10d30, 0x11066, 0x110f0, 0x11136, 0x111d0, 0x112f0,
  0x11450, 0x114d0, 0x11650, 0x116c0, 0x11730, 0x118e0, 0x11950, 0x11c50, 0x11d50, 0x11da0, 0x16a60, 0x16ac0, 0x16b50,
  0x1d7ce, 0x1d7d8, 0x1d7e2, 0x1d7ec, 0x1d7f6, 0x1e140, 0x1e2f0, 0x1e950, 0x1fbf0,
];
// str.isspace(): Python's white space, which is not JavaScript's \s (no U+FEFF; U+001C–U+001F and U+0085 are).
const PY_SPACE = /^[\t\n\v\f\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]$/;
const ASCII_INT = /^ *([+-]?)([0-9](?:_?[0-9])*) *$/;

function asciiDigit(cp: number): number | undefined {
  for (let i = DIGIT_ZEROS.length - 1; i >= 0; i--) {
    const zero = DIGIT_ZEROS[i] as number;
    if (cp >= zero) return cp - zero <= 9 ? cp - zero : undefined;
  }
  return undefined;
}

/**
 * `_PyUnicode_TransformDecimalAndSpaceToASCII`: every Unicode decimal digit as its ASCII digit,
 * every Unicode white space as a space, other ASCII as it is; undefined for any other character.
 */
function asciiNumberText(raw: string): string | undefined {
  if (/^[ -~]*$/.test(raw)) return raw;
  let s = '';
  for (const ch of raw) {
    const cp = ch.codePointAt(0) ?? 0;
    if (cp < 0x80) s += ch;
    else if (PY_SPACE.test(ch)) s += ' ';
    else {
      const d = asciiDigit(cp);
      if (d === undefined) return undefined;
      s += String(d);
    }
  }
  return s;
}

/** `int(s)` as Python reads a string (for DRF's page numbers and Django's integer pks), or undefined. */
export function pythonInt(raw: string): bigint | undefined {
  const text = asciiNumberText(raw);
  if (text === undefined) return undefined;
  const m = ASCII_INT.exec(text.replace(/[\t\n\v\f\r\x1c-\x1f]/g, ' '));
  return m ? BigInt(`${m[1] ?? ''}${(m[2] ?? '').replaceAll('_', '')}`) : undefined;
}

/**
 * `Decimal(s)` as Python reads a string (django.forms.DecimalField, django-filter's NumberFilter):
 * white space around, any Unicode decimal digit, single underscores between digits; finite only
 * (NaN and Infinity are read, then refused by the field). Undefined when it is no number.
 */
export function pythonDecimal(raw: string): number | undefined {
  const s = asciiNumberText(raw)
    ?.replace(/[\t\n\v\f\r\x1c-\x1f]/g, ' ')
    .trim();
  if (
    s === undefined ||
    !/^[+-]?(?:\d(?:_?\d)*(?:\.(?:\d(?:_?\d)*)?)?|\.\d(?:_?\d)*)(?:[eE][+-]?\d(?:_?\d)*)?$/.test(s)
  )
    return undefined;
  const n = Number(s.replaceAll('_', ''));
  return Number.isFinite(n) ? n : undefined;
}
