import { type CoreOptions, StubCore } from '../core/answer.js';
import { compileSnapshot, type Model } from '../core/model.js';
import { asSnapshot, type Snapshot } from '../core/snapshot.js';
import { BUNDLED_SNAPSHOT_JSON } from '../generated/bundled-snapshot.js';

/** Options of the fetch and MSW handlers. */
export interface HandlerOptions {
  /**
   * What to serve: a snapshot (`workplace-stub snapshot > stub-snapshot.json`, then imported or
   * fetched). Without one, the package's bundled spec and fixtures (no `fs`: usable in a browser).
   */
  readonly snapshot?: Snapshot | unknown;
  /**
   * A fixed base URL for every absolute url (`https://staging.example.org`); without it, urls
   * follow each request's origin, as the service's do (in a browser, the page's origin).
   */
  readonly baseUrl?: string;
  /** DRF's PAGE_SIZE (100). */
  readonly pageSize?: number;
}

/** A fetch handler, with the state of its declared writes. */
export interface FetchHandler {
  (request: Request): Promise<Response>;
  /** Puts written state back to the snapshot's (as `POST /__stub/reset` does). */
  reset(): void;
  /** The compiled snapshot it answers from. */
  readonly model: Model;
}

let bundled: Snapshot | undefined;

/** The package's own spec and fixtures, parsed on first use. */
export function bundledSnapshot(): Snapshot {
  bundled ??= asSnapshot(JSON.parse(BUNDLED_SNAPSHOT_JSON));
  return bundled;
}

/** Normalizes a base URL: absolute http(s), no query or fragment, no trailing slash. */
function baseUrlOf(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  const u = new URL(raw);
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new TypeError(`baseUrl must be an http(s) URL (got ${JSON.stringify(raw)})`);
  return `${u.origin}${u.pathname.replace(/\/+$/, '')}`;
}

export function coreFor(options: HandlerOptions): StubCore {
  const pageSize = options.pageSize ?? 100;
  if (!Number.isInteger(pageSize) || pageSize < 1) throw new TypeError(`pageSize must be a whole number from 1 (got ${String(options.pageSize)})`);
  const coreOptions: CoreOptions = {
    pageSize,
    baseUrl: baseUrlOf(options.baseUrl),
    trustProxy: false,
    allowedHosts: ['*'],
    fallbackHost: 'localhost',
    maxDelayMs: 10_000,
    cors: true,
  };
  return new StubCore(compileSnapshot(options.snapshot ?? bundledSnapshot()), coreOptions);
}

const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/**
 * `(request: Request) => Promise<Response>` answering exactly as the stub's HTTP server does, from
 * the same core: for service workers, edge runtimes, and tests that stub `fetch`.
 */
export function createFetchHandler(options: HandlerOptions = {}): FetchHandler {
  let core = coreFor(options);
  const handler = async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    const hasBody = request.method !== 'GET' && request.method !== 'HEAD' && request.body !== null;
    const body = hasBody ? new Uint8Array(await request.arrayBuffer()) : undefined;
    // A Request's Host is its URL's (browsers and fetch never let a page set it).
    const header = (name: string) => (name === 'host' ? url.host : (request.headers.get(name) ?? undefined));
    const answer = core.answer({ method: request.method, url: `${url.pathname}${url.search}`, header, body });
    if (answer.delayMs) await new Promise((r) => setTimeout(r, answer.delayMs));
    const length = new TextEncoder().encode(answer.body).length;
    return new Response(request.method === 'HEAD' || NULL_BODY.has(answer.status) ? null : answer.body, {
      status: answer.status,
      headers: { ...answer.headers, 'content-length': String(length) },
    });
  };
  return Object.assign(handler, {
    reset: () => {
      core = coreFor(options);
    },
    get model() {
      return core.model;
    },
  });
}
