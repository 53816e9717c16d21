/**
 * The request journal: the last N requests the stub answered (WireMock's request journal), so
 * that a test or a person can see what the app sent and what it got. Credentials never enter it:
 * Authorization, Cookie and any header named like a secret keep only their scheme or name.
 */
export interface JournalEntry {
  /** Ascending from 1 per journal: `since` asks for the entries after one. */
  readonly id: number;
  /** ISO 8601, when the request came. */
  readonly time: string;
  readonly method: string;
  /** The request target as received (path and query). */
  readonly url: string;
  /** Request headers, lower-case names, credentials redacted. */
  readonly headers: Readonly<Record<string, string>>;
  /** The body as UTF-8 text, cut at MAX_BODY characters; absent without one. */
  readonly body?: string;
  readonly bodyTruncated?: boolean;
  /** The operation the request resolved to, if any. */
  readonly operationId?: string;
  /** The scenario applied (`Prefer` of the request, or a scenario set from outside), if any. */
  readonly scenario?: string;
  /** Where it came from: the request's own Prefer, or a scenario set with PUT /__stub/scenarios. */
  readonly scenarioFrom?: 'request' | 'scenarios';
  readonly status: number;
  /** Time the core took to answer, in milliseconds (a delay asked for not included). */
  readonly durationMs: number;
}

const MAX_BODY = 64 * 1024;

const REDACTED = '[redacted]';
const CREDENTIAL = /^(authorization|proxy-authorization|cookie|x-csrftoken|x-xsrf-token)$|token|secret|passw|api-?key/;
const decoder = new TextDecoder('utf-8');

/** A header value as the journal keeps it: a credential's scheme only (`Token [redacted]`). */
function redactHeader(name: string, value: string): string {
  if (!CREDENTIAL.test(name)) return value;
  if (name === 'cookie')
    return value
      .split(';')
      .map((c) => `${c.split('=')[0]?.trim() ?? ''}=${REDACTED}`)
      .join('; ');
  const scheme = /^([A-Za-z][A-Za-z0-9_-]*)\s+\S/.exec(value)?.[1];
  return scheme === undefined ? REDACTED : `${scheme} ${REDACTED}`;
}

export interface JournalFilter {
  readonly path?: string;
  readonly method?: string;
  readonly operationId?: string;
  /** Entries after this id. */
  readonly since?: number;
}

/**
 * A request as the journal takes it: its headers as a function (Node's raw array handed over as
 * it is), written with the rest into the journal's bytes, and redacted only when read.
 */
export type JournalRecord = Omit<JournalEntry, 'id' | 'headers' | 'time'> & {
  /** When the request came, in ms since the epoch (made into ISO 8601 when read). */
  readonly time: number;
  /** Names and values in turn, as the request's `headers()` gives them. */
  readonly headers: () => readonly string[];
};

/**
 * The last `capacity` entries (0: none kept), written as bytes into two segments that take turns
 * (the older kept whole while the newer fills), not kept as objects: an entry held as strings
 * lived through a thousand requests, each was promoted to V8's old space, and under load the
 * heap grew to absorb them (`npm run soak`: RSS +28-31 % in a minute, flat with --journal 0).
 * Bytes in a typed array are one allocation per segment, whatever the requests.
 */
export class Journal {
  readonly capacity: number;
  #active = new Segment();
  #previous = new Segment();
  #next = 1;

  constructor(capacity: number) {
    this.capacity = capacity;
  }

