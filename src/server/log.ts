import pc from 'picocolors';
import sonicBoom from 'sonic-boom';

// A CommonJS module: its class is the default export's `SonicBoom` (as pino takes it).
const { SonicBoom } = sonicBoom;

/** Colour only on a terminal and never with NO_COLOR (picocolors checks both). */
export const colors = pc;

export type LogFormat = 'pretty' | 'json';

/** One request, as the log line tells it. */
export interface RequestLine {
  readonly method: string;
  readonly url: string;
  readonly status: number;
  readonly ms: number;
  /** When, in milliseconds since the epoch (`Date.now()` where not told). */
  readonly time?: number;
}

export interface RequestLogOptions {
  readonly format: LogFormat;
  /** The descriptor written (stdout by default). */
  readonly fd?: number;
  /** Colour the status (default: on stdout where picocolors finds colour supported). */
  readonly color?: boolean;
  /** Bytes that may wait for the descriptor; a line beyond is dropped and counted. */
  readonly maxBufferedBytes?: number;
}

/** sonic-boom with `contentMode: 'buffer'` takes bytes (its README); its types know strings only. */
type ByteSink = Omit<InstanceType<typeof SonicBoom>, 'write'> & { write(bytes: Buffer): boolean };

/**
 * The request log: one line per request, `GET /api/v1/desk 200 0.4ms` (or a JSON line), written
 * into a chunk of bytes that goes to sonic-boom on the descriptor when full or after FLUSH_MS.
 * sonic-boom writes from libuv's thread pool, never from the request's turn of the event loop
 * (`process.stdout` writes pipes and files synchronously: a reader of the log that stalls would
 * stop the server), retries while a non-blocking reader stalls (EAGAIN), and ends on EPIPE (the
 * server goes on). Lines are copied into the chunk as they come, not handed over one by one:
 * sonic-boom keeps each write it is given as an object until its batch is written, and at a
 * batch's size those objects outlived two scavenges and filled V8's old generation
 * (docs/performance.md, the soak).
 *
 * A line that would take what waits (the chunk and what sonic-boom has not written) past
 * `maxBufferedBytes` is dropped and counted; the count is told where the lines were: before the
 * next line kept, or once the writes catch up (sonic-boom's `drain`).
 */
export class RequestLog {
  readonly #out: ByteSink;
  readonly #format: LogFormat;
  readonly #color: boolean;
  readonly #maxBuffered: number;
  #chunk: Buffer = Buffer.allocUnsafeSlow(CHUNK_BYTES);
  /**
   * Chunks handed over, then free to fill again once sonic-boom has written every byte it was
   * given: a new chunk's pages are each faulted in at first write (docs/performance.md).
   */
  readonly #handed: Buffer[] = [];
  readonly #free: Buffer[] = [];
  #used = 0;
  /** Bytes handed to sonic-boom and not yet written (its `write` events count them down). */
  #pending = 0;
  #timer: NodeJS.Timeout | undefined;
  /** Called once nothing handed over waits (`drain`). */
  #idle: (() => void)[] = [];
  #dropped = 0;
  /** Dropped lines whose count the log has told. */
  #reported = 0;
  #ended = false;

