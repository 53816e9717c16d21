import type { IncomingMessage, OutgoingHttpHeaders } from 'node:http';

/** A finished answer, exactly as Fastify sent it: status, headers, bytes, and the state it came from. */
export interface CachedAnswer {
  readonly state: object;
  readonly status: number;
  readonly headers: OutgoingHttpHeaders;
  readonly body: Buffer;
}

/**
 * Answers are a pure function of the state, the request line and a few headers, so the stub keeps
 * the last ones it sent and writes them again without going through routing, hooks and
 * serialization: the difference between half and most of the raw node:http limit (`npm run bench`).
 * Only GET without `Prefer` and without scenario parameters is kept; an entry counts only for the
 * state that produced it, so a reload makes every entry stale at once. Bounded in bytes: when
 * full, it starts again empty.
 */
export class AnswerCache {
  readonly #entries = new Map<string, CachedAnswer>();
  #bytes = 0;
  constructor(readonly maxBytes = 8 * 2 ** 20) {}

  /** The key of a request whose answer may be kept, or undefined. */
  static keyOf(req: IncomingMessage): string | undefined {
    const url = req.url ?? '';
    if ((req.method !== 'GET' && req.method !== 'HEAD') || req.headers.prefer !== undefined || url.includes('__')) return undefined;
    const h = req.headers;
    return `${url}\n${h.host ?? ''}\n${h.origin ?? ''}\n${h['x-forwarded-host'] ?? ''}\n${h['x-forwarded-proto'] ?? ''}\n${h['access-control-request-method'] ?? ''}`;
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
