import { describe, expect, it } from 'vitest';
import { DJANGO_HEADERS } from '../../../../src/core/django/http.js';
import { parseQuery } from '../../../../src/core/python/query.js';
import {
  type ControlContext,
  controlAnswer,
  crossSiteRefused,
  type OperationSource,
  RESET_PATH,
  SCENARIOS_PATH,
  STUB_PREFIX,
} from '../../../../src/core/stub/control.js';
import { Sessions } from '../../../../src/core/stub/sessions.js';

const OPERATIONS: OperationSource[] = [
  {
    operationId: 'listThings',
    method: 'GET',
    path: '/api/v1/thing',
    kind: 'list',
    source: 'fixture',
    responses: ['200'],
  },
];

/** A context over a fresh session state, counting resets and changes. */
function context(session?: string) {
  const calls = { reset: 0, changed: 0 };
  const ctx: ControlContext = {
    state: new Sessions<unknown>({ max: 1, idleMs: 1000, journalSize: 3 }).shared,
    session,
    reset: () => void calls.reset++,
    operations: () => OPERATIONS,
    maxDelayMs: 100,
    knows: (id) => id === 'listThings' || id === 'getThing',
    changed: () => void calls.changed++,
  };
  const ask = (method: string, url: string, body?: string) => {
    const [path = '', query = ''] = url.split('?');
    const a = controlAnswer(
      method,
      path,
      parseQuery(query),
      body === undefined ? undefined : new TextEncoder().encode(body),
      ctx,
    );
    return a && { status: a.status, headers: a.headers, body: a.body === '' ? '' : (JSON.parse(a.body) as unknown) };
  };
  return { ctx, calls, ask };
}
const problem = (title: string, detail: string, status = 400, extra = {}) => ({
  type: 'about:blank',
  title,
  status,
  detail,
  ...extra,
});
const JSON_HEADERS = { ...DJANGO_HEADERS, 'content-type': 'application/json' };
const PROBLEM_HEADERS = { ...DJANGO_HEADERS, 'content-type': 'application/problem+json' };
const record = (ctx: ControlContext, i: number, method = 'GET', url = '/api/v1/thing', operationId = 'listThings') =>
  ctx.state.journal.record({
    time: i,
    method,
    url,
    headers: () => [],
    body: undefined,
    operationId,
    scenario: undefined,
    scenarioFrom: undefined,
    status: 200,
    durationMs: 1,
  });

describe("the stub's own paths", () => {
  it('live under /__stub/', () => {
    expect([STUB_PREFIX, RESET_PATH, SCENARIOS_PATH]).toEqual(['/__stub/', '/__stub/reset', '/__stub/scenarios']);
  });

  it.each<[string, string, string, string]>([
    ['/__stub/reset', 'GET', 'POST', "/__stub/reset takes POST: it puts every collection back to the snapshot's items"],
    [
      '/__stub/requests',
      'PUT',
      'GET, DELETE',
      '/__stub/requests takes GET, DELETE: the requests the stub answered (?path, method, operationId, since)',
    ],
    [
      '/__stub/scenarios',
      'PATCH',
      'GET, PUT, DELETE',
      '/__stub/scenarios takes GET, PUT, DELETE: scenarios applied to matching requests',
    ],
    [
      '/__stub/operations',
      'DELETE',
      'GET',
      '/__stub/operations takes GET: each operation and where its answers come from',
    ],
  ])('%s refuses %s: 405 with Allow %s', (path, method, allow, detail) => {
    const { ask, calls } = context();
    expect(ask(method, path)).toEqual({
      status: 405,
      headers: { ...PROBLEM_HEADERS, allow },
      body: problem('Method not allowed', detail, 405),
    });
    expect(calls).toEqual({ reset: 0, changed: 0 });
  });

  it('any other path is none of them', () => {
    const { ask } = context();
    expect([ask('GET', '/__stub/nope'), ask('GET', '/__stub/'), ask('POST', '/__stub/reset/')]).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
  });
});

