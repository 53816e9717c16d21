import { DJANGO_HEADERS, JSON_TYPE } from '../django/http.js';
import { STUB_PROBLEMS, stubProblem } from '../errors.js';
import { lastValue, type QueryMap } from '../python/query.js';
import type { CoreAnswer } from '../request.js';
import type { JournalFilter } from './journal.js';
import type { SessionState } from './sessions.js';
import { withHeaders, withMembers } from '../members.js';

/*
 * The stub's own paths, under /__stub/ (outside the service's): put the state back, read the
 * journal, set scenarios from outside the app, see where each operation's answers come from.
 * JSON in and out; a request the stub cannot take is its own 400 (problem+json).
 */

/** Where the stub's own paths live. */
export const STUB_PREFIX = '/__stub/';
export const RESET_PATH = '/__stub/reset';
const REQUESTS_PATH = '/__stub/requests';
export const SCENARIOS_PATH = '/__stub/scenarios';
const OPERATIONS_PATH = '/__stub/operations';

/** Where an operation's answers come from, for the page and `GET /__stub/operations`. */
export interface OperationSource {
  readonly operationId: string;
  readonly method: string;
  readonly path: string;
  /** What the route is: a collection's list, an item's, a write, or an action or view of its own. */
  readonly kind: 'list' | 'detail' | 'write' | 'custom';
  /**
   * `handler`, `fixture`, `example`, `generated`, `collection` (its viewset's own), `declared` (a
   * plain Django view's declared answer), or `none`.
   */
  readonly source: string;
  /** With a handler: what answers when it answers `undefined` (any of the others). */
  readonly otherwise?: string;
  /** The fixture file's name, for `fixture` (`x-stub-fixture`). */
  readonly fixture?: string;
  /** The status codes the spec declares, for the page's switches. */
  readonly responses: readonly string[];
}

export interface ControlContext {
  readonly state: SessionState<unknown>;
  readonly session: string | undefined;
  /** Puts this session's (or the shared) state back to the snapshot's, scenarios included. */
  reset(): void;
  operations(): readonly OperationSource[];
  readonly maxDelayMs: number;
  knows(operationId: string): boolean;
  /** Told when scenarios change (an answer cache lets go of what it kept). */
  changed(): void;
}

const json = (status: number, value: unknown): CoreAnswer => ({
  status,
  headers: withMembers(DJANGO_HEADERS, { 'content-type': JSON_TYPE }),
  body: JSON.stringify(value),
});
export const NO_CONTENT: CoreAnswer = { status: 204, headers: { ...DJANGO_HEADERS }, body: '' };

function notAllowed(path: string, allow: string, what: string): CoreAnswer {
  return withHeaders(stubProblem(STUB_PROBLEMS.METHOD_NOT_ALLOWED, `${path} takes ${allow}: ${what}`), { allow });
}

/** The answer of one of the stub's own paths; undefined for a path that is none of them. */
export function controlAnswer(
  method: string,
  path: string,
  query: QueryMap,
  body: Uint8Array | undefined,
  ctx: ControlContext,
): CoreAnswer | undefined {
  // ?operationId=, ?path= and ?method=: the journal entries, or the scenario rules, asked about.
  const target = {
    operationId: lastValue(query, 'operationId'),
    path: lastValue(query, 'path'),
    method: lastValue(query, 'method'),
  };
  if (path === RESET_PATH) {
    if (method !== 'POST') return notAllowed(path, 'POST', "it puts every collection back to the snapshot's items");
    ctx.reset();
    return NO_CONTENT;
  }
  if (path === REQUESTS_PATH) {
    if (method === 'DELETE') {
      ctx.state.journal.clear();
      return NO_CONTENT;
    }
    if (method !== 'GET' && method !== 'HEAD')
      return notAllowed(path, 'GET, DELETE', 'the requests the stub answered (?path, method, operationId, since)');
    const since = lastValue(query, 'since');
    if (since !== undefined && !/^[0-9]{1,15}$/.test(since))
      return stubProblem(STUB_PROBLEMS.INVALID_REQUEST, 'since is the id of a journal entry (a whole number)');
    const filter: JournalFilter = { ...target, since: since === undefined ? undefined : Number(since) };
    return json(200, {
      session: ctx.session ?? null,
      capacity: ctx.state.journal.capacity,
      requests: ctx.state.journal.entries(filter),
    });
  }
  if (path === SCENARIOS_PATH) {
    if (method === 'GET' || method === 'HEAD')
      return json(200, { session: ctx.session ?? null, scenarios: ctx.state.scenarios.list() });
    if (method === 'DELETE') {
      // The rules of an operationId (or of a path and method) only; nothing asked: every rule.
      if (target.operationId === undefined && target.path === undefined && target.method === undefined)
        ctx.state.scenarios.clear();
      else ctx.state.scenarios.remove(target);
      ctx.changed();
      return NO_CONTENT;
    }
    if (method !== 'PUT' && method !== 'POST')
      return notAllowed(path, 'GET, PUT, DELETE', 'scenarios applied to matching requests');
    let value: unknown;
    try {
      value = JSON.parse(new TextDecoder().decode(body ?? new Uint8Array()));
    } catch (e) {
      return stubProblem(STUB_PROBLEMS.INVALID_SCENARIO, `the body is not JSON: ${(e as Error).message}`);
    }
    const problems = ctx.state.scenarios.addAll(Array.isArray(value) ? value : [value], ctx.maxDelayMs, (id) =>
      ctx.knows(id),
    );
    if (problems.length > 0)
      return stubProblem(STUB_PROBLEMS.INVALID_SCENARIO, problems.join('; '), {
        example: { operationId: 'listDesks', prefer: 'code=500', times: 1 },
      });
    ctx.changed();
    return json(200, { session: ctx.session ?? null, scenarios: ctx.state.scenarios.list() });
  }
  if (path === OPERATIONS_PATH) {
    if (method !== 'GET' && method !== 'HEAD')
      return notAllowed(path, 'GET', 'each operation and where its answers come from');
    return json(200, { operations: ctx.operations() });
  }
  return undefined;
}

/**
 * A CORS-simple write from a page of another origin (a cross-site form POST, a `text/plain`
 * fetch): refused before it changes anything. A write the stub accepts from a browser needs a
 * JSON body or a non-simple header, which a page of another origin cannot send without a
 * preflight the stub's CORS policy answers.
 */
export function crossSiteRefused(): CoreAnswer {
  return stubProblem(
    STUB_PROBLEMS.CROSS_SITE_REFUSED,
    'a write from a page of an origin the CORS policy does not allow, sent without a preflight (a form or text/plain body): send JSON, or allow the origin with --cors-origin',
  );
}
