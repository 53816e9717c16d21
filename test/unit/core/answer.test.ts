import { describe, expect, it } from 'vitest';
import { type CoreAnswer, type CoreOptions, StubCore } from '../../../src/core/answer.js';
import { coreOptions } from '../../../src/server/app.js';
import { stateFor, testConfig } from '../../helpers.js';

/*
 * StubCore.answer: the order of the steps of docs/response-selection.md. Each row sends a request
 * that two steps would answer differently and names the step that must answer it; the steps'
 * own answers are tested in their modules (django/, drf/, stub/).
 */
const config = testConfig({ allowedHosts: ['localhost'] });
const state = await stateFor(config);
const base = coreOptions(config, state);

const coreWith = (options: Partial<CoreOptions> = {}) =>
  new StubCore(state.model, {
    ...base,
    tokens: new Set(['goodtoken']),
    journal: 10,
    validateQuery: (op, query) =>
      op.operationId === 'listDesks' && query.has('strict') ? [{ location: 'query.strict', message: 'no' }] : [],
    ...options,
  });

async function ask(
  core: StubCore,
  method: string,
  url: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<CoreAnswer> {
  const all: Record<string, string> = { host: 'localhost', ...headers };
  return core.answer({
    method,
    url,
    header: (n) => all[n],
    headers: () => Object.entries(all).flat(),
    ...(body !== undefined ? { body: new TextEncoder().encode(body) } : {}),
  });
}

const kind = (a: CoreAnswer): string => {
  const type = a.headers['content-type'] ?? '';
  if (type.startsWith('text/html')) return `${a.status} page`;
  if (type === 'application/problem+json')
    return `${a.status} problem: ${(JSON.parse(a.body) as { title: string }).title}`;
  if (a.body === '') return `${a.status}`;
  const detail = (JSON.parse(a.body) as { detail?: string }).detail;
  return detail === undefined ? `${a.status} json` : `${a.status} ${detail}`;
};

describe('the order of the steps: the first that has an answer gives it', () => {
  it.each<[string, string, string, Record<string, string>, string]>([
    [
      '1 before 3: a host not allowed, on a path that does not exist',
      'GET',
      '/nothing',
      { host: 'evil.test' },
      '400 page',
    ],
    [
      '1 before 2: a host not allowed, to the stub’s own paths',
      'POST',
      '/__stub/reset',
      { host: 'evil.test' },
      '400 page',
    ],
    ['2 before 3: the stub’s own paths are no route of the spec', 'GET', '/__stub/requests', {}, '200 json'],
    ['3: no route', 'GET', '/api/v1/nothing', {}, '404 page'],
    [
      '4 before 6: an impossible scenario, with an Accept no renderer takes',
      'GET',
      '/api/v1/desk',
      { prefer: 'code=abc', accept: 'text/csv' },
      '400 problem: Impossible scenario',
    ],
    [
      '5 before 6: a query the declaration refuses, with an Accept no renderer takes',
      'GET',
      '/api/v1/desk?strict=1',
      { accept: 'text/csv' },
      '400 problem: Invalid request',
    ],
    [
      '6 before 7: an Accept no renderer takes, with a bad token',
      'GET',
      '/api/v1/desk',
      { accept: 'text/csv', authorization: 'Token bad' },
      '406 Could not satisfy the request Accept header.',
    ],
    [
      '7 before 8: a bad token, on a method the path does not have',
      'TRACE',
      '/api/v1/desk',
      { authorization: 'Token bad' },
      '401 Invalid token.',
    ],
    ['8: a method the path does not have', 'TRACE', '/api/v1/desk', {}, '405 Method "TRACE" not allowed.'],
    ['9.1: a scenario’s code before the viewset', 'GET', '/api/v1/desk/987654', { prefer: 'code=500' }, '500 page'],
    ['9.3: the viewset', 'GET', '/api/v1/desk/987654', {}, '404 No Desk matches the given query.'],
  ])('%s', async (_name, method, url, headers, want) => {
    expect(kind(await ask(coreWith(), method, url, headers))).toBe(want);
  });

  it('9.2: a handler answers before the viewset, and undefined from it is the viewset’s answer', async () => {
    const core = coreWith({
      handlers: { getDesk: (req) => (req.params.pk === '1' ? { status: 418, body: { detail: 'teapot' } } : undefined) },
    });
    expect(kind(await ask(core, 'GET', '/api/v1/desk/1'))).toBe('418 teapot');
    expect(kind(await ask(core, 'GET', '/api/v1/desk/987654'))).toBe('404 No Desk matches the given query.');
  });

  it('a session the stub cannot open: its refusal before any step', async () => {
    const core = coreWith({ maxSessions: 1 });
    expect((await ask(core, 'GET', '/api/v1/desk', { 'x-stub-session': 'a' })).status).toBe(200);
    expect(kind(await ask(core, 'GET', '/nothing', { 'x-stub-session': 'b' }))).toBe('503 problem: Session refused');
    expect(kind(await ask(core, 'GET', '/nothing', { 'x-stub-session': 'no spaces' }))).toBe(
      '400 problem: Session refused',
    );
  });
});

describe('what every answer carries, whichever step gave it', () => {
  it('the operation that answered, on every answer of a route', async () => {
    const core = coreWith();
    expect((await ask(core, 'GET', '/api/v1/desk/1')).operationId).toBe('getDesk');
    expect((await ask(core, 'GET', '/api/v1/desk', { accept: 'text/csv' })).operationId).toBe('listDesks');
    expect((await ask(core, 'TRACE', '/api/v1/desk')).operationId).toBeUndefined();
    expect((await ask(core, 'GET', '/nothing')).operationId).toBeUndefined();
  });

  it('the journal: each request of the service once, the stub’s own paths never, the scenario told', async () => {
    const core = coreWith();
    await ask(core, 'GET', '/api/v1/desk?__code=404');
    await ask(core, 'GET', '/__stub/requests');
    await ask(core, 'POST', '/api/v1/desk', { 'content-type': 'application/json' }, '{}');
    await ask(core, 'GET', '/nothing');
    expect(core.requests().map((e) => [e.method, e.url, e.status, e.operationId, e.scenario])).toEqual([
      ['GET', '/api/v1/desk?__code=404', 404, 'listDesks', 'code=404'],
      ['POST', '/api/v1/desk', 400, 'createDesk', undefined],
      ['GET', '/nothing', 404, undefined, undefined],
    ]);
  });

  it('a new generation after a write, a reset and a scenario change; none after a read', async () => {
    const core = coreWith();
    const seen = [core.generation];
    await ask(core, 'GET', '/api/v1/desk');
    expect(core.generation).toBe(seen[0]);
    await ask(core, 'PATCH', '/api/v1/desk/1', { 'content-type': 'application/json' }, '{"lead":true}');
    expect(core.generation).not.toBe(seen[0]);
    seen.push(core.generation);
    await ask(core, 'PUT', '/__stub/scenarios', {}, '{"operationId":"listDesks","prefer":"empty=true"}');
    expect(seen).not.toContain(core.generation);
    seen.push(core.generation);
    core.reset();
    expect(seen).not.toContain(core.generation);
  });

  it('only an answer to declared parameters, without a scenario, may be kept', async () => {
    const core = coreWith();
    expect((await ask(core, 'GET', '/api/v1/desk?page=2')).cacheable).toBe(true);
    expect((await ask(core, 'GET', '/api/v1/desk?page=2&x=1')).cacheable).toBeUndefined();
    expect((await ask(core, 'GET', '/api/v1/desk', { prefer: 'empty=true' })).cacheable).toBeUndefined();
  });
});
