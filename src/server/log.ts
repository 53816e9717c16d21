import { write } from 'node:fs';
import pc from 'picocolors';

/** Colour only on a terminal and never with NO_COLOR (picocolors checks both). */
export const colors = pc;

export type LogFormat = 'pretty' | 'json';

/** One request, as the log line tells it. */
export interface RequestLine {
  readonly method: string;
  readonly url: string;
  readonly status: number;
  readonly ms: number;
}

export interface LogSink {
  write(chunk: Uint8Array, cb: (err?: Error | null) => void): boolean;
  readonly writableLength: number;
}

/**
 * The request log: one line per request, `GET /api/v1/desk 200 0.4ms` (or a JSON line), written
 * asynchronously in batches, never from the request's own turn of the event loop. Writing goes
 * through an FdSink on the descriptor (libuv's thread pool), never through
 * `process.stdout`, which Node writes synchronously to pipes and files: a stalled reader of the
 * log (a pipe nobody drains) would otherwise stop the server. Lines wait in a bounded buffer;
 * when it is full they are dropped and counted, and the count is logged once writing resumes.
 */
export class RequestLog {
  readonly #sink: LogSink;
  readonly #format: LogFormat;
  readonly #color: boolean;
  readonly #maxBuffered: number;
  /**
   * Lines wait as bytes, written into the batch as they come. Under load a thousand lines wait
   * for each write: kept as strings they would outlive the young generation (the served process
   * keeps it small) and double the collector's work; as bytes they cost it nothing.
   */
  #batch: Buffer = Buffer.allocUnsafe(BATCH_CAPACITY);
  #used = 0;
  #scheduled = false;
  #timer: NodeJS.Timeout | undefined;
  #dropped = 0;
  /** Dropped lines whose count the log has told. */
  #reported = 0;
  #inFlight = 0;

  constructor(opts: { sink?: LogSink; format: LogFormat; color?: boolean; maxBufferedBytes?: number }) {
    this.#sink = opts.sink ?? stdoutSink();
    this.#format = opts.format;
    this.#color = opts.color ?? (pc.isColorSupported && opts.sink === undefined);
    this.#maxBuffered = opts.maxBufferedBytes ?? 1024 * 1024;
  }

  /** Lines dropped so far because the reader of the log did not keep up. */
  get dropped(): number {
    return this.#dropped;
  }

