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
 * The request log: one line per request, `GET /api/v1/desk 200 0.4ms` (or a JSON line), over
 * sonic-boom on the descriptor. sonic-boom writes from libuv's thread pool, never from the
 * request's turn of the event loop (`process.stdout` writes pipes and files synchronously: a
 * reader of the log that stalls would stop the server); it batches lines, retries while a
 * non-blocking reader stalls (EAGAIN), and drops a line that would take what waits past
 * `maxBufferedBytes` (its `maxLength`, the `drop` event). Dropped lines are counted, and the count
 * is told where they were: before the next line kept, or once the writes catch up (`drain`). A
 * reader that is gone (EPIPE) ends the log; the server goes on.
 */
export class RequestLog {
  readonly #out: ByteSink;
  readonly #format: LogFormat;
  readonly #color: boolean;
  #dropped = 0;
  /** Dropped lines whose count the log has told. */
  #reported = 0;
  /** Set by sonic-boom's `drop` event, which it emits within the write that dropped. */
  #lost = false;
  #ended = false;

  constructor(opts: RequestLogOptions) {
    this.#format = opts.format;
    this.#color = opts.color ?? (pc.isColorSupported && opts.fd === undefined);
    this.#out = new SonicBoom({
      fd: opts.fd ?? 1,
      contentMode: 'buffer',
      // A write once this much waits, else at the next periodic flush: each write is a round trip
      // to the thread pool, which costs more than answering a request.
      minLength: MIN_WRITE_BYTES,
      maxWrite: MAX_WRITE_BYTES,
      periodicFlush: FLUSH_MS,
      maxLength: opts.maxBufferedBytes ?? 1024 * 1024,
    }) as unknown as ByteSink;
    this.#out.on('drop', () => {
      this.#lost = true;
    });
    this.#out.on('drain', () => this.#tellDropped());
    this.#out.on('error', () => {
      this.#ended = true;
      this.#out.destroy();
    });
  }

  /** Lines dropped so far because the reader of the log did not keep up. */
  get dropped(): number {
    return this.#dropped;
  }

  request(r: RequestLine): void {
    if (this.#format === 'json') {
      this.#write(
        `{"level":30,"time":${Date.now()},"msg":"request","method":${JSON.stringify(r.method)},"url":${JSON.stringify(r.url)},"status":${r.status},"ms":${r.ms}}\n`,
      );
      return;
    }
    const status = !this.#color
      ? r.status
      : r.status >= 500
        ? pc.red(String(r.status))
        : r.status >= 400
          ? pc.yellow(String(r.status))
          : pc.green(String(r.status));
    this.#write(`${clock()} ${r.method} ${printable(r.url)} ${status} ${r.ms}ms\n`);
  }

  /** A message (a reload, a warning): through the same writer, so lines never interleave. */
  message(text: string): void {
    if (this.#format === 'json') this.#write(`{"level":30,"time":${Date.now()},"msg":${JSON.stringify(text)}}\n`);
    else for (const l of text.split('\n')) this.#write(`${l}\n`);
  }

  /** Writes `text` (lines, each ending in a newline), or drops it and counts it as one line. */
  #write(text: string): void {
    if (this.#ended) return;
    const untold = this.#dropped - this.#reported;
    this.#lost = false;
    if (untold === 0) this.#out.write(Buffer.from(text));
    else
      this.#out.write(
        Buffer.from(`${clock()} (${untold} log lines dropped: the log's reader did not keep up)\n${text}`),
      );
    if (this.#lost) this.#dropped++;
    else this.#reported += untold;
  }

  /** Tells the count of the lines dropped since the last kept, where none came after them. */
  #tellDropped(): void {
    const untold = this.#dropped - this.#reported;
    if (untold === 0 || this.#ended) return;
    this.#lost = false;
    this.#out.write(Buffer.from(`${clock()} (${untold} log lines dropped: the log's reader did not keep up)\n`));
    if (!this.#lost) this.#reported += untold;
  }

  /** Resolves when every line written so far has been handed to the descriptor, or after `ms`. */
  async drain(ms = 1000): Promise<void> {
    if (this.#ended) return;
    this.#tellDropped();
    let timer: NodeJS.Timeout | undefined;
    await new Promise<void>((resolve) => {
      timer = setTimeout(resolve, ms);
      this.#out.flush(() => resolve());
    });
    clearTimeout(timer);
  }
}

/** Lines wait until this many bytes do… */
const MIN_WRITE_BYTES = 64 * 1024;
/** …or at most this long. */
const FLUSH_MS = 50;
/** The most one write takes (sonic-boom's default, 16 KiB, is below MIN_WRITE_BYTES). */
const MAX_WRITE_BYTES = 256 * 1024;

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
