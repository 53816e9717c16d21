import { type CoreAnswer, type CoreOptions, type CoreRequest, djangoPage, StubCore } from '../core/answer.js';
import { DJANGO_ERRORS } from '../core/errors.js';
import { SCENARIOS_PATH } from '../core/stub/control.js';
import { LOOPBACK_CORS } from '../core/stub/cors.js';
import type { Handlers } from '../core/stub/handler-types.js';
import { deploymentHandlers } from '../deployment/handlers.js';
import type { JournalEntry, JournalFilter } from '../core/stub/journal.js';
import type { ScenarioRule } from '../core/stub/scenario-store.js';
import { compileSnapshot, type Model } from '../core/model.js';
import { asSnapshot, type Snapshot } from '../core/snapshot.js';
import { BUNDLED_SNAPSHOT_JSON } from '../generated/bundled-snapshot.js';
import { parseBaseUrl } from './internal/base-url.js';
import { anySpelling } from './internal/raw-path.js';

/** Options of the fetch and MSW handlers. */
export interface HandlerOptions {
  /**
   * What to serve: a {@link Snapshot}, or the parsed JSON of one (`workplace-stub snapshot >
   * stub-snapshot.json`, then imported or fetched; it is checked). Without one, the package's
   * bundled spec and fixtures (no `fs`: usable in a browser bundle).
   */
  readonly snapshot?: unknown;
  /**
   * A fixed base URL for every absolute url (`https://staging.example.org/workplace`); without it,
   * urls follow each request's origin, as the service's do (in a browser, the page's origin). A
   * path in it is where the service lives: requests are answered below it.
   */
  readonly baseUrl?: string | undefined;
  /** DRF's PAGE_SIZE: items per page (100). */
  readonly pageSize?: number | undefined;
  /**
   * Behaviour the spec cannot say, by operationId (the module `--handlers` names, imported by
   * you: `import handlers from './handlers'`): the same functions answer the same bytes here as in
   * the server.
   */
  readonly handlers?: Handlers | undefined;
  /** The token keys TokenAuthentication accepts (`--tokens`); any key without it. */
  readonly tokens?: readonly string[] | undefined;
  /** Requests kept for `requests()` (default 1,000; 0 for none). */
  readonly journal?: number | undefined;
  /** A fixed time for handlers' `context.now()`. */
  readonly now?: Date | undefined;
  /** Sessions (`X-Stub-Session`) open at a time (default 64). */
  readonly maxSessions?: number | undefined;
}

/** A fetch handler, with the state of its writes and the controls of `/__stub/`. */
export interface FetchHandler {
  (request: Request): Promise<Response>;
  /** Puts written state back to the snapshot's and clears the scenarios (`POST /__stub/reset`). */
  reset(session?: string): void;
  /** The requests answered, as `GET /__stub/requests` gives them. */
  requests(filter?: JournalFilter & { readonly session?: string }): JournalEntry[];
  /** Scenarios applied from outside the app's requests, as `/__stub/scenarios` sets them. */
  readonly scenarios: {
    /** Adds scenarios (`{operationId, prefer, times}`); throws with every problem of one it cannot take. */
    set(...rules: ScenarioRule[]): Promise<void>;
    list(): Promise<ScenarioRule[]>;
    /** Removes the rules of an operationId, or of a path (and method). */
    remove(target: { operationId: string } | { path: string; method?: string }): Promise<void>;
    clear(): Promise<void>;
  };
  /** The compiled snapshot it answers from. */
  readonly model: Model;
}

let bundled: Snapshot | undefined;

/** The package's own spec and fixtures (what the handlers serve without a snapshot), parsed on first use. */
export function bundledSnapshot(): Snapshot {
  bundled ??= asSnapshot(JSON.parse(BUNDLED_SNAPSHOT_JSON));
  return bundled;
}

function coreFor(options: HandlerOptions, baseUrl: string | undefined): StubCore {
  const pageSize = options.pageSize ?? 100;
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > 100_000)
    throw new TypeError(`pageSize must be a whole number from 1 to 100000 (got ${String(options.pageSize)})`);
  const coreOptions: CoreOptions = {
    pageSize,
    baseUrl,
    trustProxy: false,
    allowedHosts: ['*'],
    fallbackHost: 'localhost',
    maxDelayMs: 10_000,
    cors: LOOPBACK_CORS,
    // The bundled snapshot comes with what the deployment's viewsets do that its spec cannot say.
    handlers: options.handlers ?? (options.snapshot === undefined ? deploymentHandlers : undefined),
    tokens: options.tokens === undefined ? undefined : new Set(options.tokens),
    journal: options.journal,
    maxSessions: options.maxSessions,
    now: options.now === undefined ? undefined : () => options.now as Date,
  };
  return new StubCore(compileSnapshot(options.snapshot ?? bundledSnapshot()), coreOptions);
}

