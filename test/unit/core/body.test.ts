import { describe, expect, it } from 'vitest';
import { parseBody } from '../../../src/core/drf/parsers.js';
import { parsePythonJson } from '../../../src/core/python/json.js';
import { parseHeaderParameters } from '../../../src/core/drf/negotiation.js';

const enc = (s: string) => new TextEncoder().encode(s);
const MULTIPART = 'multipart/form-data; boundary=XX';

describe('request bodies, parsed as DRF parses them', () => {
  it.each([
    ['a text field', '--XX\r\nContent-Disposition: form-data; name="floor"\r\n\r\n3\r\n--XX--\r\n', { floor: ['3'] }],
    [
      'a file part is not a field',
      '--XX\r\nContent-Disposition: form-data; name="f"; filename="a.txt"\r\n\r\nx\r\n--XX--\r\n',
      {},
    ],
    [
      'a quoted ; inside the name',
      '--XX\r\ncontent-disposition: form-data; name="a;b"\r\n\r\nv\r\n--XX--\r\n',
      { 'a;b': ['v'] },
    ],
    [
      'invalid UTF-8 in a value is replaced',
      '--XX\r\nContent-Disposition: form-data; name="n"\r\n\r\n\u00ff\r\n--XX--\r\n',
      { n: ['\ufffd'] },
    ],
  ])('multipart: %s', (_name, text, want) => {
    const bytes = Uint8Array.from(text, (c) => c.charCodeAt(0));
    const parsed = parseBody(MULTIPART, bytes);
    expect(parsed.ok && Object.fromEntries(parsed.data as Map<string, string[]>)).toEqual(want);
  });

  // Each of these took seconds to minutes before (a backtracking regex, a decode per byte, a
  // code-point array and a slice per number, a rescan per `;`): the suite's timeout catches a
  // return of it; the bench's worst-input section measures it.
  it('multipart: a 1 MB header line repeating content-disposition without a name', () => {
    const head = 'Content-Disposition: '.repeat(50_000);
    const parsed = parseBody(MULTIPART, enc(`--XX\r\n${head}\r\n\r\nv\r\n--XX--\r\n`));
    expect(parsed).toEqual({ ok: true, data: new Map(), form: true });
  });

  it('JSON: 2.5 MiB ending in an invalid byte', () => {
    const body = Buffer.alloc(2.5 * 1024 * 1024, 0x20);
    body[0] = 0x5b;
    body[body.length - 1] = 0xff;
    const parsed = parseBody('application/json', body);
    expect(parsed).toEqual({
      ok: false,
      status: 400,
      detail: `JSON parse error - 'utf-8' codec can't decode byte 0xff in position ${body.length - 1}: invalid start byte`,
    });
  });

  it('JSON: an array of 500,000 numbers', () => {
    const parsed = parsePythonJson(`[${Array.from({ length: 500_000 }, (_, i) => i).join(',')}]`);
    expect(parsed.ok && (parsed.value as number[]).length).toBe(500_000);
  });

  it('a header of 8,000 quoted semicolons', () => {
    expect(parseHeaderParameters(`text/plain; a="${';"'.repeat(4000)}`).type).toBe('text/plain');
  });
});

// Recorded from CPython 3.11: json.loads(text, parse_constant=DRF's strict_constant), the message
// DRF puts after "JSON parse error - ".
describe('JSON as Python reads it', () => {
  it.each([
    [
      '1'.repeat(4301),
      'Exceeds the limit (4300 digits) for integer string conversion: value has 4301 digits; use sys.set_int_max_str_digits() to increase the limit',
    ],
    ['[1,2\nx', "Expecting ',' delimiter: line 2 column 1 (char 5)"],
    ['"ab\u{1F600}" x', 'Extra data: line 1 column 7 (char 6)'],
    ['{"a":\n"\u{1F600}" x}', "Expecting ',' delimiter: line 2 column 5 (char 10)"],
    ['"a\u0001"', 'Invalid control character at: line 1 column 3 (char 2)'],
    ['', 'Expecting value: line 1 column 1 (char 0)'],
    ['[NaN]', "Out of range float values are not JSON compliant: 'NaN'"],
  ])('%j', (text, message) => {
    expect(parsePythonJson(text)).toEqual({ ok: false, message });
  });
});
