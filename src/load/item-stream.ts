import { isAscii, isUtf8 } from 'node:buffer';
import type { FileHandle } from 'node:fs/promises';
import { advance, BOM_REASON, firstInvalidUtf8, notUtf8Reason, NUL_REASON, utf16Reason } from './text-checks.js';

/**
 * Reads a fixture, a JSON array of items, chunk by chunk: the array is never built whole, so a
 * million-item file costs the items as they are kept, not twice that, and the caller can yield to
 * the event loop between chunks, so that a reload never stalls the answers being served.
 * A byte scanner finds each item (strings, escapes, nesting, with a nesting limit), and notes
 * whether its text is already what JSON.stringify would write (then that text is the item's
 * JSON, and nothing is serialized again). Every fault of the array's syntax has line and column.
 */
export interface StreamedItem {
  readonly index: number;
  /** The item's bytes: a view into the scanner's chunk, valid until the next batch is read. */
  readonly bytes: Buffer;
  /** The item's text (decoded when first asked for; it must be UTF-8). */
  readonly text: string;
  /** The text is compact and canonical: no white space, escapes, fractions or exponents. */
  readonly canonical: boolean;
  /** 1-based line and column where the item starts. */
  readonly line: number;
  readonly col: number;
  /**
   * The item's bytes are exactly this ASCII string (compared without decoding them or making a
   * view: a reload of an unchanged million-item file allocates next to nothing per item).
   */
  isText(text: string): boolean;
}

/**
 * Takes an object item straight from its bytes where it can (load/flat-items.ts): the scanner asks
 * it first at each object item. What it takes stands in the scanner's output in the item's place
 * (no StreamedItem made for it), and no byte of it goes through the scanner's loop.
 */
export interface FlatTake<T extends object> {
  /** The end (exclusive) of the item at `start` (no byte read from `limit` on), or -1: not taken. */
  scan(bytes: Buffer, start: number, limit: number): number;
  /** The item just scanned, the array's `index`th, taken; or undefined: it is read the usual way. */
  take(bytes: Buffer, start: number, end: number, index: number): T | undefined;
}

/** Are bytes `start` to `end` exactly this ASCII string? (Compared without decoding them.) */
export function bytesAre(bytes: Buffer, start: number, end: number, text: string): boolean {
  if (text.length !== end - start) return false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x80 || c !== bytes[start + i]) return false;
  }
  return true;
}

/** A streamed item: a range of the scanner's chunk, its text decoded only when asked for. */
class Item implements StreamedItem {
  #text: string | undefined;
  constructor(
    readonly index: number,
    private readonly source: Buffer,
    private readonly start: number,
    private readonly end: number,
    readonly canonical: boolean,
    readonly line: number,
    readonly col: number,
  ) {}
  get bytes(): Buffer {
    return this.source.subarray(this.start, this.end);
  }
  get text(): string {
    this.#text ??= decoded(this.bytes, this.line, this.col);
    return this.#text;
  }
  /** The next item after `before`, in the same chunk (only separators between them). */
  follows(before: Item): boolean {
    return this.index === before.index + 1 && this.source === before.source;
  }
  /**
   * The texts of a run of items of one chunk (each following the one before), when the run is
   * ASCII: one check for the run, each text read as Latin-1 (the same characters, no UTF-8 decode),
   * a string of its own (a slice of the run's text would keep the run's separators alive with it).
   * Answers the run's text from the first item's start to the last one's end, or undefined (not
   * ASCII: decoded one by one).
   */
  static decodeRun(run: readonly Item[]): string | undefined {
    const first = run[0];
    const last = run[run.length - 1];
    if (first === undefined || last === undefined) return undefined;
    const { source } = first;
    if (!isAscii(source.subarray(first.start, last.end))) return undefined;
    for (const item of run) item.#text ??= source.toString('latin1', item.start, item.end);
    return source.toString('latin1', first.start, last.end);
  }
  isText(text: string): boolean {
    return bytesAre(this.source, this.start, this.end, text);
  }
}

export class ItemStreamError extends Error {
  constructor(
    readonly line: number,
    readonly col: number,
    message: string,
  ) {
    super(message);
  }
}

const OPEN_OBJ = 0x7b;
const CLOSE_OBJ = 0x7d;
const OPEN_ARR = 0x5b;
const CLOSE_ARR = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;

const isSpace = (b: number) => b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d;

// Scanner states.
const START = 0;
const BEFORE_ITEM = 1;
const ITEM = 2;
const AFTER_ITEM = 3;
const DONE = 4;

/** The text of an item's bytes, which must be UTF-8 (else the place of the first bad byte). */
function decoded(bytes: Buffer, line: number, col: number): string {
  if (!isUtf8(bytes)) {
    const at = firstInvalidUtf8(bytes);
    const p = advance(bytes, 0, at, line, col);
    throw new ItemStreamError(p.line, p.col, notUtf8Reason(bytes[at]));
  }
  return bytes.toString('utf8');
}

/** Is this entry of a scanner's output an item read the usual way (not one a FlatTake took)? */
export function isStreamed(entry: object): entry is StreamedItem {
  return entry instanceof Item;
}