  record(entry: JournalRecord): void {
    if (this.capacity === 0) return;
    const flat = entry.headers();
    if (this.#active.count >= this.capacity || !this.#active.write(this.#next, entry, flat)) {
      [this.#previous, this.#active] = [this.#active, this.#previous];
      this.#active.reset();
      if (!this.#active.write(this.#next, entry, flat)) return;
    }
    this.#next++;
  }

  /** The entries kept, oldest first, those a filter asks for. */
  entries(filter: JournalFilter = {}): JournalEntry[] {
    return [...this.#previous.read(), ...this.#active.read()]
      .slice(-this.capacity)
      .map(materialize)
      .filter(
        (e) =>
          (filter.since === undefined || e.id > filter.since) &&
          (filter.method === undefined || e.method === filter.method.toUpperCase()) &&
          (filter.operationId === undefined || e.operationId === filter.operationId) &&
          (filter.path === undefined || pathOf(e.url) === filter.path),
      );
  }

  clear(): void {
    this.#active.reset();
    this.#previous.reset();
  }
}

/** A segment grows from 64 KiB to 4 MiB; an entry is at most one body (64 KiB) and headers (16 KiB), as UTF-8. */
const SEGMENT_START = 64 * 1024;
const SEGMENT_MAX = 4 * 1024 * 1024;
const encoder = new TextEncoder();

type Stored = Omit<JournalRecord, 'headers'> & { readonly id: number; readonly headers: readonly string[] };

/** Entries one after another: id, time, duration, status, then each text as its length and bytes. */
class Segment {
  #bytes = new Uint8Array(0);
  #view = new DataView(this.#bytes.buffer);
  #used = 0;
  count = 0;

  reset(): void {
    this.#used = 0;
    this.count = 0;
  }

  /** Writes an entry; false when it does not fit even at the largest size. */
  write(id: number, e: JournalRecord, headers: readonly string[]): boolean {
    const fields = [e.method, e.url, e.operationId ?? '', e.scenario ?? '', e.scenarioFrom ?? '', e.body ?? ''];
    // UTF-8 takes at most 3 bytes per UTF-16 unit; 4 bytes of length per text.
    let most = 32;
    for (const t of fields) most += 4 + 3 * t.length;
    for (const t of headers) most += 4 + 3 * t.length;
    if (!this.#room(most)) return false;
    const v = this.#view;
    v.setFloat64(this.#used, id);
    v.setFloat64(this.#used + 8, e.time);
    v.setFloat64(this.#used + 16, e.durationMs);
    v.setUint16(this.#used + 24, e.status);
    v.setUint8(this.#used + 26, (e.body !== undefined ? 1 : 0) | (e.bodyTruncated === true ? 2 : 0));
    v.setUint8(this.#used + 27, 0);
    v.setUint32(this.#used + 28, fields.length + headers.length);
    this.#used += 32;
    for (const t of fields) this.#text(t);
    for (const t of headers) this.#text(t);
    this.count++;
    return true;
  }

  /** A text: its length in bytes, then its UTF-8 (room made for it already). */
  #text(t: string): void {
    const { written } = encoder.encodeInto(t, this.#bytes.subarray(this.#used + 4));
    this.#view.setUint32(this.#used, written);
    this.#used += 4 + written;
  }

  #room(bytes: number): boolean {
    if (this.#used + bytes <= this.#bytes.length) return true;
    let size = Math.max(SEGMENT_START, this.#bytes.length);
    while (size < this.#used + bytes && size < SEGMENT_MAX) size *= 2;
    if (size < this.#used + bytes) return false;
    const bigger = new Uint8Array(size);
    bigger.set(this.#bytes.subarray(0, this.#used));
    this.#bytes = bigger;
    this.#view = new DataView(bigger.buffer);
    return true;
  }

  read(): Stored[] {
    const out: Stored[] = [];
    const v = this.#view;
    let at = 0;
    for (let n = 0; n < this.count; n++) {
      const id = v.getFloat64(at);
      const time = v.getFloat64(at + 8);
      const durationMs = v.getFloat64(at + 16);
      const status = v.getUint16(at + 24);
      const flags = v.getUint8(at + 26);
      const count = v.getUint32(at + 28);
      at += 32;
      const texts: string[] = [];
      for (let i = 0; i < count; i++) {
        const length = v.getUint32(at);
        texts.push(decoder.decode(this.#bytes.subarray(at + 4, at + 4 + length)));
        at += 4 + length;
      }
      const [method = '', url = '', operationId = '', scenario = '', scenarioFrom = '', body = '', ...headers] = texts;
      out.push({
        id,
        time,
        method,
        url,
        headers,
        ...(flags & 1 ? { body } : {}),
        ...(flags & 2 ? { bodyTruncated: true } : {}),
        ...(operationId ? { operationId } : {}),
        ...(scenario ? { scenario } : {}),
        ...(scenarioFrom ? { scenarioFrom: scenarioFrom as 'request' | 'scenarios' } : {}),
        status,
        durationMs,
      });
    }
    return out;
  }
}

function materialize(r: Stored): JournalEntry {
  const headers: Record<string, string> = {};
  for (let i = 0; i + 1 < r.headers.length; i += 2) {
    const n = (r.headers[i] as string).toLowerCase();
    const v = redactHeader(n, r.headers[i + 1] as string);
    headers[n] = headers[n] === undefined ? v : `${headers[n]}, ${v}`;
  }
  return { ...r, time: new Date(r.time).toISOString(), headers };
}

const pathOf = (url: string) => {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
};

/** The body as the journal keeps it. */
export function journalBody(body: Uint8Array | undefined): { body?: string; bodyTruncated?: boolean } {
  if (body === undefined || body.length === 0) return {};
  const cut = body.length > MAX_BODY;
  return { body: decoder.decode(cut ? body.subarray(0, MAX_BODY) : body), ...(cut ? { bodyTruncated: true } : {}) };
}