  constructor(opts: RequestLogOptions) {
    this.#format = opts.format;
    this.#color = opts.color ?? (pc.isColorSupported && opts.fd === undefined);
    this.#maxBuffered = opts.maxBufferedBytes ?? 1024 * 1024;
    // Each chunk is written as it comes: the chunk is the batch.
    this.#out = new SonicBoom({
      fd: opts.fd ?? 1,
      contentMode: 'buffer',
      minLength: 0,
      maxWrite: MAX_WRITE_BYTES,
    }) as unknown as ByteSink;
    this.#out.on('write', (n: number) => {
      this.#pending -= n;
      if (this.#pending > 0) return;
      for (const chunk of this.#handed.splice(0)) if (this.#free.length < FREE_CHUNKS) this.#free.push(chunk);
      for (const done of this.#idle.splice(0)) done();
    });
    this.#out.on('drain', () => this.#tellDropped());
    this.#out.on('error', () => {
      this.#ended = true;
      clearTimeout(this.#timer);
      this.#out.destroy();
      for (const done of this.#idle.splice(0)) done();
    });
  }

  /** Lines dropped so far because the reader of the log did not keep up. */
  get dropped(): number {
    return this.#dropped;
  }

  request(r: RequestLine): void {
    const time = r.time ?? Date.now();
    if (this.#format === 'json') {
      this.#write(
        `{"level":30,"time":${time},"msg":"request","method":${JSON.stringify(r.method)},"url":${JSON.stringify(r.url)},"status":${r.status},"ms":${r.ms}}\n`,
      );
      return;
    }
    if (!this.#color && this.#plain(r, time)) return;
    const status = !this.#color
      ? r.status
      : r.status >= 500
        ? pc.red(String(r.status))
        : r.status >= 400
          ? pc.yellow(String(r.status))
          : pc.green(String(r.status));
    this.#write(`${clock(time)} ${r.method} ${printable(r.url)} ${status} ${r.ms}ms\n`);
  }

  /** A message (a reload, a warning): through the same writer, so lines never interleave. */
  message(text: string): void {
    if (this.#format === 'json') this.#write(`{"level":30,"time":${Date.now()},"msg":${JSON.stringify(text)}}\n`);
    else for (const l of text.split('\n')) this.#write(`${l}\n`);
  }

  /**
   * The line of a request whose url is printable ASCII, written into the chunk byte by byte: the
   * same bytes as the line's text, without the text (the common case; making and encoding a string
   * for every line is what the log cost most, docs/performance.md). False, with nothing
   * written, for any other line, or where dropped lines wait to be told or the bounds come near.
   */
  #plain(r: RequestLine, time: number): boolean {
    const { method, url } = r;
    const tenths = Math.round(r.ms * 10);
    // The clock, method, url, a status and milliseconds of at most ten digits each, spaces, `.d`, `ms\n`.
    const size = CLOCK_LENGTH + method.length + url.length + 32;
    if (
      this.#ended ||
      this.#dropped !== this.#reported ||
      !(tenths / 10 === r.ms && tenths >= 0 && tenths < 1e9 && r.status >>> 0 === r.status) ||
      size > CHUNK_BYTES ||
      this.#overBound(size)
    )
      return false;
    if (this.#used + size > CHUNK_BYTES) this.#handOver();
    const c = this.#chunk;
    let at = this.#used;
    const shown = clock(time);
    for (let i = 0; i < CLOCK_LENGTH; i++) c[at++] = shown.charCodeAt(i);
    c[at++] = SPACE;
    at = printableAscii(c, at, method);
    if (at < 0) return false;
    c[at++] = SPACE;
    at = printableAscii(c, at, url);
    if (at < 0) return false;
    c[at++] = SPACE;
    at = digits(c, at, r.status);
    c[at++] = SPACE;
    at = digits(c, at, Math.floor(tenths / 10));
    if (tenths % 10 !== 0) {
      c[at++] = DOT;
      c[at++] = ZERO + (tenths % 10);
    }
    c[at++] = M;
    c[at++] = S;
    c[at++] = NEWLINE;
    this.#used = at;
    this.#flushSoon();
    return true;
  }

  /** Writes `text` (lines, each ending in a newline), after the count of lines dropped before it; or drops it. */
  #write(text: string): void {
    if (this.#ended) return;
    const untold = this.#dropped - this.#reported;
    const t = untold === 0 ? text : `${droppedNotice(untold)}${text}`;
    if (!this.#put(t)) this.#dropped++;
    else this.#reported += untold;
  }

  /** Copies `t` into the chunk (or hands it over whole, if larger); false where it would pass the bound. */
  #put(t: string): boolean {
    const size = Buffer.byteLength(t);
    if (this.#overBound(size)) return false;
    if (this.#used + size > CHUNK_BYTES) this.#handOver();
    if (size > CHUNK_BYTES) {
      this.#pending += size;
      this.#out.write(Buffer.from(t));
      return true;
    }
    this.#used += this.#chunk.write(t, this.#used);
    this.#flushSoon();
    return true;
  }

  /** Whether `size` more bytes would take what waits (the chunk, what sonic-boom holds) past the bound. */
  #overBound(size: number): boolean {
    return this.#pending + this.#used + size > this.#maxBuffered;
  }

  /** The chunk holds lines: they go within FLUSH_MS, whatever comes after them. */
  #flushSoon(): void {
    this.#timer ??= setTimeout(() => this.#handOver(), FLUSH_MS).unref();
  }

  /** The chunk's lines to sonic-boom (which keeps the bytes until written), and a new chunk. */
  #handOver(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#used === 0 || this.#ended) return;
    const bytes = this.#chunk.subarray(0, this.#used);
    this.#handed.push(this.#chunk);
    this.#chunk = this.#free.pop() ?? Buffer.allocUnsafeSlow(CHUNK_BYTES);
    this.#used = 0;
    this.#pending += bytes.length;
    this.#out.write(bytes);
  }

  /** Tells the count of the lines dropped since the last kept, where none came after them. */
  #tellDropped(): void {
    const untold = this.#dropped - this.#reported;
    if (untold === 0 || this.#ended) return;
    if (this.#put(droppedNotice(untold))) this.#reported += untold;
  }

  /** Resolves when every line written so far has been handed to the descriptor, or after `ms`. */
  async drain(ms = 1000): Promise<void> {
    if (this.#ended) return;
    this.#tellDropped();
    this.#handOver();
    if (this.#pending <= 0) return;
    let timer: NodeJS.Timeout | undefined;
    await new Promise<void>((resolve) => {
      timer = setTimeout(resolve, ms);
      this.#idle.push(resolve);
    });
    clearTimeout(timer);
  }
}

function droppedNotice(count: number): string {
  return `${clock(Date.now())} (${count} log lines dropped: the log's reader did not keep up)\n`;
}

/** Lines wait in a chunk of this many bytes… */
const CHUNK_BYTES = 64 * 1024;
/** …or at most this long. */
const FLUSH_MS = 50;
/** Chunks kept to fill again. */
const FREE_CHUNKS = 2;
/** The most one write takes (sonic-boom's default, 16 KiB, is below CHUNK_BYTES). */
const MAX_WRITE_BYTES = 256 * 1024;

const [SPACE, DOT, ZERO, M, S, NEWLINE] = [0x20, 0x2e, 0x30, 0x6d, 0x73, 0x0a];
/** `HH:MM:ss.mmm`. */
const CLOCK_LENGTH = 12;

/** Writes `text` at `at` where each of its characters is printable ASCII; answers where it ends, or -1. */
function printableAscii(into: Buffer, at: number, text: string): number {
  for (let i = 0; i < text.length; i++) {
    const u = text.charCodeAt(i);
    if (u < 0x20 || u > 0x7e) return -1;
    into[at + i] = u;
  }
  return at + text.length;
}

/** Writes `n` (a whole number >= 0) in decimal at `at`; answers where it ends. */
function digits(into: Buffer, at: number, n: number): number {
  let end = at;
  for (let rest = n; rest >= 10; rest = Math.floor(rest / 10)) end++;
  let i = end;
  for (let rest = n; i >= at; rest = Math.floor(rest / 10)) into[i--] = ZERO + (rest % 10);
  return end + 1;
}

let clockAt = 0;
let clockText = '';
let secondAt = -1;
let secondText = '';

/**
 * `HH:MM:ss.mmm`, local time, of `now` (ms since the epoch). Thousands of lines share a
 * millisecond under load, and a second: the local time (a time-zone lookup) is made once a
 * second, the milliseconds once a millisecond.
 */
function clock(now: number): string {
  if (now === clockAt) return clockText;
  const ms = now % 1000;
  const second = now - ms;
  if (second !== secondAt) {
    const d = new Date(second);
    const p = (n: number) => String(n).padStart(2, '0');
    secondAt = second;
    secondText = `${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}.`;
  }
  clockAt = now;
  clockText = secondText + String(ms).padStart(3, '0');
  return clockText;
}

/** Control characters of a url (a request can carry them) never reach a terminal as such. */
function printable(s: string): string {
  return /[\u0000-\u001f\u007f-\u009f]/.test(s)
    ? s.replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`)
    : s;
}
