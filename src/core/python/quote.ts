/**
 * `urllib.parse.quote` and `quote_plus`: the one percent-encoder of the core. Every encoding
 * Django and DRF do is `quote` with a safe set of its own (the callers name them); letters,
 * digits and `_.-~` are always safe. Text is encoded as UTF-8 first; `quoteBytes` takes bytes.
 */

const ALWAYS_SAFE = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-~';
const tables = new Map<string, Uint8Array>();
const encoder = new TextEncoder();
const HEX = '0123456789ABCDEF';

/** Which bytes `safe` keeps (made once per safe set). */
function tableOf(safe: string): Uint8Array {
  let table = tables.get(safe);
  if (table === undefined) {
    table = new Uint8Array(256);
    for (const ch of ALWAYS_SAFE + safe) table[ch.charCodeAt(0)] = 1;
    tables.set(safe, table);
  }
  return table;
}

const escape = (b: number): string => `%${HEX[b >> 4]}${HEX[b & 15]}`;

/** `quote(bytes, safe)`: each byte outside the safe set as %XX. */
export function quoteBytes(bytes: ArrayLike<number>, safe: string): string {
  const table = tableOf(safe);
  let out = '';
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i] as number;
    out += table[b] === 1 ? String.fromCharCode(b) : escape(b);
  }
  return out;
}

/** `quote(text, safe)`; a text of safe ASCII only comes back as it is, without a copy. */
export function quote(text: string, safe = '/'): string {
  const table = tableOf(safe);
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c >= 0x80 || table[c] !== 1) break;
    i++;
  }
  return i === text.length ? text : text.slice(0, i) + quoteBytes(encoder.encode(text.slice(i)), safe);
}

/** `quote_plus(text, safe='')`: a space as `+`. */
export function quotePlus(text: string): string {
  return text.includes(' ')
    ? text
        .split(' ')
        .map((part) => quote(part, ''))
        .join('+')
    : quote(text, '');
}
