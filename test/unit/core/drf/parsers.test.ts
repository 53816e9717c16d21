import { describe, expect, it } from 'vitest';
import { parseBody } from '../../../../src/core/drf/parsers.js';
import { recordedTable } from '../recorded/recording.js';

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
});

const { cases, differing, replay } = recordedTable('drf/parsers.json', {});

describe('request bodies, as the reference deployment answers (recorded in ../recorded/drf/parsers.json)', () => {
  it.each(cases)('%s', async (_name, given, want) => expect(await replay(given)).toEqual(want));
  it.each(differing)('%s: still a known difference', async (_name, given, want) =>
    expect(await replay(given)).not.toEqual(want),
  );
});

describe("forms past Django's DATA_UPLOAD_MAX_NUMBER_FIELDS (1,000): TooManyFieldsSent", () => {
  const form = (n: number) => new TextEncoder().encode(Array.from({ length: n }, (_, i) => `f${i}=1`).join('&'));
  const multipart = (n: number) =>
    new TextEncoder().encode(
      `${Array.from({ length: n }, (_, i) => `--B\r\nContent-Disposition: form-data; name="f${i}"\r\n\r\n1\r\n`).join('')}--B--\r\n`,
    );
  it.each<[string, string, Uint8Array, boolean]>([
    ['a form of 1,000 fields', 'application/x-www-form-urlencoded', form(1000), false],
    ['a form of 1,001 fields', 'application/x-www-form-urlencoded', form(1001), true],
    ['a form of 200,000 fields', 'application/x-www-form-urlencoded', form(200_000), true],
    ['a multipart form of 1,000 fields', 'multipart/form-data; boundary=B', multipart(1000), false],
    ['a multipart form of 1,001 fields', 'multipart/form-data; boundary=B', multipart(1001), true],
  ])('%s', (_name, type, body, tooMany) => {
    const parsed = parseBody(type, body);
    expect(parsed.ok ? false : 'tooManyFields' in parsed).toBe(tooMany);
    if (!tooMany) expect(parsed.ok && (parsed.data as Map<string, string[]>).size).toBe(1000);
  });

  it('a form that is not UTF-8 is read as latin-1, its escapes as UTF-8 (QueryDict)', () => {
    const parsed = parseBody(
      'application/x-www-form-urlencoded',
      Uint8Array.of(0x61, 0x3d, 0xff, 0x25, 0x43, 0x33, 0x25, 0x41, 0x39),
    );
    expect(parsed.ok && [...(parsed.data as Map<string, string[]>)]).toEqual([['a', ['\u00ff\u00e9']]]);
  });
});