/**
 * The scanner, fed chunk by chunk; completed items collect in `out`, in the array's order: each a
 * StreamedItem, or what a FlatTake took in its place.
 */
export class ItemScanner<T extends object = never> {
  readonly out: (StreamedItem | T)[] = [];
  #state = START;
  #depth = 0;
  #inString = false;
  #escaped = false;
  #index = 0;
  /** Line and column of the first byte of the next chunk. */
  #line = 1;
  #col = 1;
  /** The current item's bytes from earlier chunks, its place, and whether it is still canonical. */
  #pending: Buffer[] = [];
  #itemLine = 1;
  #itemCol = 1;
  #canonical = true;
  /** The current item is a scalar (it ends at `,` or `]`, not at a closing bracket). */
  #scalar = false;
  #prev = 0;

  constructor(
    readonly maxDepth: number,
    /** Asked at each object item, when there is one (it can come once items have been read). */
    private readonly flatTake: () => FlatTake<T> | undefined = () => undefined,
  ) {}

  feed(chunk: Buffer): void {
    // The hot loop runs on locals; the fields hold them between chunks.
    let state = this.#state;
    let depth = this.#depth;
    let inString = this.#inString;
    let escaped = this.#escaped;
    let canonical = this.#canonical;
    let scalar = this.#scalar;
    let prev = this.#prev;
    let start = 0;
    let placed = 0;
    let line = this.#line;
    let col = this.#col;
    const maxDepth = this.maxDepth;
    const placeOf = (i: number) => {
      const p = advance(chunk, placed, i, line, col);
      placed = i;
      line = p.line;
      col = p.col;
      return p;
    };
    const fail = (i: number, message: string): never => {
      const p = placeOf(i);
      throw new ItemStreamError(p.line, p.col, message);
    };
    const emit = (end: number) => {
      const joined = this.#pending.length > 0;
      const source = joined ? Buffer.concat([...this.#pending, chunk.subarray(0, end)]) : chunk;
      const from = joined ? 0 : start;
      let to = joined ? source.length : end;
      if (scalar) while (to > from && isSpace(source[to - 1] as number)) to--;
      this.#pending = [];
      this.out.push(new Item(this.#index++, source, from, to, canonical, this.#itemLine, this.#itemCol));
    };
    if (state === START && chunk.length > 0) {
      const b0 = chunk[0] as number;
      if (b0 === 0xef && chunk[1] === 0xbb) fail(0, BOM_REASON);
      if ((b0 === 0xff && chunk[1] === 0xfe) || (b0 === 0xfe && chunk[1] === 0xff)) fail(0, utf16Reason(b0, chunk[1]));
    }
    const n = chunk.length;
    const flat = this.flatTake();
    // The loops read the bytes through a local the closures above do not capture (a captured
    // binding lives in their context, read from there at each use; docs/performance.md).
    const bytes = chunk;
    for (let i = 0; i < n; i++) {
      const b = bytes[i] as number;
      if (b === 0) fail(i, NUL_REASON);
      if (state === ITEM) {
        if (inString) {
          if (escaped) {
            escaped = false;
            continue;
          }
          // To the string's end: a tight loop on locals (strings are short: native searches cost more).
          let j = i;
          for (; j < n; j++) {
            const c = bytes[j] as number;
            if (c === QUOTE || c === BACKSLASH || c === 0) break;
            // U+2028 and U+2029 (E2 80 A8/A9) are written escaped: a text holding one is not canonical.
            if (c === 0xe2) canonical = false;
          }
          if (j === n) {
            i = n - 1;
            continue;
          }
          if (chunk[j] === 0) fail(j, NUL_REASON);
          if (chunk[j] === BACKSLASH) {
            canonical = false;
            escaped = true;
            i = j;
            continue;
          }
          i = j;
          inString = false;
          prev = QUOTE;
          continue;
        }
        if (b === QUOTE) inString = true;
        else if (b === OPEN_OBJ || b === OPEN_ARR) {
          depth++;
          if (depth > maxDepth) fail(i, `nested deeper than ${maxDepth} levels of arrays and objects`);
        } else if (b === CLOSE_OBJ || b === CLOSE_ARR) {
          depth--;
          if (depth === 1 && !scalar) {
            emit(i + 1);
            state = AFTER_ITEM;
          } else if (depth === 0) {
            // `]` right after a scalar item: the item and the array end here.
            emit(i);
            state = DONE;
          }
        } else if (b === COMMA && depth === 1 && scalar) {
          emit(i);
          state = BEFORE_ITEM;
        } else if (isSpace(b)) canonical = false;
        // A fraction, an exponent (an `e` after a digit), a sign or -0 are written otherwise by JSON.stringify.
        else if (
          b === 0x2e ||
          b === 0x2b ||
          ((b === 0x65 || b === 0x45) && prev >= 0x30 && prev <= 0x39) ||
          (b === 0x30 && prev === 0x2d)
        )
          canonical = false;
        prev = b;
        continue;
      }
      if (isSpace(b)) continue;
      if (state === BEFORE_ITEM) {
        if (b === CLOSE_ARR && this.#index === 0) {
          depth = 0;
          state = DONE;
          continue;
        }
        if (b === CLOSE_ARR || b === COMMA)
          fail(i, this.#index === 0 ? 'Expecting value' : 'a comma before ] or another comma: JSON allows neither');
        if (b === OPEN_OBJ && flat !== undefined) {
          // A flat item taken whole: no byte of it goes through the loop below.
          const end = flat.scan(bytes, i, n);
          const taken = end === -1 ? undefined : flat.take(bytes, i, end, this.#index);
          if (taken !== undefined) {
            this.out.push(taken);
            this.#index++;
            state = AFTER_ITEM;
            i = end - 1;
            continue;
          }
        }
        state = ITEM;
        start = i;
        const p = placeOf(i);
        this.#itemLine = p.line;
        this.#itemCol = p.col;
        canonical = true;
        prev = b;
        scalar = b !== OPEN_OBJ && b !== OPEN_ARR;
        if (!scalar) {
          depth++;
          if (depth > maxDepth) fail(i, `nested deeper than ${maxDepth} levels of arrays and objects`);
        } else if (b === QUOTE) inString = true;
        continue;
      }
      if (state === START) {
        if (b !== OPEN_ARR) fail(i, 'a fixture is a JSON array of items');
        depth = 1;
        state = BEFORE_ITEM;
        continue;
      }
      if (state === AFTER_ITEM) {
        if (b === COMMA) state = BEFORE_ITEM;
        else if (b === CLOSE_ARR) {
          depth = 0;
          state = DONE;
        } else fail(i, "Expecting ',' delimiter");
        continue;
      }
      fail(i, 'Extra data after the array');
    }
    if (state === ITEM) this.#pending.push(Buffer.from(chunk.subarray(this.#pending.length > 0 ? 0 : start)));
    const end = placeOf(n);
    this.#line = end.line;
    this.#col = end.col;
    this.#state = state;
    this.#depth = depth;
    this.#inString = inString;
    this.#escaped = escaped;
    this.#canonical = canonical;
    this.#scalar = scalar;
    this.#prev = prev;
  }

  end(): void {
    if (this.#state === START)
      throw new ItemStreamError(this.#line, this.#col - 1, 'Expecting value: the file is empty');
    if (this.#state !== DONE)
      throw new ItemStreamError(this.#line, this.#col - 1, 'the array is not closed: the file ends inside it');
  }
}

/**
 * The items of the JSON array in an open file, one chunk's worth at a time. The next chunk is read
 * ahead, into a second buffer, while the caller handles this one's items: the caller never waits
 * for the disk between chunks. A batch's items are views into its chunk's buffer, valid until the
 * caller asks for the next batch (then the read after it goes into that buffer).
 */
export async function* streamItemBatches<T extends object = never>(
  handle: FileHandle,
  maxDepth: number,
  chunkBytes = 1 << 16,
  flatTake?: () => FlatTake<T> | undefined,
): AsyncGenerator<(StreamedItem | T)[]> {
  const scanner = new ItemScanner<T>(maxDepth, flatTake);
  const buffers: readonly Buffer[] = [Buffer.allocUnsafe(chunkBytes), Buffer.allocUnsafe(chunkBytes)];
  let turn = 0;
  // A read that fails while the caller is busy elsewhere is thrown when its chunk is asked for, not
  // reported as an unhandled rejection meanwhile.
  const readAhead = (into: Buffer) => {
    const read = handle.read(into, 0, chunkBytes, null);
    read.catch(() => undefined);
    return read;
  };
  let ahead = readAhead(buffers[0] as Buffer);
  try {
    for (;;) {
      const { bytesRead } = await ahead;
      if (bytesRead === 0) break;
      const chunk = buffers[turn] as Buffer;
      turn ^= 1;
      ahead = readAhead(buffers[turn] as Buffer);
      scanner.feed(chunk.subarray(0, bytesRead));
      if (scanner.out.length > 0) yield scanner.out.splice(0);
    }
  } finally {
    // A caller that stops early (a fault in an item) leaves no read behind, failed or not.
    await ahead.catch(() => undefined);
  }
  scanner.end();
}

/**
 * The texts of a batch's items, and the JSON text of the array they make (for one JSON.parse):
 * each run of items that stand one after another in one chunk and are ASCII is decoded at once and
 * taken as it stands (separators included), the other items one by one, joined with commas.
 */
export function batchTexts(batch: readonly StreamedItem[]): { texts: string[]; array: string } {
  const parts: string[] = [];
  for (let k = 0; k < batch.length;) {
    const first = batch[k] as StreamedItem;
    let j = k + 1;
    if (first instanceof Item)
      while (j < batch.length && batch[j] instanceof Item && (batch[j] as Item).follows(batch[j - 1] as Item)) j++;
    const run = j - k > 1 ? Item.decodeRun(batch.slice(k, j) as Item[]) : undefined;
    if (run !== undefined) parts.push(run);
    else for (let i = k; i < j; i++) parts.push((batch[i] as StreamedItem).text);
    k = j;
  }
  return { texts: batch.map((i) => i.text), array: `[${parts.join(',')}]` };
}
