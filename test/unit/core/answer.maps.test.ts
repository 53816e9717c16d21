import { setFlagsFromString } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { type CoreAnswer, StubCore } from '../../../src/core/answer.js';
import { LOOPBACK_CORS } from '../../../src/core/stub/cors.js';
import { coreOptions } from '../../../src/server/app.js';
import { outgoingHeaders } from '../../../src/server/node-adapter.js';
import { stateFor, testConfig } from '../../helpers.js';

/*
 * Every answer of one kind is made of objects of one shape (one V8 hidden class, a "map"), request
 * after request. An object literal that adds a member after a spread (`{ ...headers, vary }`) gets
 * a map of its own each time on Node 20's V8; maps live in the old generation, so the soak's RSS
 * climbed by the major GC's rhythm (docs/performance.md). `withMembers` (src/core/members.ts) is
 * how the request path builds such objects; this file holds every kind of answer to it.
 */
setFlagsFromString('--allow-natives-syntax');
// Compiled after the flag is set: V8's own test of two objects' hidden classes.
const sameMap = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: object, b: object) => boolean;

const config = testConfig({ allowedHosts: ['localhost'], cors: LOOPBACK_CORS });
const state = await stateFor(config);
const SESSION = 'a-logged-in-session';
const core = new StubCore(state.model, {
  ...coreOptions(config, state),
  tokens: new Set(['goodtoken']),
  sessions: new Set([SESSION]),
  journal: 10,
});

const TOKEN = { authorization: 'Token goodtoken' };
const DESK = { building: 'S', floor: 2, number: 'T-0', active: true, lead: false, ergonomic: true };

type Ask = [method: string, url: string, headers?: Record<string, string>, body?: unknown];

async function ask([method, target, headers = {}, body]: Ask, n: number): Promise<CoreAnswer> {
  // `{n}` in a target: a request of its own each time (each DELETE its own desk).
  const url = target.replace('{n}', String(10 + n));
  const all: Record<string, string> = { host: 'localhost', ...headers };
  if (body !== undefined) all['content-type'] = 'application/json';
  // Each write its own desk number: a create that succeeds every time. A text is sent as it is.
  const text =
    body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body).replace('T-0', `T-${n}`);
  return core.answer({
    method,
    url,
    header: (name) => all[name],
    headers: () => Object.entries(all).flat(),
    body: text === undefined ? undefined : new TextEncoder().encode(text),
  });
}

const KINDS: [string, Ask][] = [
  ['a list', ['GET', '/api/v1/desk']],
  ['a list, browsable format', ['GET', '/api/v1/desk?format=api&page=1']],
  ['an item', ['GET', '/api/v1/desk/1']],
  ['an item not found', ['GET', '/api/v1/desk/999999']],
  ['the API root', ['GET', '/api/']],
  ['a path Django does not route', ['GET', '/nothing/here']],
  ['the slash appended (301)', ['GET', '/api']],
  ['a host refused', ['GET', '/api/v1/desk', { host: 'evil.test' }]],
  ['a method not allowed', ['DELETE', '/api/']],
  ['OPTIONS', ['OPTIONS', '/api/v1/desk']],
  ['a token refused', ['GET', '/api/v1/employee', { authorization: 'Token bad' }]],
  ['a create', ['POST', '/api/v1/desk', TOKEN, DESK]],
  ['a create refused by validation', ['POST', '/api/v1/desk', TOKEN, { floor: 'x' }]],
  ['a body that is not JSON', ['POST', '/api/v1/desk', TOKEN, '{"floor": ']],
  ['a partial update', ['PATCH', '/api/v1/desk/2', TOKEN, { lead: true }]],
  ['a cross-origin read', ['GET', '/api/v1/desk', { origin: 'http://localhost:5173' }]],
  [
    'a preflight',
    ['OPTIONS', '/api/v1/desk', { origin: 'http://localhost:5173', 'access-control-request-method': 'POST' }],
  ],
  ['a scenario: a declared status', ['GET', '/api/v1/desk', { prefer: 'code=404' }]],
  ['a scenario: an example', ['GET', '/api/v1/desk', { prefer: 'example=empty' }]],
  ['a scenario: a delay', ['GET', '/api/v1/desk/1', { prefer: 'delay=1' }]],
  ['an empty session cookie deleted', ['GET', '/api/v1/desk', { cookie: 'sessionid=abc' }]],
  ['a CSRF refusal', ['POST', '/api/v1/desk', { cookie: `sessionid=${SESSION}` }, DESK]],
  ['a Django view', ['GET', '/']],
  ['a Django view, method not allowed', ['POST', '/']],
  ["the stub's journal", ['GET', '/__stub/requests']],
  ["the stub's own problem", ['PUT', '/__stub/scenarios', {}, '{']],
  ['a delete', ['DELETE', '/api/v1/desk/{n}', TOKEN]],
];

describe('an answer of one kind has one shape, request after request', () => {
  it.each(KINDS)('%s', async (_name, request) => {
    const answers: CoreAnswer[] = [];
    for (let n = 0; n < 40; n++) answers.push(await ask(request, n));
    // A spread's results share a shape for its first few runs, then get one each: compare the last two.
    const [a, b] = answers.slice(-2) as [CoreAnswer, CoreAnswer];
    expect(a.status).toBe(b.status);
    expect(sameMap(a, b), 'the answer').toBe(true);
    expect(sameMap(a.headers, b.headers), 'its headers').toBe(true);
    expect(sameMap(outgoingHeaders(a, a.body), outgoingHeaders(b, b.body)), 'the headers sent').toBe(true);
  });
});
