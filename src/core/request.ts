import type { HeaderGetter, HostOptions } from './django/host.js';
import type { AnyOperation } from '../openapi/operations.js';
import type { QueryMap } from './python/query.js';
import type { Handler } from './stub/handler-types.js';
import type { CorsPolicy } from './stub/cors-policy.js';

export type { HeaderGetter } from './django/host.js';

/** One request, as any adapter sees it. */
export interface CoreRequest {
  /** The method as sent (Django upper-cases it). */
  readonly method: string;
  /** The request target: path and query, as received (bytes as latin1 chars, or percent-encoded). */
  readonly url: string;
  /** A header by lower-case name: undefined when absent, '' when present and empty. */
  readonly header: HeaderGetter;
  /** The body, for writes. */
  readonly body?: Uint8Array | undefined;
  /** The scheme the request came by (WSGI's url_scheme): https urls for an https request. */
  readonly scheme?: 'http' | 'https';
  /** Every header as sent, names and values in turn (Node's `rawHeaders`), for the journal. */
  readonly headers?: () => readonly string[];
}

/** One answer: status, headers (lower-case names, no Content-Length), body. */
export interface CoreAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /** The body a GET would carry; adapters send none for HEAD (Django's WSGI server does the same). */
  readonly body: string;
  /** `Prefer: delay=MS`: wait this long before sending. */
  readonly delayMs?: number;
  /**
   * The answer is a pure function of the state, the method, the url and the headers of
   * CACHE_KEY_HEADERS, and may be kept by an answer cache.
   */
  readonly cacheable?: boolean;
  /** The operation that answered, for the journal (kept with a cached answer). */
  readonly operationId?: string;
}

/** The headers an answer depends on; an answer cache keys on these (presence and value). */
export const CACHE_KEY_HEADERS = Object.freeze([
  'host',
  'x-forwarded-host',
  'x-forwarded-proto',
  'accept',
  'authorization',
  'cookie',
  'origin',
  'prefer',
  'access-control-request-method',
  'access-control-request-headers',
  'x-stub-session',
]);

/** The host options (django/host.ts: the base URL, the proxy, ALLOWED_HOSTS), and the stub's own. */
export interface CoreOptions extends HostOptions {
  /** PageNumberPagination's PAGE_SIZE. */
  readonly pageSize: number;
  /** Upper bound of `Prefer: delay=MS`. */
  readonly maxDelayMs: number;
  /** Which browser pages may read the answers (stub/cors.ts). */
  readonly cors: CorsPolicy;
  /** `--journal N`: requests kept per session for `GET /__stub/requests` (default 1,000; 0 for none). */
  readonly journal?: number | undefined;
  /** `--max-sessions`: sessions (`X-Stub-Session`) open at a time (default 64). */
  readonly maxSessions?: number | undefined;
  /** A session idle this long is dropped (default 30 minutes). */
  readonly sessionIdleMs?: number | undefined;
  /** `--tokens`: the token keys TokenAuthentication accepts; any key without it (a stub has no users). */
  readonly tokens?: ReadonlySet<string> | undefined;
  /** `--sessions`: the session keys of logged-in users (SessionAuthentication, then CSRF); none without it. */
  readonly sessions?: ReadonlySet<string> | undefined;
  /** The designer's handlers, by operationId (`--handlers`). */
  readonly handlers?: Readonly<Record<string, Handler>> | undefined;
  /** Checks a handler's answer against its declared response (the server's contract Ajv). */
  readonly checkAnswer?: ((op: AnyOperation, status: number, body: unknown) => readonly AnswerViolation[]) | undefined;
  /** `--strict-handlers`: an answer the spec refuses is a 500. */
  readonly strictHandlers?: boolean | undefined;
  /** Told of every handler problem (the server logs it). */
  readonly onHandlerProblem?: ((problem: HandlerProblem) => void) | undefined;
  /** The stub's clock (`--now`), for handlers. */
  readonly now?: (() => Date) | undefined;
  /** `--validate-requests`: violations of the declared query parameters, checked before the view. */
  readonly validateQuery?:
    ((op: AnyOperation, query: QueryMap) => readonly { location: string; message: string }[]) | undefined;
}

/** Where an answer breaks its declaration (the contract's rule, the place, why). */
export interface AnswerViolation {
  readonly pointer: string;
  readonly message: string;
}

/** A handler's answer that breaks the spec, or a handler that threw. */
export interface HandlerProblem {
  readonly operationId: string;
  readonly violations?: readonly AnswerViolation[];
  readonly error?: unknown;
}

/** What the view sees of a request once Django has resolved it. */
export interface RequestContext {
  /** Upper case. */
  readonly method: string;
  readonly baseUrl: string;
  /** The decoded path (Django's path_info). */
  readonly path: string;
  /** request.GET. */
  readonly query: QueryMap;
  /** The query as received (for links, which Django builds from it). */
  readonly rawQuery: string;
  /** The format suffix of the resolved route (`desk.json`), if any. */
  readonly suffix: string | undefined;
  /** The route's path parameters, in order (the item's pk). */
  readonly params: readonly string[];
  readonly header: HeaderGetter;
  readonly body: Uint8Array | undefined;
}
