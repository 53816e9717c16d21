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

const { cases, differing, replay } = recordedTable('drf/parsers.json', {
  'a form of invalid UTF-8':
    'Django\'s QueryDict reads a form body that is not UTF-8 as latin-1 (number "ÿ"); the stub puts U+FFFD',
  'a form of 1,001 fields: too many':
    'Django refuses a form of more than DATA_UPLOAD_MAX_NUMBER_FIELDS (1,000) fields with its 400 page; the stub takes it',
});

describe('request bodies, as the reference deployment answers (recorded in ../recorded/drf/parsers.json)', () => {
  it.each(cases)('%s', async (_name, given, want) => expect(await replay(given)).toEqual(want));
  it.each(differing)('%s: still a known difference', async (_name, given, want) =>
    expect(await replay(given)).not.toEqual(want),
  );
});