/**
 * The request as the core sees it. A Request's Host is its URL's (fetch never lets a page set
 * one) and so is its scheme; its own X-Forwarded-* headers are not read, as the server reads
 * none without `--trust-proxy`.
 */
function coreRequest(request: Request, url: URL, path: string, body: Uint8Array | undefined): CoreRequest {
  return {
    method: request.method,
    url: `${path}${url.search}`,
    header: (name) => (name === 'host' ? url.host : (request.headers.get(name) ?? undefined)),
    body,
    scheme: url.protocol === 'https:' ? 'https' : 'http',
    headers: () => ['host', url.host, ...[...request.headers.entries()].flat()],
  };
}

const encoder = new TextEncoder();
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/** The answer as a Response: HEAD gets GET's headers and no body, as the server sends it. */
function toResponse(method: string, answer: CoreAnswer): Response {
  const body = encoder.encode(answer.body);
  const headers = new Headers(answer.headers);
  headers.set('content-length', String(body.length));
  return new Response(method === 'HEAD' || NULL_BODY.has(answer.status) ? null : body, {
    status: answer.status,
    headers,
  });
}

/** Nothing of the service lives outside its base path: Django's page_not_found, as a proxy in front would leave it. */
const NOT_UNDER_BASE: CoreAnswer = djangoPage(DJANGO_ERRORS.PAGE_NOT_FOUND);

/**
 * `(request: Request) => Promise<Response>` answering exactly as the stub's HTTP server does, from
 * the same core: for service workers, edge runtimes, and tests that stub `fetch`. With a `baseUrl`
 * that has a path, that path is taken off each request's before the core sees it (a request
 * outside it answers 404); the origin of the request is not checked (route to it what you mean to).
 */
export function createFetchHandler(options: HandlerOptions = {}): FetchHandler {
  const base = parseBaseUrl(options.baseUrl);
  const underBase = base?.path ? new RegExp(`^${anySpelling(base.path)}(?=/|$)`) : undefined;
  const core = coreFor(options, base?.url);
  const handler = async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    let path = url.pathname;
    if (underBase) {
      const m = underBase.exec(path);
      if (!m) return toResponse(request.method, NOT_UNDER_BASE);
      path = path.slice(m[0].length) || '/';
    }
    const hasBody = request.method !== 'GET' && request.method !== 'HEAD' && request.body !== null;
    const body = hasBody ? new Uint8Array(await request.arrayBuffer()) : undefined;
    const answer = await core.answer(coreRequest(request, url, path, body));
    if (answer.delayMs) await new Promise((resolve) => setTimeout(resolve, answer.delayMs));
    return toResponse(request.method, answer);
  };
  // The controls go through the core's own paths, as a test's HTTP requests would.
  const control = async (method: string, path: string, body?: unknown): Promise<unknown> => {
    const res = await handler(
      new Request(`http://localhost${path}`, {
        method,
        ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
      }),
    );
    if (res.status >= 400) throw new Error(((await res.json()) as { detail?: string }).detail ?? `${res.status}`);
    return res.status === 204 ? undefined : res.json();
  };
  return Object.assign(handler, {
    reset: (session?: string) => core.reset(session),
    requests: ({ session, ...filter }: JournalFilter & { readonly session?: string } = {}) =>
      core.requests(filter, session),
    scenarios: {
      set: async (...rules: ScenarioRule[]) => void (await control('PUT', SCENARIOS_PATH, rules)),
      list: async () => ((await control('GET', SCENARIOS_PATH)) as { scenarios: ScenarioRule[] }).scenarios,
      remove: async (target: { operationId: string } | { path: string; method?: string }) =>
        void (await control('DELETE', `${SCENARIOS_PATH}?${new URLSearchParams(target as Record<string, string>)}`)),
      clear: async () => void (await control('DELETE', SCENARIOS_PATH)),
    },
    model: core.model,
  });
}