  request(r: RequestLine): void {
    if (this.#format === 'json') {
      this.line(
        `{"level":30,"time":${Date.now()},"msg":"request","method":${JSON.stringify(r.method)},"url":${JSON.stringify(r.url)},"status":${r.status},"ms":${r.ms}}`,
      );
      return;
    }
    if (!this.#color && this.#plainLine(r)) return;
    const status = this.#color
      ? r.status >= 500
        ? pc.red(String(r.status))
        : r.status >= 400
          ? pc.yellow(String(r.status))
          : pc.green(String(r.status))
      : String(r.status);
    this.line(`${clock()} ${r.method} ${printable(r.url)} ${status} ${r.ms}ms`);
  }

  /**
   * The line of `request` without colour, written byte by byte into the batch: no string is made
   * of it, and no native call (this runs on every request, tens of thousands a second, where
   * making and encoding the line's text cost 5 % of the raw limit). Only a line that is printable
   * ASCII throughout, with a status of three digits, is written so; it answers false for any
   * other, which `line` writes as before. The bytes are the same either way.
   */
  #plainLine(r: RequestLine): boolean {
    const { method, url, status } = r;
    if (status < 100 || status > 999) return false;
    // Tenths of a millisecond, written as String(ms) writes them ("0", "0.1", "12.3"), without making it.
    const tenths = Math.round(r.ms * 10);
    // Only a time String() writes as its whole tenths (not 897436.2000000001, whose tenths round).
    if (tenths / 10 !== r.ms || tenths < 0 || tenths >= 1e15) return false;
    const whole = Math.floor(tenths / 10);
    let digits = 1;
    for (let n = whole; n >= 10; n = Math.floor(n / 10)) digits++;
    const msLength = digits + (tenths % 10 === 0 ? 0 : 2);
    const time = clock();
    // The line's length as `line` counts it (UTF-16 units, here bytes), its newline included.
    const bytes = time.length + method.length + url.length + msLength + 10;
    if (this.#used + bytes > this.#batch.length) return false;
    const b = this.#batch;
    const start = this.#used;
    let at = start;
    for (let i = 0; i < time.length; i++) b[at++] = time.charCodeAt(i);
    b[at++] = 32;
    for (let i = 0; i < method.length; i++) {
      const c = method.charCodeAt(i);
      if (c < 0x21 || c > 0x7e) return false;
      b[at++] = c;
    }
    b[at++] = 32;
    for (let i = 0; i < url.length; i++) {
      const c = url.charCodeAt(i);
      if (c < 0x20 || c > 0x7e) return false;
      b[at++] = c;
    }
    b[at++] = 32;
    b[at++] = 48 + Math.floor(status / 100);
    b[at++] = 48 + (Math.floor(status / 10) % 10);
    b[at++] = 48 + (status % 10);
    b[at++] = 32;
    for (let i = digits - 1, n = whole; i >= 0; i--, n = Math.floor(n / 10)) b[at + i] = 48 + (n % 10);
    at += digits;
    if (tenths % 10 !== 0) {
      b[at++] = 0x2e; // .
      b[at++] = 48 + (tenths % 10);
    }
    // The bytes stand after the batch's and count only from here: a line given up above left none.
    if (this.#drops(bytes)) return true;
    if (this.#dropped > this.#reported) return false;
    b[at++] = 0x6d; // m
    b[at++] = 0x73; // s
    b[at++] = 10;
    this.#used = at;
    this.#scheduleFlush();
    return true;
  }

  /** A message (a reload, a warning): through the same queue, so lines never interleave. */
  message(text: string): void {
    if (this.#format === 'json') this.line(`{"level":30,"time":${Date.now()},"msg":${JSON.stringify(text)}}`);
    else for (const l of text.split('\n')) this.line(l);
  }

  line(text: string): void {
    if (this.#drops(text.length + 1)) return;
    // Lines were dropped since the last one kept: the count stands where they would have.
    if (this.#dropped > this.#reported) this.#tellDropped();
    this.#append(text);
    this.#scheduleFlush();
  }

  /** A line of `bytes` goes past the bound of what may wait: it is dropped, and counted. */
  #drops(bytes: number): boolean {
    if (this.#used + this.#sink.writableLength + bytes <= this.#maxBuffered) return false;
    this.#dropped++;
    return true;
  }

  #scheduleFlush(): void {
    // Written in batches: at most every FLUSH_MS, sooner once a batch is large. One write per
    // request (a thread-pool round trip each) would cost more than answering it.
    if (this.#used >= FLUSH_BYTES) this.#flush();
    else if (!this.#scheduled) {
      this.#scheduled = true;
      this.#timer = setTimeout(() => this.#flush(), FLUSH_MS);
      this.#timer.unref();
    }
  }

  #tellDropped(): void {
    const text = `${clock()} (${this.#dropped - this.#reported} log lines dropped: the log's reader did not keep up)`;
    this.#reported = this.#dropped;
    this.#append(text);
  }

  /** The line's UTF-8 bytes and a newline, after the batch's (a larger batch for a huge line). */
  #append(text: string): void {
    // At most 3 bytes per UTF-16 unit: the exact count only when that bound does not fit.
    let room = text.length * 3 + 1;
    if (this.#used + room > this.#batch.length) {
      room = Buffer.byteLength(text) + 1;
      if (this.#used + room > this.#batch.length) {
        this.#flush();
        if (room > this.#batch.length) this.#batch = Buffer.allocUnsafe(room);
      }
    }
    this.#used += this.#batch.write(text, this.#used);
    this.#batch[this.#used++] = 10;
  }

  #flush(): void {
    clearTimeout(this.#timer);
    this.#scheduled = false;
    // The reader caught up and no line came since the last dropped ones: the count is told now.
    if (this.#dropped > this.#reported && this.#sink.writableLength === 0) this.#tellDropped();
    if (this.#used === 0) return;
    // The sink holds these bytes until written: the next lines go to a new batch.
    const chunk = this.#batch.subarray(0, this.#used);
    this.#batch = Buffer.allocUnsafe(BATCH_CAPACITY);
    this.#used = 0;
    this.#inFlight++;
    this.#sink.write(chunk, () => {
      this.#inFlight--;
    });
  }

  /** Resolves when every line queued so far has been handed to the descriptor (bounded by `ms`). */
  async drain(ms = 1000): Promise<void> {
    if (this.#scheduled) this.#flush();
    const until = Date.now() + ms;
    while ((this.#inFlight > 0 || this.#used > 0) && Date.now() < until) await new Promise((r) => setTimeout(r, 5));
  }
}

/** A batch of log lines waits at most this long, and is written at once when it reaches FLUSH_BYTES. */
const FLUSH_MS = 50;
const FLUSH_BYTES = 64 * 1024;
/** A batch's room: a flush at FLUSH_BYTES, and a line of up to 16 KiB (a long url) fits after it. */
const BATCH_CAPACITY = FLUSH_BYTES + 16 * 1024;

/**
 * Writes to a descriptor from libuv's thread pool, in order, one write at a time. A descriptor
 * in non-blocking mode (stdout as a pipe or socket usually is: its other end set it so) answers
 * EAGAIN while its reader stalls; the bytes then wait and are offered again every RETRY_MS, and
 * a partial write goes on from where it stopped, so that a reader that resumes gets every line
 * kept, in order. (fs.WriteStream treats EAGAIN as fatal: one stall would end the log for good.)
 * A reader that is gone (EPIPE, a closed descriptor) ends the log: what waits is let go.
 */
export class FdSink implements LogSink {
  readonly #fd: number;
  #queue: { bytes: Buffer; cb: (err?: Error | null) => void }[] = [];
  #length = 0;
  #writing = false;
  #failed: Error | undefined;

  constructor(fd: number) {
    this.#fd = fd;
  }

  get writableLength(): number {
    return this.#length;
  }

  write(chunk: Uint8Array, cb: (err?: Error | null) => void): boolean {
    if (this.#failed) {
      cb(this.#failed);
      return false;
    }
    const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    this.#queue.push({ bytes, cb });
    this.#length += bytes.length;
    this.#next();
    return this.#length < FLUSH_BYTES;
  }

  #next(): void {
    const head = this.#queue[0];
    if (this.#writing || head === undefined) return;
    this.#writing = true;
    write(this.#fd, head.bytes, 0, head.bytes.length, null, (err, written) => {
      this.#writing = false;
      if (err) {
        if ((err as NodeJS.ErrnoException).code === 'EAGAIN') {
          setTimeout(() => this.#next(), RETRY_MS).unref();
          return;
        }
        this.#failed = err;
        const queue = this.#queue;
        this.#queue = [];
        this.#length = 0;
        for (const q of queue) q.cb(err);
        return;
      }
      this.#length -= written;
      if (written < head.bytes.length) head.bytes = head.bytes.subarray(written);
      else {
        this.#queue.shift();
        head.cb();
      }
      this.#next();
    });
  }
}

/** While a non-blocking descriptor's reader stalls, a batch is offered again this often. */
const RETRY_MS = 20;

let shared: FdSink | undefined;

/** fd 1, written from the thread pool (one per process). */
function stdoutSink(): LogSink {
  shared ??= new FdSink(1);
  return shared;
}

let clockAt = 0;
let clockText = '';
let secondAt = -1;
let secondText = '';

/**
 * `HH:MM:ss.mmm`, local time. Thousands of lines share a millisecond under load, and a second: the
 * local time (a time-zone lookup) is made once a second, the milliseconds once a millisecond.
 */
function clock(): string {
  const now = Date.now();
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
