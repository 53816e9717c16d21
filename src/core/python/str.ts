/**
 * Python's `str` behaviour where it differs from JavaScript's: its white space (`str.isspace`,
 * which is not `\s`: U+001C–U+001F and U+0085 are spaces, U+FEFF is not) and `str()` of a value
 * parsed from JSON.
 */

/** The characters `str.isspace()` accepts, as a class body for a regular expression. */
const SPACE = '\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
const ONE_SPACE = new RegExp(`^[${SPACE}]$`);
const ENDS = new RegExp(`^[${SPACE}]+|[${SPACE}]+$`, 'g');

/** `ch.isspace()` for one character. */
export function isSpace(ch: string): boolean {
  return ONE_SPACE.test(ch);
}

/** `s.strip()`. */
export function strip(s: string): string {
  return s.replace(ENDS, '');
}

/**
 * Python's ordering of two str (`a < b`): by code point, where JavaScript's `<` compares UTF-16
 * units, which order otherwise past U+FFFF. Negative, zero or positive.
 */
export function compareStr(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  if (i === n) return a.length - b.length;
  const x = a.charCodeAt(i);
  const y = b.charCodeAt(i);
  // Units outside the surrogates are their code points.
  if ((x < 0xd800 || x > 0xdfff) && (y < 0xd800 || y > 0xdfff)) return x - y;
  // Else the code points decide: from the unit before when it is a high surrogate that either
  // string pairs with a low one here (a lone high surrogate is a code point of its own).
  const low = (u: number) => u >= 0xdc00 && u <= 0xdfff;
  const high = i > 0 && a.charCodeAt(i - 1) >= 0xd800 && a.charCodeAt(i - 1) <= 0xdbff;
  const j = high && (low(x) || low(y)) ? i - 1 : i;
  return (a.codePointAt(j) as number) - (b.codePointAt(j) as number);
}

/** `str(v)` of a JSON value as Python holds it: None, True/False, numbers and text as written. */
export function pyStr(v: unknown): string {
  return typeof v === 'string' ? v : pyRepr(v);
}

/**
 * `repr()` of what JSON gives Python: None, True, False, numbers, str in quotes (single unless
 * the text holds one and no double), lists and dicts with ', ' and ': ' (so `str(['S'])` is
 * `['S']`, as ChoiceField's message holds it). A float JSON wrote with a point (`1.0`) is a
 * whole number here: written `1`.
 */
function pyRepr(v: unknown): string {
  if (v === null || v === undefined) return 'None';
  if (typeof v === 'boolean') return v ? 'True' : 'False';
  if (typeof v === 'number') return pyNumber(v);
  if (typeof v === 'string') return reprText(v);
  if (Array.isArray(v)) return `[${v.map(pyRepr).join(', ')}]`;
  if (typeof v === 'object')
    return `{${Object.entries(v as Record<string, unknown>)
      .map(([k, x]) => `${reprText(k)}: ${pyRepr(x)}`)
      .join(', ')}}`;
  return String(v);
}

/**
 * A number as Python's repr writes it: as JavaScript does, but below 1e-4 in exponent form with
 * at least two exponent digits (`1.5e-05`, where JavaScript writes `0.000015` or `1e-7`).
 */
export function pyNumber(n: number): string {
  return Number.isInteger(n) || Math.abs(n) >= 1e-4 ? String(n) : n.toExponential().replace(/e-(\d)$/, 'e-0$1');
}

/** A str's repr: its quotes, and backslash escapes for the quote, backslash and what does not print. */
function reprText(t: string): string {
  const quote = t.includes("'") && !t.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of t) {
    const c = ch.codePointAt(0) as number;
    if (ch === quote || ch === '\\') out += `\\${ch}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (c < 0x20 || (c >= 0x7f && c < 0xa0)) out += `\\x${c.toString(16).padStart(2, '0')}`;
    else if (NOT_PRINTABLE.test(ch))
      out +=
        c < 0x100
          ? `\\x${c.toString(16).padStart(2, '0')}`
          : c > 0xffff
            ? `\\U${c.toString(16).padStart(8, '0')}`
            : `\\u${c.toString(16).padStart(4, '0')}`;
    else out += ch;
  }
  return out + quote;
}
/** str.isprintable's refusals beyond C0/C1: separators other than the space, format and unassigned code points, surrogates. */
const NOT_PRINTABLE = /[\p{Zl}\p{Zp}\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000\p{Cf}\p{Cn}\p{Cs}\p{Co}]/u;

/** django.utils.text.capfirst. */
export function capfirst(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
