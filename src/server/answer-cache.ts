import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http';
import { CACHE_KEY_HEADERS } from '../core/answer.js';

/** A finished answer as it was sent: status, headers (Content-Length included), bytes, and its state. */
export interface CachedAnswer {
  readonly state: object;
  readonly status: number;
  readonly headers: OutgoingHttpHeaders;
  readonly body: Buffer;
}

/**
 * Answers are a pure function of the state, the request line and the headers the core reads
 * (CACHE_KEY_HEADERS), so the stub keeps the last ones it sent and writes them again without
 * answering anew: most of the raw node:http limit (`npm run bench`). Only answers the core marks
 * cacheable (GET or HEAD, no scenario, declared parameters only) are kept; an entry counts only for
 * the state that produced it, so a reload makes every entry stale at once. Bounded in bytes: when
 * full, it starts again empty.
 *
 * The cache must be invisible: the key is everything the core's answer depends on, written so that
 * two different requests can never share it. The method, the target exactly as received, and for
 * each keyed header whether it is present, and its value length-prefixed: an empty header is not an
 * absent one (an empty Host is Django's 400; no Host at all is answered with the server's own), and
 * no value, whatever bytes it holds, can read as another header's.
 */
export class AnswerCache {
  readonly #entries = new Map<string, CachedAnswer>();
  #bytes = 0;
  constructor(readonly maxBytes = 8 * 2 ** 20) {}

  /** The key of a request whose answer may be kept, or undefined. */
  static keyOf(method: string | undefined, url: string | undefined, headers: IncomingHttpHeaders): string | undefined {
    if ((method !== 'GET' && method !== 'HEAD') || url === undefined || headers.prefer !== undefined) return undefined;
    let key = `${method} ${url.length}:${url}`;
    for (const name of CACHE_KEY_HEADERS) {
      const v = headers[name];
      if (v === undefined) key += ' -';
      else {
        const value = Array.isArray(v) ? v.join(', ') : v;
        key += ` ${value.length}:${value}`;
      }
    }
    return key;
  }

  get(key: string, state: object): CachedAnswer | undefined {
    const hit = this.#entries.get(key);
    return hit !== undefined && hit.state === state ? hit : undefined;
  }

  set(key: string, answer: CachedAnswer): void {
    const size = answer.body.length + key.length + 512;
    if (size > this.maxBytes) return;
    if (this.#bytes + size > this.maxBytes) this.clear();
    this.#entries.set(key, answer);
    this.#bytes += size;
  }

  clear(): void {
    this.#entries.clear();
    this.#bytes = 0;
  }

  get size(): number {
    return this.#entries.size;
  }
}
