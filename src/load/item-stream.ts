import type { FileHandle } from 'node:fs/promises';

/**
 * Reads a fixture, a JSON array of items, one item at a time: the array is never built whole, so
 * a million-item file costs the items as they are kept, not twice that, and the caller can yield
 * to the event loop between items, so that a reload never stalls the answers being served.
 * A byte scanner finds each item's text (strings, escapes, nesting, with a nesting limit); the
 * caller parses it. Every fault of the array's own syntax has its line and column.
 */
export interface StreamedItem {
  readonly index: number;
  readonly text: string;
  /** 1-based line and column where the item starts. */
  readonly line: number;
  readonly col: number;
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
const NEWLINE = 0x0a;

const isSpace = (b: number) => b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d;

type State = 'start' | 'before-item' | 'item' | 'after-item' | 'done';

/** The scanner, fed chunk by chunk; completed items collect in `out`. */
export class ItemScanner {
  readonly out: StreamedItem[] = [];
  #state: State = 'start';
  #line = 1;
  #col = 0;
  #depth = 0;
  #inString = false;
  #escaped = false;
  #first = true;
  #index = 0;
  /** The current item's bytes from earlier chunks. */
  #pending: Buffer[] = [];
  #itemLine = 1;
  #itemCol = 1;
  /** The current item is a scalar (it ends at `,` or `]`, not at a closing bracket). */
  #scalar = false;

  constructor(readonly maxDepth: number) {}

  #fail(message: string): never {
    throw new ItemStreamError(this.#line, this.#col, message);
  }

  #emit(chunk: Buffer, start: number, end: number): void {
    let bytes = this.#pending.length > 0 ? Buffer.concat([...this.#pending, chunk.subarray(0, end)]) : chunk.subarray(start, end);
    if (this.#scalar) {
      let e = bytes.length;
      while (e > 0 && isSpace(bytes[e - 1] as number)) e--;
      bytes = bytes.subarray(0, e);
    }
    this.#pending = [];
    this.out.push({ index: this.#index++, text: bytes.toString('utf8'), line: this.#itemLine, col: this.#itemCol });
  }

  #open(): void {
    this.#depth++;
    if (this.#depth > this.maxDepth) this.#fail(`nested deeper than ${this.maxDepth} levels`);
  }

  feed(chunk: Buffer): void {
    let start = 0;
    for (let i = 0; i < chunk.length; i++) {
      const b = chunk[i] as number;
      if (b === NEWLINE) {
        this.#line++;
        this.#col = 0;
      } else if ((b & 0xc0) !== 0x80) this.#col++;
      if (this.#first) {
        this.#first = false;
        if (b === 0xef && chunk[i + 1] === 0xbb) this.#fail('the file starts with a byte order mark: save it as UTF-8 without one');
        if ((b === 0xff && chunk[i + 1] === 0xfe) || (b === 0xfe && chunk[i + 1] === 0xff)) this.#fail('the file is UTF-16: save it as UTF-8');
      }
      if (this.#state === 'item') {
        if (this.#inString) {
          if (this.#escaped) this.#escaped = false;
          else if (b === BACKSLASH) this.#escaped = true;
          else if (b === QUOTE) this.#inString = false;
          continue;
        }
        if (b === QUOTE) this.#inString = true;
        else if (b === OPEN_OBJ || b === OPEN_ARR) this.#open();
        else if (b === CLOSE_OBJ || b === CLOSE_ARR) {
          this.#depth--;
          if (this.#depth === 1 && !this.#scalar) {
            this.#emit(chunk, start, i + 1);
            this.#state = 'after-item';
          } else if (this.#depth === 0) {
            // `]` right after a scalar item: the item and the array end here.
            this.#emit(chunk, start, i);
            this.#state = 'done';
          }
        } else if (b === COMMA && this.#depth === 1 && this.#scalar) {
          this.#emit(chunk, start, i);
          this.#state = 'before-item';
        }
        continue;
      }
      if (isSpace(b)) continue;
      switch (this.#state) {
        case 'start':
          if (b !== OPEN_ARR) this.#fail('a fixture is a JSON array of items');
          this.#depth = 1;
          this.#state = 'before-item';
          break;
        case 'before-item':
          if (b === CLOSE_ARR && this.#index === 0) {
            this.#depth = 0;
            this.#state = 'done';
            break;
          }
          if (b === CLOSE_ARR || b === COMMA) this.#fail(this.#index === 0 ? 'Expecting value' : 'a comma before ] or another comma: JSON allows neither');
          this.#state = 'item';
          start = i;
          this.#itemLine = this.#line;
          this.#itemCol = this.#col;
          this.#scalar = b !== OPEN_OBJ && b !== OPEN_ARR;
          if (!this.#scalar) this.#open();
          else if (b === QUOTE) this.#inString = true;
          break;
        case 'after-item':
          if (b === COMMA) this.#state = 'before-item';
          else if (b === CLOSE_ARR) {
            this.#depth = 0;
            this.#state = 'done';
          } else this.#fail("Expecting ',' delimiter");
          break;
        default:
          this.#fail('Extra data after the array');
      }
    }
    if (this.#state === 'item') this.#pending.push(Buffer.from(chunk.subarray(this.#pending.length > 0 ? 0 : start)));
  }

  end(): void {
    if (this.#state === 'start') this.#fail('Expecting value: the file is empty');
    if (this.#state !== 'done') this.#fail('the array is not closed: the file ends inside it');
  }
}

/** The items of the JSON array in an open file, chunk by chunk. */
export async function* streamItems(handle: FileHandle, maxDepth: number, chunkBytes = 1 << 20): AsyncGenerator<StreamedItem> {
  const scanner = new ItemScanner(maxDepth);
  const chunk = Buffer.allocUnsafe(chunkBytes);
  for (;;) {
    const { bytesRead } = await handle.read(chunk, 0, chunkBytes, null);
    if (bytesRead === 0) break;
    scanner.feed(chunk.subarray(0, bytesRead));
    yield* scanner.out.splice(0);
  }
  scanner.end();
}
