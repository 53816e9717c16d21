import { describe, expect, it } from 'vitest';
import { firstDecodeError, fromCharCodes, readUtf8Stream } from '../../../../src/core/python/utf8.js';
import { cpythonTable } from '../recorded/cpython.js';

// Recorded from CPython 3.11: codecs.getreader('utf-8')(io.BytesIO(bytes)).read(), as DRF's
// JSONParser reads a body (the text, or str() of the UnicodeDecodeError).
const CPYTHON: [hex: string, want: ReturnType<typeof readUtf8Stream>][] = [
  [
    '7b2261223a317dff',
    { ok: false, message: "'utf-8' codec can't decode byte 0xff in position 7: invalid start byte" },
  ],
  ['ff', { ok: false, message: "'utf-8' codec can't decode byte 0xff in position 0: invalid start byte" }],
  ['80', { ok: false, message: "'utf-8' codec can't decode byte 0x80 in position 0: invalid start byte" }],
  ['c1bf', { ok: false, message: "'utf-8' codec can't decode byte 0xc1 in position 0: invalid start byte" }],
  [
    '7b2261223a22e282227d',
    { ok: false, message: "'utf-8' codec can't decode bytes in position 6-7: invalid continuation byte" },
  ],
  ['7b2261223a317de282', { ok: true, text: '{"a":1}' }],
  ['7b2261223a317de2', { ok: true, text: '{"a":1}' }],
  ['22e08022', { ok: false, message: "'utf-8' codec can't decode byte 0xe0 in position 1: invalid continuation byte" }],
  [
    '22eda08022',
    { ok: false, message: "'utf-8' codec can't decode byte 0xed in position 1: invalid continuation byte" },
  ],
  [
    '22f090804122',
    { ok: false, message: "'utf-8' codec can't decode bytes in position 1-3: invalid continuation byte" },
  ],
  ['22f49022', { ok: false, message: "'utf-8' codec can't decode byte 0xf4 in position 1: invalid continuation byte" }],
  ['22c32822', { ok: false, message: "'utf-8' codec can't decode byte 0xc3 in position 1: invalid continuation byte" }],
  ['22e2822822', { ok: false, message: "'utf-8' codec can't decode bytes in position 1-2: invalid continuation byte" }],
  ['f09080', { ok: true, text: '' }],
  ['7b7deda0', { ok: true, text: '{}' }],
  ['7b7df090', { ok: true, text: '{}' }],
  ['22c0af22', { ok: false, message: "'utf-8' codec can't decode byte 0xc0 in position 1: invalid start byte" }],
  ['22f522', { ok: false, message: "'utf-8' codec can't decode byte 0xf5 in position 1: invalid start byte" }],
  [
    '22e974e922',
    { ok: false, message: "'utf-8' codec can't decode byte 0xe9 in position 1: invalid continuation byte" },
  ],
  ['22c3a9ff22', { ok: false, message: "'utf-8' codec can't decode byte 0xff in position 3: invalid start byte" }],
  ['7b7df490', { ok: false, message: "'utf-8' codec can't decode byte 0xf4 in position 2: invalid continuation byte" }],
  ['7b7de09f', { ok: false, message: "'utf-8' codec can't decode byte 0xe0 in position 2: invalid continuation byte" }],
  ['7b7df08f', { ok: false, message: "'utf-8' codec can't decode byte 0xf0 in position 2: invalid continuation byte" }],
  ['22f09f988022', { ok: true, text: '"\ud83d\ude00"' }],
  ['efbbbf7b7d', { ok: true, text: '\ufeff{}' }],
];

describe('a body read as DRF reads it (UTF-8, a StreamReader)', () => {
  it.each(CPYTHON)('%s', (hex, want) => {
    expect(readUtf8Stream(Buffer.from(hex, 'hex'))).toEqual(want);
  });

  it('an invalid byte at the end of 2.5 MiB is found in one pass', () => {
    const body = Buffer.alloc(2.5 * 1024 * 1024, 0x61);
    body[body.length - 1] = 0xff;
    expect(readUtf8Stream(body)).toEqual({
      ok: false,
      message: `'utf-8' codec can't decode byte 0xff in position ${body.length - 1}: invalid start byte`,
    });
  });
});

const STREAM = cpythonTable<string, ReturnType<typeof readUtf8Stream>>('utf8.json', 'read_utf8_stream');
const FIRST_ERROR = cpythonTable<{ hex: string; from: number }, ReturnType<typeof firstDecodeError> | null>(
  'utf8.json',
  'first_decode_error',
);

describe('UTF-8 as CPython decodes it (recorded in ../recorded/python/utf8.json)', () => {
  it.each(STREAM.cases)('a body read as DRF reads it: %s', (_name, given, want) =>
    expect(readUtf8Stream(Buffer.from(given, 'hex'))).toEqual(want),
  );
  it.each(FIRST_ERROR.cases)('the first error of bytes.decode(): %s', (_name, given, want) => {
    const error = firstDecodeError(Buffer.from(given.hex, 'hex'), given.from);
    expect(error && { start: error.start, end: error.end, reason: error.reason }).toEqual(want ?? undefined);
  });
});

describe('fromCharCodes: each code unit a character', () => {
  it.each([0, 1, 8191, 8192, 8193, 100_000])('%i units, bytes and UTF-16 alike, past the argument limit', (n) => {
    const bytes = Uint8Array.from({ length: n }, (_, i) => (i * 7) % 256);
    const units = Uint16Array.from({ length: n }, (_, i) => (i * 31) % 65536);
    const text = fromCharCodes(bytes);
    expect(text.length).toBe(n);
    expect(Array.from(text, (c) => c.charCodeAt(0))).toEqual(Array.from(bytes));
    const wide = fromCharCodes(units);
    expect(wide.length).toBe(n);
    for (let i = 0; i < n; i += 997) expect(wide.charCodeAt(i)).toBe(units[i]);
  });
});
