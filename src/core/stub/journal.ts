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
 * What is kept of a request until the journal is read: its headers as a function (made into a
 * redacted record only when asked for, so that answering costs no copy of them).
 */
export type JournalRecord = Omit<JournalEntry, 'id' | 'headers' | 'time'> & {
  /** When the request came, in ms since the epoch (made into ISO 8601 when read). */
  readonly time: number;
  readonly headers: () => Iterable<readonly [string, string]>;
};

/** A ring of the last `capacity` entries (0: none kept). */
export class Journal {
  readonly capacity: number;
  #records: (JournalRecord & { id: number })[] = [];
  #next = 1;

  constructor(capacity: number) {
    this.capacity = capacity;
  }

  record(entry: JournalRecord): void {
    if (this.capacity === 0) return;
    this.#records.push({ id: this.#next++, ...entry });
    // Trimmed in batches: one splice per `capacity` requests, not one per request.
    if (this.#records.length >= 2 * this.capacity) this.#records.splice(0, this.#records.length - this.capacity);
  }

  /** The entries kept, oldest first, those a filter asks for. */
  entries(filter: JournalFilter = {}): JournalEntry[] {
    return this.#records
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
    this.#records = [];
  }
}

function materialize(r: JournalRecord & { id: number }): JournalEntry {
  const headers: Record<string, string> = {};
  for (const [name, value] of r.headers()) {
    const n = name.toLowerCase();
    const v = redactHeader(n, value);
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
