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

const WS = /[ \t\n\r]/;
const NUMBER = /^-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?/;

/** `json.JSONDecodeError`'s text: the message, then line, column and char of the position. */
function located(text: string, msg: string, pos: number): string {
  const before = [...text].slice(0, pos).join('');
  const line = before.split('\n').length;
  const col = line === 1 ? pos + 1 : pos - [...before].lastIndexOf('\n');
  return `${msg}: line ${line} column ${col} (char ${pos})`;
}

export function parsePythonJson(input: string): PyJson {
  // Positions are counted in code points, as Python counts str indices.
  const text = input;
  const chars = [...text];
  let i = 0;
  const skip = () => {
    while (i < chars.length && WS.test(chars[i] as string)) i++;
  };
  const value = (depth: number): unknown => {
    if (depth > 1000) throw new Fail('Maximum nesting depth exceeded', i);
    const c = chars[i];
    if (c === '"') return string();
    if (c === '{') return object(depth);
    if (c === '[') return array(depth);
    if (c === 'n' && chars.slice(i, i + 4).join('') === 'null') return (i += 4), null;
    if (c === 't' && chars.slice(i, i + 4).join('') === 'true') return (i += 4), true;
    if (c === 'f' && chars.slice(i, i + 5).join('') === 'false') return (i += 5), false;
    for (const constant of ['NaN', 'Infinity', '-Infinity']) {
      if (chars.slice(i, i + constant.length).join('') === constant) throw new Fail(`Out of range float values are not JSON compliant: '${constant}'`, -1);
    }
    const m = NUMBER.exec(chars.slice(i, i + 400).join(''));
    if (m && m[0] !== '-') {
      i += m[0].length;
      return Number(m[0]);
    }
    throw new Fail('Expecting value', i);
  };
  const string = (): string => {
    const start = i;
    i++;
    let out = '';
    for (;;) {
      if (i >= chars.length) throw new Fail('Unterminated string starting at', start);
      const c = chars[i] as string;
      if (c === '"') {
        i++;
        return out;
      }
      if (c === '\\') {
        const e = chars[i + 1];
        if (e === undefined) throw new Fail('Unterminated string starting at', start);
        const simple: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
        if (e in simple) {
          out += simple[e];
          i += 2;
          continue;
        }
        if (e === 'u') {
          const hex = chars.slice(i + 2, i + 6).join('');
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) throw new Fail('Invalid \\uXXXX escape', i + 1);
          let code = Number.parseInt(hex, 16);
          i += 6;
          if (code >= 0xd800 && code <= 0xdbff && chars[i] === '\\' && chars[i + 1] === 'u') {
            const low = chars.slice(i + 2, i + 6).join('');
            if (/^[0-9a-fA-F]{4}$/.test(low) && Number.parseInt(low, 16) >= 0xdc00 && Number.parseInt(low, 16) <= 0xdfff) {
              code = 0x10000 + ((code - 0xd800) << 10) + (Number.parseInt(low, 16) - 0xdc00);
              i += 6;
            }
          }
          out += String.fromCodePoint(code);
          continue;
        }
        throw new Fail('Invalid \\escape', i);
      }
      if (c < ' ') throw new Fail('Invalid control character at', i);
      out += c;
      i++;
    }
  };
  const object = (depth: number): Record<string, unknown> => {
    const out: Record<string, unknown> = {};
    i++;
    skip();
    if (chars[i] === '}') return (i++, out);
    for (;;) {
      if (chars[i] !== '"') throw new Fail('Expecting property name enclosed in double quotes', i);
      const key = string();
      skip();
      if (chars[i] !== ':') throw new Fail("Expecting ':' delimiter", i);
      i++;
      skip();
      const v = value(depth + 1);
      Object.defineProperty(out, key, { value: v, enumerable: true, writable: true, configurable: true });
      skip();
      if (chars[i] === '}') return (i++, out);
      if (chars[i] !== ',') throw new Fail("Expecting ',' delimiter", i);
      i++;
      skip();
    }
  };
  const array = (depth: number): unknown[] => {
    const out: unknown[] = [];
    i++;
    skip();
    if (chars[i] === ']') return (i++, out);
    for (;;) {
      out.push(value(depth + 1));
      skip();
      if (chars[i] === ']') return (i++, out);
      if (chars[i] !== ',') throw new Fail("Expecting ',' delimiter", i);
      i++;
      skip();
    }
  };
  try {
    if (text.startsWith('\ufeff')) throw new Fail('Unexpected UTF-8 BOM (decode using utf-8-sig)', 0);
    skip();
    const v = value(0);
    skip();
    if (i < chars.length) throw new Fail('Extra data', i);
    return { ok: true, value: v };
  } catch (e) {
    if (!(e instanceof Fail)) throw e;
    return { ok: false, message: e.pos < 0 ? e.msg : located(text, e.msg, e.pos) };
  }
}