describe('POST /__stub/reset', () => {
  it('puts the state back: 204, no body', () => {
    const { ask, calls } = context();
    expect(ask('POST', '/__stub/reset')).toEqual({ status: 204, headers: DJANGO_HEADERS, body: '' });
    expect(calls.reset).toBe(1);
  });
});

describe('/__stub/requests', () => {
  it.each<[string, string, number[]]>([
    ['every entry kept (the last 3)', '', [2, 3, 4]],
    ['after an id', '?since=3', [4]],
    ['by method', '?method=delete', [3]],
    ['by path', '?path=/api/v1/thing', [2, 4]],
    ['by method and path', '?method=GET&path=/api/v1/thing/3', []],
    ['by operationId, the last value given', '?operationId=x&operationId=destroyThing', [3]],
  ])('GET: %s', (_name, query, ids) => {
    const { ask, ctx } = context('run-1');
    record(ctx, 1);
    record(ctx, 2);
    record(ctx, 3, 'DELETE', '/api/v1/thing/3', 'destroyThing');
    record(ctx, 4);
    const a = ask('GET', `/__stub/requests${query}`);
    const body = a?.body as { session: string; capacity: number; requests: { id: number }[] };
    expect([a?.status, a?.headers, body.session, body.capacity]).toEqual([200, JSON_HEADERS, 'run-1', 3]);
    expect(body.requests.map((r) => r.id)).toEqual(ids);
  });

  it.each(['abc', '-1', '1.5', '1234567890123456', ''])('GET ?since=%s: 400', (since) => {
    const { ask } = context();
    expect(ask('GET', `/__stub/requests?since=${since}`)).toEqual({
      status: 400,
      headers: PROBLEM_HEADERS,
      body: problem('Invalid request', 'since is the id of a journal entry (a whole number)'),
    });
  });

  it('HEAD answers as GET; DELETE empties the journal; the shared session is null', () => {
    const { ask, ctx } = context();
    record(ctx, 1);
    expect(ask('HEAD', '/__stub/requests')?.status).toBe(200);
    expect(ask('DELETE', '/__stub/requests')).toEqual({ status: 204, headers: DJANGO_HEADERS, body: '' });
    expect(ask('GET', '/__stub/requests')?.body).toEqual({ session: null, capacity: 3, requests: [] });
  });
});

