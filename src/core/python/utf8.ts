/**
 * A request body read as DRF's JSONParser reads it: `codecs.getreader('utf-8')(stream).read()`.
 * The StreamReader decodes with `final=False`, so an incomplete sequence at the very end is left
 * in its buffer and dropped, and the first invalid byte raises UnicodeDecodeError with CPython's
 * reason and byte range (Objects/stringlib/codecs.h `utf8_decode`, Objects/unicodeobject.c
 * `unicode_decode_utf8`). One pass over the bytes: the cost is linear in the body.
 */
export type Utf8Read = { readonly ok: true; readonly text: string } | { readonly ok: false; readonly message: string };

// ignoreBOM: a BOM stays in the text, for Python's json to refuse it as DRF answers.
const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

type Scan = { kind: 'incomplete'; at: number } | { kind: 'error'; start: number; end: number; reason: string };

const isCont = (b: number | undefined): boolean => b !== undefined && (b & 0xc0) === 0x80;

/** The first place CPython's decoder stops at from `from`: an error, or an incomplete tail it keeps for later. */
function scan(b: ArrayLike<number>, from = 0): Scan | undefined {
  const n = b.length;
  let i = from;
  const invalidStart = (at: number): Scan => ({ kind: 'error', start: at, end: at + 1, reason: 'invalid start byte' });
  // `consumed` bytes of the sequence were read before the one that is not a continuation.
  const invalidCont = (at: number, consumed: number): Scan => ({
    kind: 'error',
    start: at,
    end: at + consumed,
    reason: 'invalid continuation byte',
  });
  while (i < n) {
    const c = b[i] as number;
    if (c < 0x80) {
      i++;
      continue;
    }
    const left = n - i;
    const c2 = b[i + 1];
    if (c < 0xc2) return invalidStart(i);
    if (c < 0xe0) {
      if (left < 2) return { kind: 'incomplete', at: i };
      if (!isCont(c2)) return invalidCont(i, 1);
      i += 2;
      continue;
    }
    if (c < 0xf0) {
      // E0 needs A0..BF next (no overlong form); ED needs 80..9F (no surrogate).
      const bad2 = !isCont(c2) || (c === 0xe0 && (c2 as number) < 0xa0) || (c === 0xed && (c2 as number) >= 0xa0);
      if (left < 3) {
        if (left < 2) return { kind: 'incomplete', at: i };
        // A truncated surrogate (ED A0..BF) at the end counts as incomplete too.
        if (bad2 && !(c === 0xed && left === 2 && isCont(c2))) return invalidCont(i, 1);
        return { kind: 'incomplete', at: i };
      }
      if (bad2) return invalidCont(i, 1);
      if (!isCont(b[i + 2])) return invalidCont(i, 2);
      i += 3;
      continue;
    }
    if (c < 0xf5) {
      // F0 needs 90..BF next; F4 needs 80..8F (nothing above U+10FFFF).
      const bad2 = !isCont(c2) || (c === 0xf0 && (c2 as number) < 0x90) || (c === 0xf4 && (c2 as number) >= 0x90);
      if (left < 2) return { kind: 'incomplete', at: i };
      if (bad2) return invalidCont(i, 1);
      if (left < 3) return { kind: 'incomplete', at: i };
      if (!isCont(b[i + 2])) return invalidCont(i, 2);
      if (left < 4) return { kind: 'incomplete', at: i };
      if (!isCont(b[i + 3])) return invalidCont(i, 3);
      i += 4;
      continue;
    }
    return invalidStart(i);
  }
  return undefined;
}

/** UnicodeDecodeError.__str__ (Objects/exceptions.c). */
function decodeErrorText(bytes: ArrayLike<number>, start: number, end: number, reason: string): string {
  if (end === start + 1) {
    const byte = (bytes[start] as number).toString(16).padStart(2, '0');
    return `'utf-8' codec can't decode byte 0x${byte} in position ${start}: ${reason}`;
  }
  return `'utf-8' codec can't decode bytes in position ${start}-${end - 1}: ${reason}`;
}

/**
 * The first UnicodeDecodeError of `bytes.decode()` (final) from `from`: its byte range and reason;
 * an incomplete sequence at the end is "unexpected end of data" to the end.
 */
export function firstDecodeError(
  bytes: ArrayLike<number>,
  from: number,
): { start: number; end: number; reason: string } | undefined {
  const stop = scan(bytes, from);
  if (stop === undefined) return undefined;
  return stop.kind === 'error' ? stop : { start: stop.at, end: bytes.length, reason: 'unexpected end of data' };
}

export function readUtf8Stream(bytes: Uint8Array): Utf8Read {
  try {
    return { ok: true, text: strict.decode(bytes) };
  } catch {
    // Not valid as a whole: find where, once.
  }
  const stop = scan(bytes);
  if (stop === undefined) return { ok: true, text: strict.decode(bytes) };
  if (stop.kind === 'incomplete') return { ok: true, text: strict.decode(bytes.subarray(0, stop.at)) };
  return { ok: false, message: decodeErrorText(bytes, stop.start, stop.end, stop.reason) };
}

/** `bytes.decode('utf-8')`, else `bytes.decode('latin-1')` (which always succeeds). */
export function utf8OrLatin1(bytes: Uint8Array): string {
  try {
    return strict.decode(bytes);
  } catch {
    return fromCharCodes(bytes);
  }
}

/**
 * A string of these code units, each a character (bytes: `bytes.decode('latin-1')`; UTF-16 units:
 * the text they were copied from), made in chunks that stay below the engine's argument limit.
 */
export function fromCharCodes(codes: Uint8Array | Uint16Array): string {
  let out = '';
  for (let i = 0; i < codes.length; i += 8192) out += String.fromCharCode(...codes.subarray(i, i + 8192));
  return out;
}
