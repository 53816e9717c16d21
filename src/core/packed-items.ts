import type { PreparedItem } from './store.js';

/**
 * A collection's items as the bytes of their JSON, back to back, in blocks of BLOCK_ITEMS items:
 * no object and no string per item until one is asked for. A fixture of a million desks made a
 * million items, texts and pks that outlived the young generation: a third of a start-up went to
 * the collector copying them, and they took ~250 MiB. Here they are 250-odd byte arrays and their
 * offsets (~130 MiB), which the collector never copies.
 *
 * Items are made from a block when one of its items is first asked for, all of the block's at
 * once (one decode, each item's text a slice of it), and kept: the last MATERIALIZED blocks asked
 * for, so that a collection of up to MATERIALIZED × BLOCK_ITEMS items keeps every item it made,
 * the same objects each time, and a larger one what its readers page through.
 *
 * Each block is compared with the block at its place in the set it replaces (a reload): one whose
 * bytes and offsets are the same is the earlier block itself, so that a reload of a fixture that
 * did not change, or changed in a few places, keeps the rest once in memory.
 *
 * Pure: Uint8Array, TextEncoder and TextDecoder only (the core runs in a browser too).
 */
export const BLOCK_BITS = 12;
export const BLOCK_ITEMS = 1 << BLOCK_BITS;
const BLOCK_MASK = BLOCK_ITEMS - 1;
/** Blocks whose items are kept made (the most recently asked for). */
const MATERIALIZED = 32;

// Per item, STRIDE numbers: the start and end of its bytes in the block (what stands between two
// items, a flat item's separators copied with the run it stands in, is no item's); where its pk's
// text starts and ends within the item (NO_PK: none; ODD_PK: kept apart, its text not a slice of
// the item's); its urlAt.
const STRIDE = 5;
const NO_PK = -1;
const ODD_PK = -2;

const decoder = new TextDecoder();
const encoder = new TextEncoder();
const NON_ASCII = /[^\x00-\x7f]/;
/** The most bytes between two items of one run (a flat fixture's `,\n`, indentation). */
const MAX_GAP = 64;

/** Do the bytes from `from` to `to` only separate two items of a JSON array (a comma, white space)? */
function isSeparation(bytes: Uint8Array, from: number, to: number): boolean {
  if (to < from || to - from > MAX_GAP) return false;
  for (let i = from; i < to; i++) {
    const b = bytes[i];
    if (b !== 0x2c && b !== 0x20 && b !== 0x0a && b !== 0x0d && b !== 0x09) return false;
  }
  return true;
}

export class PackedBlock {
  #items: PreparedItem[] | undefined;
  constructor(
    /** The items' JSON texts, UTF-8, back to back. */
    readonly bytes: Uint8Array,
    /** STRIDE numbers per item (see above). */
    readonly meta: Int32Array,
    readonly count: number,
    /** Every byte is ASCII: the block's text is one decode, its items' offsets are its characters'. */
    readonly ascii: boolean,
    /** The pks not written as a slice of their item's text, by the item's place in the block. */
    readonly odd: ReadonlyMap<number, string> | undefined,
  ) {}

  /** Item `k`, made on its own (the block's items are not made for it). */
  item(k: number): PreparedItem {
    const at = k * STRIDE;
    return this.#made(k, decoder.decode(this.bytes.subarray(this.meta[at] as number, this.meta[at + 1] as number)));
  }

  /** The block's items, made once (until `release`). */
  items(): PreparedItem[] {
    if (this.#items !== undefined) return this.#items;
    const { meta, count } = this;
    // An ASCII block is decoded once, each item's text a slice of it.
    const text = this.ascii ? decoder.decode(this.bytes) : undefined;
    const items = new Array<PreparedItem>(count);
    for (let k = 0; k < count; k++)
      items[k] =
        text === undefined
          ? this.item(k)
          : this.#made(k, text.substring(meta[k * STRIDE] as number, meta[k * STRIDE + 1] as number));
    this.#items = items;
    return items;
  }

  /** Item `k`, its text `json` given: its pk and urlAt as its offsets say. */
  #made(k: number, json: string): PreparedItem {
    const at = k * STRIDE;
    const pkFrom = this.meta[at + 2] as number;
    const pk =
      pkFrom === NO_PK
        ? undefined
        : pkFrom === ODD_PK
          ? this.odd?.get(k)
          : json.substring(pkFrom, this.meta[at + 3] as number);
    return { pk, json, urlAt: this.meta[at + 4] as number };
  }

  /** Lets the items made go (they are made again when next asked for). */
  release(): void {
    this.#items = undefined;
  }

