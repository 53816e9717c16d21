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

/** `str(v)` of a JSON value as Python holds it: None, True/False, numbers and text as written. */
export function pyStr(v: unknown): string {
  if (v === null) return 'None';
  if (typeof v === 'boolean') return v ? 'True' : 'False';
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return String(v);
  return JSON.stringify(v);
}

/** django.utils.text.capfirst. */
export function capfirst(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