describe('/__stub/scenarios', () => {
  const rule = { operationId: 'listThings', prefer: 'code=500', times: 2 };
  it('PUT a rule: kept, listed; GET lists them; the cache told', () => {
    const { ask, calls } = context('s');
    const put = ask('PUT', '/__stub/scenarios', JSON.stringify(rule));
    expect(put).toEqual({
      status: 200,
      headers: JSON_HEADERS,
      body: { session: 's', scenarios: [{ id: 1, ...rule, remaining: 2 }] },
    });
    expect(calls.changed).toBe(1);
    expect(ask('GET', '/__stub/scenarios')?.body).toEqual(put?.body);
    expect(ask('POST', '/__stub/scenarios', JSON.stringify([{ path: '/a', prefer: 'empty' }]))?.status).toBe(200);
    expect((ask('HEAD', '/__stub/scenarios')?.body as { scenarios: unknown[] }).scenarios).toHaveLength(2);
  });

  it.each<[string, string | undefined, string]>([
    ['a body that is not JSON', '{"operationId":', `the body is not JSON: ${jsonError('{"operationId":')}`],
    ['no body', undefined, `the body is not JSON: ${jsonError('')}`],
    [
      'one bad rule: its problems',
      JSON.stringify({ operationId: 'nope', prefer: 'code=1' }),
      'the spec declares no operation "nope"; code must be an HTTP status such as 404 (got "1")',
    ],
    [
      'several rules: each problem with its place',
      JSON.stringify([rule, { path: 'x', prefer: 'delay=101' }, 4]),
      '[1] path starts with /; [1] delay must be a whole number of milliseconds from 0 to 100 (got "101"); [2] a scenario is a JSON object: {"operationId": …, "prefer": …}',
    ],
  ])('PUT %s: 400', (_name, body, detail) => {
    const { ask } = context();
    const a = ask('PUT', '/__stub/scenarios', body);
    const extra = detail.startsWith('the body')
      ? {}
      : { example: { operationId: 'listDesks', prefer: 'code=500', times: 1 } };
    expect(a).toEqual({ status: 400, headers: PROBLEM_HEADERS, body: problem('Invalid scenario', detail, 400, extra) });
  });

  it('a refused list changes nothing: none of its rules kept, those before left as they were', () => {
    const { ask, calls } = context();
    ask('PUT', '/__stub/scenarios', JSON.stringify(rule));
    expect(calls.changed).toBe(1);
    const refused = ask(
      'PUT',
      '/__stub/scenarios',
      JSON.stringify([{ ...rule, prefer: 'code=404' }, { prefer: 'code=500' }]),
    );
    expect(refused?.status).toBe(400);
    expect(calls.changed).toBe(1);
    const kept = (ask('GET', '/__stub/scenarios')?.body as { scenarios: { id: number; prefer: string }[] }).scenarios;
    expect(kept.map((s) => [s.id, s.prefer])).toEqual([[1, rule.prefer]]);
    // Ids count on from the last rule kept.
    ask('PUT', '/__stub/scenarios', JSON.stringify({ ...rule, operationId: 'getThing' }));
    expect(
      (ask('GET', '/__stub/scenarios')?.body as { scenarios: { id: number }[] }).scenarios.map((s) => s.id),
    ).toEqual([1, 2]);
  });

  it.each<[string, string, string[]]>([
    ['every rule', '', []],
    ['those of an operationId', '?operationId=listThings', ['/a', '/b']],
    ['those of a path', '?path=/a', ['listThings', '/b']],
    ['those of a method', '?method=get', ['listThings', '/a']],
  ])('DELETE %s: 204, the cache told', (_name, query, left) => {
    const { ask, calls } = context();
    ask(
      'PUT',
      '/__stub/scenarios',
      JSON.stringify([rule, { path: '/a', prefer: 'code=404' }, { path: '/b', method: 'GET', prefer: 'code=404' }]),
    );
    expect(ask('DELETE', `/__stub/scenarios${query}`)).toEqual({ status: 204, headers: DJANGO_HEADERS, body: '' });
    expect(calls.changed).toBe(2);
    const listed = (ask('GET', '/__stub/scenarios')?.body as { scenarios: { operationId?: string; path?: string }[] })
      .scenarios;
    expect(listed.map((s) => s.operationId ?? s.path)).toEqual(left);
  });
});

describe('GET /__stub/operations', () => {
  it('each operation and where its answers come from', () => {
    const { ask } = context();
    expect(ask('GET', '/__stub/operations')).toEqual({
      status: 200,
      headers: JSON_HEADERS,
      body: { operations: OPERATIONS },
    });
    expect(ask('HEAD', '/__stub/operations')?.status).toBe(200);
  });
});

describe('a cross-site write refused', () => {
  it("is the stub's own 403, saying how to send it", () => {
    const a = crossSiteRefused();
    expect([a.status, a.headers]).toEqual([403, PROBLEM_HEADERS]);
    expect(JSON.parse(a.body)).toEqual(
      problem(
        'Cross-site request refused',
        'a write from a page of an origin the CORS policy does not allow, sent without a preflight (a form or text/plain body): send JSON, or allow the origin with --cors-origin',
        403,
      ),
    );
  });
});

function jsonError(text: string): string {
  try {
    JSON.parse(text);
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('valid JSON');
}