  /** Are the bytes of item `k` these? (No text made.) */
  sameBytes(k: number, bytes: Uint8Array, start: number, end: number): boolean {
    const from = this.meta[k * STRIDE] as number;
    const to = this.meta[k * STRIDE + 1] as number;
    if (to - from !== end - start) return false;
    for (let i = 0; i < to - from; i++) if (this.bytes[from + i] !== bytes[start + i]) return false;
    return true;
  }

  /** The same items, written the same way (what a reload compares: then the block kept is this one). */
  equals(bytes: Uint8Array, meta: Int32Array, count: number, odd: ReadonlyMap<number, string> | undefined): boolean {
    if (
      count !== this.count ||
      bytes.length !== this.bytes.length ||
      !sameInts(meta, this.meta, count * STRIDE) ||
      !equalBytes(bytes, this.bytes)
    )
      return false;
    if ((odd?.size ?? 0) !== (this.odd?.size ?? 0)) return false;
    for (const [k, pk] of odd ?? []) if (this.odd?.get(k) !== pk) return false;
    return true;
  }
}

function sameInts(a: Int32Array, b: Int32Array, n: number): boolean {
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Byte arrays compared four bytes at a time where both start on a word (a block's own bytes do). */
function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  const n = a.length;
  let i = 0;
  if (a.byteOffset % 4 === 0 && b.byteOffset % 4 === 0) {
    const words = n >>> 2;
    const wa = new Int32Array(a.buffer, a.byteOffset, words);
    const wb = new Int32Array(b.buffer, b.byteOffset, words);
    for (; i < words; i++) if (wa[i] !== wb[i]) return false;
    i = words << 2;
  }
  for (; i < n; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Items in order, as the core reads them: an array, or a PackedItems. */
export interface ItemList extends Iterable<PreparedItem> {
  readonly length: number;
  at(index: number): PreparedItem | undefined;
  slice(start?: number, end?: number): PreparedItem[];
}

/** Items kept as bytes (see above), read as a read-only array. */
export class PackedItems implements ItemList {
  /** Blocks whose items are made, the most recently asked for last. */
  #made: PackedBlock[] = [];
  constructor(
    readonly blocks: readonly PackedBlock[],
    readonly length: number,
  ) {}

  #itemsOf(b: number): PreparedItem[] {
    const block = this.blocks[b] as PackedBlock;
    const made = this.#made;
    if (made[made.length - 1] !== block) {
      const i = made.indexOf(block);
      if (i !== -1) made.splice(i, 1);
      else if (made.length >= MATERIALIZED) made.shift()?.release();
      made.push(block);
    }
    return block.items();
  }

  /** As Array.prototype.at. */
  at(index: number): PreparedItem | undefined {
    const t = Math.trunc(index) || 0;
    const i = t < 0 ? t + this.length : t;
    if (!(i >= 0 && i < this.length)) return undefined;
    return this.#itemsOf(i >>> BLOCK_BITS)[i & BLOCK_MASK];
  }

  /** As Array.prototype.slice. */
  slice(start = 0, end = this.length): PreparedItem[] {
    const clamp = (n: number) => {
      const t = Math.trunc(n) || 0;
      return t < 0 ? Math.max(0, this.length + t) : Math.min(t, this.length);
    };
    const from = clamp(start);
    const to = clamp(end);
    const out: PreparedItem[] = [];
    for (let i = from; i < to;) {
      const items = this.#itemsOf(i >>> BLOCK_BITS);
      const k = i & BLOCK_MASK;
      const n = Math.min(to - i, items.length - k);
      for (let j = 0; j < n; j++) out.push(items[k + j] as PreparedItem);
      i += n;
    }
    return out;
  }

  *[Symbol.iterator](): IterableIterator<PreparedItem> {
    for (let b = 0; b < this.blocks.length; b++) yield* this.#itemsOf(b);
  }

  /** Item `index`, made on its own, not kept (nothing else of its block made): for a look at one item. */
  peek(index: number): PreparedItem | undefined {
    const block = this.blocks[index >>> BLOCK_BITS];
    return block !== undefined && (index & BLOCK_MASK) < block.count ? block.item(index & BLOCK_MASK) : undefined;
  }

  /** Are the bytes of item `index` these? (No item made.) */
  sameBytesAt(index: number, bytes: Uint8Array, start: number, end: number): boolean {
    const block = this.blocks[index >>> BLOCK_BITS];
    return (
      block !== undefined &&
      (index & BLOCK_MASK) < block.count &&
      block.sameBytes(index & BLOCK_MASK, bytes, start, end)
    );
  }

  /** How many items stand in blocks that are `other`'s own (taken over by a reload). */
  sharedWith(other: PackedItems): number {
    const theirs = new Set(other.blocks);
    return this.blocks.reduce((n, b) => n + (theirs.has(b) ? b.count : 0), 0);
  }
}

/** Items written into blocks one after another (see PackedItems); each block compared with `previous`'s at its place when full. */
export class PackedItemsWriter {
  readonly #blocks: PackedBlock[] = [];
  #bytes = new Uint8Array(1 << 16);
  #used = 0;
  readonly #meta = new Int32Array(BLOCK_ITEMS * STRIDE);
  #count = 0;
  #ascii = true;
  #odd: Map<number, string> | undefined;
  #length = 0;

  constructor(private readonly previous?: PackedItems) {}

  get length(): number {
    return this.#length;
  }

  // A run of ASCII items of one source, standing close together there, not copied yet: they are
  // copied in one piece (what stands between them too) when the run ends. A copy per item cost
  // more than reading it.
  #runSource: Uint8Array | undefined;
  #runStart = 0;
  #runEnd = 0;

  /** Room for `n` bytes from `#used` on (a run waiting keeps its place: only what is written moves). */
  #room(n: number): void {
    if (this.#used + n <= this.#bytes.length) return;
    let size = this.#bytes.length * 2;
    while (size < this.#used + n) size *= 2;
    const bigger = new Uint8Array(size);
    bigger.set(this.#bytes.subarray(0, this.#used));
    this.#bytes = bigger;
  }

  /** An item as the loader prepared it. */
  add(item: PreparedItem): void {
    this.flush();
    const json = item.json;
    this.#room(json.length * 3);
    const start = this.#used;
    const { written } = encoder.encodeInto(json, this.#bytes.subarray(start));
    this.#used += written;
    if (this.#ascii && NON_ASCII.test(json)) this.#ascii = false;
    if (item.pk !== undefined) (this.#odd ??= new Map()).set(this.#count, item.pk);
    this.#end(start, item.pk === undefined ? NO_PK : ODD_PK, 0, item.urlAt);
  }

  /**
   * An item as its ASCII bytes stand (`start` to `end` of `bytes`), its pk's text at `pkFrom` to
   * `pkTo` of them (or `pkFrom` -1: none): what `add` would write of the same item. The bytes are
   * read when the run of items they stand in ends: at the next item from elsewhere, or `flush`,
   * which the caller calls before it writes to `bytes` again.
   */
  addAscii(bytes: Uint8Array, start: number, end: number, pkFrom: number, pkTo: number, urlAt: number): void {
    if (bytes !== this.#runSource || !isSeparation(bytes, this.#runEnd, start)) {
      this.flush();
      this.#runSource = bytes;
      this.#runStart = start;
    }
    this.#runEnd = end;
    this.#room(end - this.#runStart);
    const from = this.#used + (start - this.#runStart);
    this.#end(from, pkFrom < 0 ? NO_PK : pkFrom - start, pkTo - start, urlAt, from + (end - start));
  }

  /** Copies the run of items waiting (see addAscii). */
  flush(): void {
    const source = this.#runSource;
    if (source === undefined) return;
    this.#runSource = undefined;
    this.#bytes.set(source.subarray(this.#runStart, this.#runEnd), this.#used);
    this.#used += this.#runEnd - this.#runStart;
  }

  #end(start: number, pkFrom: number, pkTo: number, urlAt: number, end = this.#used): void {
    const at = this.#count * STRIDE;
    const meta = this.#meta;
    meta[at] = start;
    meta[at + 1] = end;
    meta[at + 2] = pkFrom;
    meta[at + 3] = pkTo;
    meta[at + 4] = urlAt;
    this.#count++;
    this.#length++;
    if (this.#count === BLOCK_ITEMS) this.#seal();
  }

  #seal(): void {
    this.flush();
    const count = this.#count;
    const bytes = this.#bytes.subarray(0, this.#used);
    const meta = this.#meta.subarray(0, count * STRIDE);
    const was = this.previous?.blocks[this.#blocks.length];
    this.#blocks.push(
      was?.equals(bytes, meta, count, this.#odd)
        ? was
        : new PackedBlock(bytes.slice(), meta.slice(), count, this.#ascii, this.#odd),
    );
    this.#used = 0;
    this.#count = 0;
    this.#ascii = true;
    this.#odd = undefined;
  }

  finish(): PackedItems {
    if (this.#count > 0) this.#seal();
    return new PackedItems(this.#blocks, this.#length);
  }
}
