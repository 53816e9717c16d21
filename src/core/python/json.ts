/**
 * JSON as Python's `json.loads` reads it (its C scanner, CPython 3.11), for DRF's JSONParser: the
 * same values, and on failure the same message, `Expecting value: line 1 column 1 (char 0)`,
 * which DRF answers as `{"detail": "JSON parse error - <message>"}`. With DRF's STRICT_JSON,
 * NaN and Infinity are refused (rest_framework/utils/json.py strict_constant).
 */
export type PyJson = { ok: true; value: unknown } | { ok: false; message: string };

class Fail {
  constructor(
    readonly msg: string,
    readonly pos: number,
  ) {}
}

const NUMBER = /-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?/y;
const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
};
const MAX_INT_DIGITS = 4300;
const HEX4 = /^[0-9a-fA-F]{4}$/;

/** Python's str index of a UTF-16 offset: code points before it. */
function codePointIndex(text: string, offset: number): number {
  let n = 0;
  for (let k = 0; k < offset; k++) {
    const c = text.charCodeAt(k);
    // A high surrogate followed by a low one is one code point.
    if (c >= 0xd800 && c <= 0xdbff && k + 1 < offset) {
      const d = text.charCodeAt(k + 1);
      if (d >= 0xdc00 && d <= 0xdfff) k++;
    }
    n++;
  }
  return n;
}

/** `json.JSONDecodeError`'s text: the message, then line, column and char of the position. */
function located(text: string, msg: string, offset: number): string {
  const pos = codePointIndex(text, offset);
  const lastNewline = text.lastIndexOf('\n', offset - 1);
  let line = 1;
  for (let k = text.indexOf('\n'); k !== -1 && k < offset; k = text.indexOf('\n', k + 1)) line++;
  const col = lastNewline === -1 ? pos + 1 : pos - codePointIndex(text, lastNewline);
  return `${msg}: line ${line} column ${col} (char ${pos})`;
}

const isWs = (c: number): boolean => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;

export function parsePythonJson(text: string): PyJson {
  // Offsets are UTF-16 units here; a message counts code points, as Python counts str indices.
  const n = text.length;
  let i = 0;
  const skip = () => {
    while (i < n && isWs(text.charCodeAt(i))) i++;
  };
  const value = (depth: number): unknown => {
    if (depth > 1000) throw new Fail('Maximum nesting depth exceeded', i);
    const c = text[i];
    if (c === '"') return string();
    if (c === '{') return object(depth);
    if (c === '[') return array(depth);
    if (c === 'n' && text.startsWith('null', i)) return ((i += 4), null);
    if (c === 't' && text.startsWith('true', i)) return ((i += 4), true);
    if (c === 'f' && text.startsWith('false', i)) return ((i += 5), false);
    for (const constant of ['NaN', 'Infinity', '-Infinity']) {
      if (text.startsWith(constant, i))
        throw new Fail(`Out of range float values are not JSON compliant: '${constant}'`, -1);
    }
    NUMBER.lastIndex = i;
    const m = NUMBER.exec(text);
    if (m && m[0] !== '-') {
      i += m[0].length;
      // int() of more than sys.get_int_max_str_digits() digits raises (CPython 3.11+).
      const digits = m[0].length - (m[0].startsWith('-') ? 1 : 0);
      if (m[1] === undefined && m[2] === undefined && digits > MAX_INT_DIGITS) {
        throw new Fail(
          `Exceeds the limit (${MAX_INT_DIGITS} digits) for integer string conversion: value has ${digits} digits; use sys.set_int_max_str_digits() to increase the limit`,
          -1,
        );
      }
      return Number(m[0]);
    }
    throw new Fail('Expecting value', i);
  };
  const string = (): string => {
    const start = i;
    i++;
    let out = '';
    for (;;) {
      // The run up to the next quote, backslash or control character is copied at once.
      let k = i;
      while (k < n) {
        const c = text.charCodeAt(k);
        if (c === 0x22 || c === 0x5c || c < 0x20) break;
        k++;
      }
      out += text.slice(i, k);
      i = k;
      if (i >= n) throw new Fail('Unterminated string starting at', start);
      const c = text[i] as string;
      if (c === '"') {
        i++;
        return out;
      }
      if (c !== '\\') throw new Fail('Invalid control character at', i);
      const e = text[i + 1];
      if (e === undefined) throw new Fail('Unterminated string starting at', start);
      const simple = SIMPLE_ESCAPES[e];
      if (simple !== undefined) {
        out += simple;
        i += 2;
        continue;
      }
      if (e !== 'u') throw new Fail('Invalid \\escape', i);
      const hex = text.slice(i + 2, i + 6);
      if (!HEX4.test(hex)) throw new Fail('Invalid \\uXXXX escape', i + 1);
      let code = Number.parseInt(hex, 16);
      i += 6;
      if (code >= 0xd800 && code <= 0xdbff && text[i] === '\\' && text[i + 1] === 'u') {
        const low = text.slice(i + 2, i + 6);
        const lowCode = HEX4.test(low) ? Number.parseInt(low, 16) : -1;
        if (lowCode >= 0xdc00 && lowCode <= 0xdfff) {
          code = 0x10000 + ((code - 0xd800) << 10) + (lowCode - 0xdc00);
          i += 6;
        }
      }
      out += String.fromCodePoint(code);
    }
  };
  const object = (depth: number): Record<string, unknown> => {
    const out: Record<string, unknown> = {};
    i++;
    skip();
    if (text[i] === '}') return (i++, out);
    for (;;) {
      if (text[i] !== '"') throw new Fail('Expecting property name enclosed in double quotes', i);
      const key = string();
      skip();
      if (text[i] !== ':') throw new Fail("Expecting ':' delimiter", i);
      i++;
      skip();
      const v = value(depth + 1);
      Object.defineProperty(out, key, { value: v, enumerable: true, writable: true, configurable: true });
      skip();
      if (text[i] === '}') return (i++, out);
      if (text[i] !== ',') throw new Fail("Expecting ',' delimiter", i);
      i++;
      skip();
    }
  };
  const array = (depth: number): unknown[] => {
    const out: unknown[] = [];
    i++;
    skip();
    if (text[i] === ']') return (i++, out);
    for (;;) {
      out.push(value(depth + 1));
      skip();
      if (text[i] === ']') return (i++, out);
      if (text[i] !== ',') throw new Fail("Expecting ',' delimiter", i);
      i++;
      skip();
    }
  };
  try {
    if (text.startsWith('\ufeff')) throw new Fail('Unexpected UTF-8 BOM (decode using utf-8-sig)', 0);
    skip();
    const v = value(0);
    skip();
    if (i < n) throw new Fail('Extra data', i);
    return { ok: true, value: v };
  } catch (e) {
    if (!(e instanceof Fail)) throw e;
    return { ok: false, message: e.pos < 0 ? e.msg : located(text, e.msg, e.pos) };
  }
}
