import { fromCharCodes } from '../python/utf8.js';
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
 * A request as the journal takes it: what it already has, copied into the journal's units when
 * recorded (headers as a function: Node's raw array handed over as it is; the body as received),
 * decoded and redacted only when read.
 */
export interface JournalRecord {
  /** When the request came, in ms since the epoch (made into ISO 8601 when read). */
  readonly time: number;
  readonly method: string;
  readonly url: string;
  /** Names and values in turn, as the request's `headers()` gives them. */
  readonly headers: () => readonly string[];
  /** The body as received (its first MAX_BODY bytes are kept). */
  readonly body: Uint8Array | undefined;
  readonly operationId: string | undefined;
  readonly scenario: string | undefined;
  readonly scenarioFrom: 'request' | 'scenarios' | undefined;
  readonly status: number;
  readonly durationMs: number;
}

/**
 * The last `capacity` entries (0: none kept), copied into two segments of UTF-16 units that take
 * turns (the older kept whole while the newer fills), not kept as objects: an entry held as
 * strings lived through a thousand requests and was promoted to V8's old space, which grew under
 * load to absorb them (docs/performance.md, the soak). A segment is one allocation whatever the
 * requests, and a text is copied unit by unit, with no encoder call per text.
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

/** A segment grows from 32 Ki units to 2 Mi (4 MiB); an entry holds at most one body (64 KiB) and headers (16 KiB). */
const SEGMENT_START = 32 * 1024;
const SEGMENT_MAX = 2 * 1024 * 1024;
/** An entry's head, in units: id, time, duration (float64 each), status, flags, text count. */
const HEAD = 16;
const TEXTS = 5;

/** What an entry holds as text. */
interface Texts {
  readonly method: string;
  readonly url: string;
  readonly operationId: string;
  readonly scenario: string;
  readonly scenarioFrom: string;
  /** Names and values in turn. */
  readonly headers: readonly string[];
}

interface Stored extends Texts {
  readonly id: number;
  readonly time: number;
  readonly body: string | undefined;
  readonly bodyTruncated: boolean;
  readonly status: number;
  readonly durationMs: number;
}

/** An entry's flags: a body kept; the body cut at MAX_BODY; its texts those of the entry before it. */
const HAS_BODY = 1;
const BODY_CUT = 2;
const AS_BEFORE = 4;

/** Whether two lists of texts are the same, unit for unit. */
function sameUnits(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * Entries one after another: the head, then each text as its length (two units) and its units
 * (method, url, operationId, scenario, scenarioFrom, the headers), then the body's bytes, one a unit.
 * An entry whose texts are the entry before's, unit for unit, has none but its body (AS_BEFORE).
 */
class Segment {
  #units = new Uint16Array(0);
  #view = new DataView(this.#units.buffer);
  #used = 0;
  count = 0;
  /** The texts of the last entry written out: an entry with the same ones says so (AS_BEFORE) instead. */
  #last: Texts | undefined;

  reset(): void {
    this.#used = 0;
    this.count = 0;
    this.#last = undefined;
  }

  /** Writes an entry; false when it does not fit even at the largest size. */
  write(id: number, e: JournalRecord, headers: readonly string[]): boolean {
    const operationId = e.operationId ?? '';
    const scenario = e.scenario ?? '';
    const scenarioFrom = e.scenarioFrom ?? '';
    const last = this.#last;
    const asBefore =
      last !== undefined &&
      last.method === e.method &&
      last.url === e.url &&
      last.operationId === operationId &&
      last.scenario === scenario &&
      last.scenarioFrom === scenarioFrom &&
      sameUnits(last.headers, headers);
    const body = e.body === undefined || e.body.length === 0 ? undefined : e.body;
    const bodyLength = body === undefined ? 0 : Math.min(body.length, MAX_BODY);
    let size = HEAD + 2 + bodyLength;
    if (!asBefore) {
      size += 2 * (TEXTS + headers.length);
      size += e.method.length + e.url.length + operationId.length + scenario.length + scenarioFrom.length;
      for (let i = 0; i < headers.length; i++) size += (headers[i] as string).length;
    }
    if (!this.#room(size)) return false;
    const at = this.#used * 2;
    const v = this.#view;
    v.setFloat64(at, id);
    v.setFloat64(at + 8, e.time);
    v.setFloat64(at + 16, e.durationMs);
    v.setUint16(at + 24, e.status);
    v.setUint16(
      at + 26,
      (body !== undefined ? HAS_BODY : 0) |
        (body !== undefined && body.length > MAX_BODY ? BODY_CUT : 0) |
        (asBefore ? AS_BEFORE : 0),
    );
    v.setUint32(at + 28, headers.length);
    this.#used += HEAD;
    if (!asBefore) {
      this.#text(e.method);
      this.#text(e.url);
      this.#text(operationId);
      this.#text(scenario);
      this.#text(scenarioFrom);
      for (let i = 0; i < headers.length; i++) this.#text(headers[i] as string);
      this.#last = { method: e.method, url: e.url, operationId, scenario, scenarioFrom, headers };
    }
    this.#length(bodyLength);
    const u = this.#units;
    for (let i = 0, o = this.#used; i < bodyLength; i++) u[o + i] = body?.[i] as number;
    this.#used += bodyLength;
    this.count++;
    return true;
  }

  #length(n: number): void {
    this.#units[this.#used] = n >>> 16;
    this.#units[this.#used + 1] = n & 0xffff;
    this.#used += 2;
  }

  /** A text: its length, then its UTF-16 units (room made for it already). */
  #text(t: string): void {
    this.#length(t.length);
    const u = this.#units;
    const o = this.#used;
    for (let i = 0; i < t.length; i++) u[o + i] = t.charCodeAt(i);
    this.#used += t.length;
  }

  #room(units: number): boolean {
    if (this.#used + units <= this.#units.length) return true;
    let size = Math.max(SEGMENT_START, this.#units.length);
    while (size < this.#used + units && size < SEGMENT_MAX) size *= 2;
    if (size < this.#used + units) return false;
    const bigger = new Uint16Array(size);
    bigger.set(this.#units.subarray(0, this.#used));
    this.#units = bigger;
    this.#view = new DataView(bigger.buffer);
    return true;
  }

  read(): Stored[] {
    const out: Stored[] = [];
    const u = this.#units;
    const v = this.#view;
    let at = 0;
    const length = () => {
      const n = (((u[at] as number) << 16) | (u[at + 1] as number)) >>> 0;
      at += 2;
      return n;
    };
    const text = () => {
      const n = length();
      const t = fromCharCodes(u.subarray(at, at + n));
      at += n;
      return t;
    };
    let last: Texts | undefined;
    for (let n = 0; n < this.count; n++) {
      const id = v.getFloat64(at * 2);
      const time = v.getFloat64(at * 2 + 8);
      const durationMs = v.getFloat64(at * 2 + 16);
      const status = v.getUint16(at * 2 + 24);
      const flags = v.getUint16(at * 2 + 26);
      const headerCount = v.getUint32(at * 2 + 28);
      at += HEAD;
      if (!(flags & AS_BEFORE)) {
        const method = text();
        const url = text();
        const operationId = text();
        const scenario = text();
        const scenarioFrom = text();
        const headers: string[] = [];
        for (let i = 0; i < headerCount; i++) headers.push(text());
        last = { method, url, operationId, scenario, scenarioFrom, headers };
      }
      const bodyLength = length();
      const body = flags & HAS_BODY ? decoder.decode(Uint8Array.from(u.subarray(at, at + bodyLength))) : undefined;
      at += bodyLength;
      out.push({ id, time, ...(last as Texts), body, bodyTruncated: (flags & BODY_CUT) !== 0, status, durationMs });
    }
    return out;
  }
}

/** An entry as it is read: headers by lower-case name, credentials redacted, empty members left out. */
function materialize(r: Stored): JournalEntry {
  const headers: Record<string, string> = {};
  for (let i = 0; i + 1 < r.headers.length; i += 2) {
    const n = (r.headers[i] as string).toLowerCase();
    const v = redactHeader(n, r.headers[i + 1] as string);
    headers[n] = headers[n] === undefined ? v : `${headers[n]}, ${v}`;
  }
  return {
    id: r.id,
    time: new Date(r.time).toISOString(),
    method: r.method,
    url: r.url,
    headers,
    ...(r.body !== undefined ? { body: r.body } : {}),
    ...(r.bodyTruncated ? { bodyTruncated: true } : {}),
    ...(r.operationId ? { operationId: r.operationId } : {}),
    ...(r.scenario ? { scenario: r.scenario } : {}),
    ...(r.scenarioFrom ? { scenarioFrom: r.scenarioFrom as 'request' | 'scenarios' } : {}),
    status: r.status,
    durationMs: r.durationMs,
  };
}

const pathOf = (url: string) => {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
};
