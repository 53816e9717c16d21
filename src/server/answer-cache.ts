import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http';
import { CACHE_KEY_HEADERS, type CoreAnswer } from '../core/answer.js';

/** A finished answer as it was sent: status, headers (Content-Length included), bytes, and its state. */
export interface CachedAnswer {
  readonly state: object;
  readonly status: number;
  readonly headers: OutgoingHttpHeaders;
  readonly body: Buffer;
  /** The core's answer (its status and operation, for the journal). */
  readonly answer: CoreAnswer;
}

/** A kept answer and what its request carried in each keyed header (undefined: absent). */
interface Entry extends CachedAnswer {
  readonly values: readonly (string | undefined)[];
  /** What it counts for against the bound. */
  readonly size: number;
}

/**
 * Answers are a pure function of the state, the request line and the headers the core reads
 * (CACHE_KEY_HEADERS), so the stub keeps the last ones it sent and writes them again without
 * answering anew (what that is worth: docs/performance.md). Only answers the core marks
 * cacheable to a GET (no scenario, declared parameters only) are kept; an entry counts only for
 * the state that produced it, so a reload makes every entry stale at once. Bounded in bytes: when
 * full, it starts again empty.
 *
 * The cache must be invisible: a request meets an answer only when its target is exactly the one
 * received then, and each keyed header is exactly as it was, present or absent (an empty Host is
 * Django's 400; no Host at all is answered with the server's own). Nothing is built to compare
 * them: the target is looked up as Node gave it, then each header's value compared with `===`,
 * so that no value, whatever bytes it holds, can stand for another header's.
 */
export class AnswerCache {
  readonly #byTarget = new Map<string, Entry[]>();
  #bytes = 0;
  #size = 0;
  constructor(readonly maxBytes = 8 * 2 ** 20) {}

  /** Whether the answer to this request may be kept: a GET with every keyed header a single value, and no Prefer. */
  static keeps(method: string | undefined, url: string | undefined, headers: IncomingHttpHeaders): url is string {
    if (method !== 'GET' || url === undefined || headers.prefer !== undefined) return false;
    for (const name of CACHE_KEY_HEADERS) {
      const v = headers[name];
      if (v !== undefined && typeof v !== 'string') return false;
    }
    return true;
  }

  /** The answer kept for this request in `state`, if any. */
  get(
    method: string | undefined,
    url: string | undefined,
    headers: IncomingHttpHeaders,
    state: object,
  ): CachedAnswer | undefined {
    if (method !== 'GET' || url === undefined) return undefined;
    const kept = this.#byTarget.get(url);
    if (kept === undefined) return undefined;
    for (const entry of kept) if (entry.state === state && sameHeaders(entry.values, headers)) return entry;
    return undefined;
  }

  /** Keeps the answer to this request (nothing when `keeps` says no), in place of one for the same request or an older state. */
  set(method: string | undefined, url: string | undefined, headers: IncomingHttpHeaders, answer: CachedAnswer): void {
    if (!AnswerCache.keeps(method, url, headers)) return;
    const values = CACHE_KEY_HEADERS.map((name) => headers[name] as string | undefined);
    const size = answer.body.length + url.length + values.reduce((n, v) => n + (v?.length ?? 0), 0) + 512;
    if (size > this.maxBytes) return;
    if (this.#bytes + size > this.maxBytes) this.clear();
    const entry: Entry = {
      state: answer.state,
      status: answer.status,
      headers: answer.headers,
      body: answer.body,
      answer: answer.answer,
      values,
      size,
    };
    const before = this.#byTarget.get(url) ?? [];
    // An entry for the same request, or one of an older state, is replaced: its bytes count no more.
    const kept = before.filter((e) => e.state === answer.state && !sameHeaders(e.values, headers));
    for (const e of before) if (!kept.includes(e)) this.#bytes -= e.size;
    kept.push(entry);
    this.#byTarget.set(url, kept);
    this.#size += kept.length - before.length;
    this.#bytes += size;
  }

  clear(): void {
    this.#byTarget.clear();
    this.#bytes = 0;
    this.#size = 0;
  }

  /** The answers kept. */
  get size(): number {
    return this.#size;
  }
}

/**
 * Whether a request carries each keyed header exactly as the entry's did, present or absent: one
 * read per name of CACHE_KEY_HEADERS, in its order, each written out. V8 caches a read of a named
 * property by the object's shape; the same reads through a loop over the names are keyed reads,
 * which it cannot (docs/performance.md).
 * test/unit/server/answer-cache.test.ts holds it to every name of the list.
 */
function sameHeaders(v: readonly (string | undefined)[], h: IncomingHttpHeaders): boolean {
  return (
    h.host === v[0] &&
    h['x-forwarded-host'] === v[1] &&
    h['x-forwarded-proto'] === v[2] &&
    h.accept === v[3] &&
    h.authorization === v[4] &&
    h.cookie === v[5] &&
    h.origin === v[6] &&
    h.prefer === v[7] &&
    h['access-control-request-method'] === v[8] &&
    h['access-control-request-headers'] === v[9] &&
    h['x-stub-session'] === v[10]
  );
}
