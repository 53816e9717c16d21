import { isSpace } from './str.js';

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
    else if (isSpace(ch)) s += ' ';
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
  // PyLong_FromString skips ASCII white space only (Py_ISSPACE): U+001C to U+001F are no space here.
  const m = ASCII_INT.exec(text.replace(/[\t\n\v\f\r]/g, ' '));
  return m ? BigInt(`${m[1] ?? ''}${(m[2] ?? '').replaceAll('_', '')}`) : undefined;
}

/**
 * `Decimal(s)` as Python reads a string (django.forms.DecimalField, django-filter's NumberFilter):
 * white space around (str.strip's), any Unicode decimal digit, every underscore dropped wherever
 * it stands (the C decimal module's reading); finite only (NaN and Infinity are read, then
 * refused by the field). Undefined when it is no number.
 */
export function pythonDecimal(raw: string): number | undefined {
  const s = asciiNumberText(raw)
    ?.replaceAll('_', '')
    .replace(/[\t\n\v\f\r\x1c-\x1f]/g, ' ')
    .trim();
  if (s === undefined || !/^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/.test(s)) return undefined;
  const n = Number(s);
  return Number.isFinite(n) ? n : undefined;
}
