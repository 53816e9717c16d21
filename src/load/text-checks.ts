import { isUtf8 } from 'node:buffer';

/** A place in a text file as messages show it: `line L:C` (1-based, C counted in characters). */
export function linePlace(line: number, col: number): string {
  return `line ${line}:${col}`;
}

/** The place of a character index of a decoded text (whose first character is at `line`:`col`). */
export function placeOfIndex(text: string, index: number, line = 1, col = 1): string {
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) {
    line++;
    col = 1;
    lineStart = i + 1;
  }
  return linePlace(line, col + index - lineStart);
}

/**
 * Line and column (1-based, in characters) of byte `to` of a UTF-8 buffer, given those of byte
 * `from`: newlines found natively, characters counted on the last line only.
 */
export function advance(bytes: Uint8Array, from: number, to: number, line: number, col: number) {
  let lineStart = from;
  for (let nl = bytes.indexOf(0x0a, from); nl !== -1 && nl < to; nl = bytes.indexOf(0x0a, nl + 1)) {
    line++;
    col = 1;
    lineStart = nl + 1;
  }
  for (let i = lineStart; i < to; i++) if (((bytes[i] as number) & 0xc0) !== 0x80) col++;
  return { line, col };
}

/** The place of a byte offset of undecoded UTF-8 (columns count characters, not bytes). */
function placeOfByte(buf: Uint8Array, offset: number): string {
  const p = advance(buf, 0, offset, 1, 1);
  return linePlace(p.line, p.col);
}

/** The offset of the first byte that breaks UTF-8 (RFC 3629: no overlongs, surrogates or code points past U+10FFFF). */
export function firstInvalidUtf8(buf: Uint8Array): number {
  let i = 0;
  while (i < buf.length) {
    const b = buf[i] as number;
    if (b < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let min: number;
    let cp: number;
    if (b >= 0xc2 && b <= 0xdf) [need, min, cp] = [1, 0x80, b & 0x1f];
    else if (b >= 0xe0 && b <= 0xef) [need, min, cp] = [2, 0x800, b & 0x0f];
    else if (b >= 0xf0 && b <= 0xf4) [need, min, cp] = [3, 0x10000, b & 0x07];
    else return i;
    for (let k = 1; k <= need; k++) {
      const c = buf[i + k];
      if (c === undefined || (c & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (c & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += need + 1;
  }
  return -1;
}

export type Decoded = { ok: true; text: string } | { ok: false; place: string; reason: string };

const hex = (b: number | undefined) => (b ?? 0).toString(16).toUpperCase().padStart(2, '0');

// Why bytes are not text, in the same words for a file read whole and a fixture streamed (load/item-stream.ts).
export const BOM_REASON = 'starts with a byte order mark (EF BB BF): save the file as UTF-8 without BOM';
export const NUL_REASON = 'contains a NUL byte (is it UTF-16 or UTF-32?): save the file as UTF-8';
export const utf16Reason = (b0: number | undefined, b1: number | undefined) =>
  `is UTF-16 or UTF-32 (byte order mark ${hex(b0)} ${hex(b1)}): save the file as UTF-8`;
export const notUtf8Reason = (b: number | undefined) => `is not valid UTF-8 (byte ${hex(b)}): save the file as UTF-8`;

/**
 * A spec or fixture file's bytes as text: UTF-8 only (RFC 8259 §8.1 for JSON; what every editor
 * saves by default for YAML). A byte order mark, UTF-16 or UTF-32, a NUL byte or a byte sequence
 * that is not UTF-8 is refused with its place, never decoded into replacement characters that
 * would then be served.
 */
export function decodeUtf8(buf: Uint8Array): Decoded {
  const [b0, b1, b2] = [buf[0], buf[1], buf[2]];
  if (b0 === 0xef && b1 === 0xbb && b2 === 0xbf) return { ok: false, place: linePlace(1, 1), reason: BOM_REASON };
  if ((b0 === 0xff && b1 === 0xfe) || (b0 === 0xfe && b1 === 0xff))
    return { ok: false, place: linePlace(1, 1), reason: utf16Reason(b0, b1) };
  const nul = Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength).indexOf(0);
  if (nul !== -1) return { ok: false, place: placeOfByte(buf, nul), reason: NUL_REASON };
  if (!isUtf8(buf)) {
    const at = firstInvalidUtf8(buf);
    return { ok: false, place: placeOfByte(buf, at), reason: notUtf8Reason(buf[at]) };
  }
  return { ok: true, text: Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength).toString('utf8') };
}
