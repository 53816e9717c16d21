import { describe, expect, it } from 'vitest';
import { decodeUtf8, firstInvalidUtf8, linePlace, placeOfIndex } from '../../../src/load/text-checks.js';

describe('placeOfIndex: a character index as `line L:C`', () => {
  it.each<[string, number, string]>([
    ['abc', 0, 'line 1:1'],
    ['abc', 2, 'line 1:3'],
    ['ab\ncd', 2, 'line 1:3'],
    ['ab\ncd', 3, 'line 2:1'],
    ['ab\n\ncd', 5, 'line 3:2'],
    ['é\nx', 2, 'line 2:1'],
    ['', 0, 'line 1:1'],
  ])('%j at %d: %s', (text, index, want) => {
    expect(placeOfIndex(text, index)).toBe(want);
  });

  it('linePlace writes a place', () => {
    expect(linePlace(12, 3)).toBe('line 12:3');
  });
});

const bytes = (...b: number[]) => Uint8Array.from(b);

describe('firstInvalidUtf8: the first byte that breaks UTF-8 (RFC 3629), or -1', () => {
  it.each<[string, Uint8Array, number]>([
    ['ASCII', Buffer.from('plain'), -1],
    ['two, three and four bytes', Buffer.from('é€𝄞'), -1],
    ['a lone continuation byte', bytes(0x61, 0x80), 1],
    ['an overlong two-byte form (C0 80)', bytes(0xc0, 0x80), 0],
    ['an overlong three-byte form (E0 80 80)', bytes(0x61, 0xe0, 0x80, 0x80), 1],
    ['a surrogate (ED A0 80)', bytes(0xed, 0xa0, 0x80), 0],
    ['past U+10FFFF (F4 90 80 80)', bytes(0xf4, 0x90, 0x80, 0x80), 0],
    ['F5 and above', bytes(0xf5, 0x80, 0x80, 0x80), 0],
    ['a sequence cut short at the end', bytes(0x61, 0x62, 0xe2, 0x82), 2],
    ['a sequence cut by ASCII', bytes(0xe2, 0x41, 0x41), 0],
  ])('%s', (_name, buf, want) => {
    expect(firstInvalidUtf8(buf)).toBe(want);
  });
});

describe('decodeUtf8: UTF-8 only, anything else refused with its place', () => {
  it.each<[string, Uint8Array, ReturnType<typeof decodeUtf8>]>([
    ['UTF-8', Buffer.from('a: é\n'), { ok: true, text: 'a: é\n' }],
    ['empty', bytes(), { ok: true, text: '' }],
    [
      'a byte order mark',
      bytes(0xef, 0xbb, 0xbf, 0x61),
      {
        ok: false,
        place: 'line 1:1',
        reason: 'starts with a byte order mark (EF BB BF): save the file as UTF-8 without BOM',
      },
    ],
    [
      'UTF-16 LE',
      bytes(0xff, 0xfe, 0x61, 0),
      { ok: false, place: 'line 1:1', reason: 'is UTF-16 or UTF-32 (byte order mark FF FE): save the file as UTF-8' },
    ],
    [
      'UTF-16 BE',
      bytes(0xfe, 0xff, 0, 0x61),
      { ok: false, place: 'line 1:1', reason: 'is UTF-16 or UTF-32 (byte order mark FE FF): save the file as UTF-8' },
    ],
    [
      'a NUL byte, placed (columns count characters)',
      Buffer.concat([Buffer.from('ab\né'), bytes(0)]),
      { ok: false, place: 'line 2:2', reason: 'contains a NUL byte (is it UTF-16 or UTF-32?): save the file as UTF-8' },
    ],
    [
      'Latin-1, placed',
      Buffer.concat([Buffer.from('x\n\n  '), bytes(0xe9, 0x61)]),
      { ok: false, place: 'line 3:3', reason: 'is not valid UTF-8 (byte E9): save the file as UTF-8' },
    ],
  ])('%s', (_name, buf, want) => {
    expect(decodeUtf8(buf)).toEqual(want);
  });

  it('a view into a larger buffer decodes only its own bytes', () => {
    const whole = Buffer.from('skip:keep');
    expect(decodeUtf8(whole.subarray(5))).toEqual({ ok: true, text: 'keep' });
    expect(decodeUtf8(Buffer.concat([bytes(0), Buffer.from('ok')]).subarray(1))).toEqual({ ok: true, text: 'ok' });
  });
});
