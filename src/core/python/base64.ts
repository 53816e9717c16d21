import { utf8OrLatin1 } from './utf8.js';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/**
 * `base64.b64decode(s)` (not strict: characters outside the alphabet are skipped) decoded as UTF-8,
 * else latin-1 (which always succeeds); undefined where Python raises binascii.Error.
 */
export function pythonB64decode(s: string): string | undefined {
  const bytes: number[] = [];
  let acc = 0;
  let bits = 0;
  let quad = 0;
  let pads = 0;
  for (const ch of s) {
    if (ch === '=') {
      // Padding ends the data once it completes a quad.
      if (quad >= 2 && quad + ++pads >= 4) break;
      continue;
    }
    const v = ALPHABET.indexOf(ch);
    if (v < 0 || ch.length !== 1) continue;
    pads = 0;
    acc = (acc << 6) | v;
    bits += 6;
    quad = (quad + 1) % 4;
    if (bits >= 8) {
      bits -= 8;
      bytes.push((acc >> bits) & 0xff);
    }
  }
  if (quad === 1) return undefined;
  if (quad !== 0 && quad + pads < 4) return undefined;
  return utf8OrLatin1(Uint8Array.from(bytes));
}
