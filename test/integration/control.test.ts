// The stub driven from outside the app (#33): the request journal, scenarios set with
// PUT /__stub/scenarios, isolated sessions, through the fetch handler (the same core as the
// server and the MSW handlers).
import path from 'node:path';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createFetchHandler, type FetchHandler } from '../../src/adapters/fetch.js';
import { ROOT } from '../cli-helpers.js';
import { stateFor, testConfig } from '../helpers.js';

const DESIGNER = {
  specFile: path.join(ROOT, 'test/fixtures/designer/openapi.yaml'),
  fixturesDir: path.join(ROOT, 'test/fixtures/designer/fixtures'),
};
let snapshot: unknown;
let stub: FetchHandler;
beforeAll(async () => {
  snapshot = (await stateFor(testConfig(DESIGNER))).snapshot;
});
beforeEach(() => {
  stub = createFetchHandler({ snapshot, pageSize: 10 });
});

const base = 'http://localhost:5173';
const get = (p: string, headers: Record<string, string> = {}) => stub(new Request(`${base}${p}`, { headers }));
const send = (method: string, p: string, body: unknown, headers: Record<string, string> = {}) =>
  stub(
    new Request(`${base}${p}`, {
      method,
      body: JSON.stringify(body),
      headers: { 'content-type': 'application/json', ...headers },
    }),
  );
/** A desk as the designer spec's create takes it (every field required). */
const desk = (number: string) => ({
  building: 'A',
  floor: 2,
  number,
  active: true,
  lead: false,
  ergonomic: false,
  held_today: false,
});
const json = async (r: Response | Promise<Response>) => (await r).json() as Promise<Record<string, unknown>>;

describe('the request journal', () => {
  it('keeps what the app sent and what it got, credentials redacted', async () => {
    await get('/api/v1/desk?format=api', {
      authorization: 'Token s3cr3t-key',
      'x-trace': 'abc',
      cookie: 'sessionid=zz; theme=dark',
    });
    await send('POST', '/api/v1/desk', desk('299'));
    const all = stub.requests();
    expect(all.map((e) => [e.method, e.url, e.status, e.operationId])).toEqual([
      ['GET', '/api/v1/desk?format=api', 200, 'listDesks'],
      ['POST', '/api/v1/desk', 201, 'createDesk'],
    ]);
    const [read, write] = all;
    expect(read?.headers.authorization).toBe('Token [redacted]');
    expect(read?.headers.cookie).toBe('sessionid=[redacted]; theme=[redacted]');
    expect(read?.headers['x-trace']).toBe('abc');
    expect(JSON.stringify(all)).not.toContain('s3cr3t');
    expect(JSON.parse(write?.body ?? '')).toEqual(desk('299'));
    expect(write?.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('is read over HTTP with filters, and cleared', async () => {
    await get('/api/v1/desk');
    await get('/api/v1/desk/1');
    await get('/api/v1/employee');
    const byOp = await json(get('/__stub/requests?operationId=retrieveDesk'));
    expect((byOp.requests as { url: string }[]).map((e) => e.url)).toEqual(['/api/v1/desk/1']);
    const first = (await json(get('/__stub/requests'))).requests as { id: number }[];
    const since = await json(get(`/__stub/requests?since=${first[0]?.id}`));
    expect((since.requests as unknown[]).length).toBe(2);
    expect(((await json(get('/__stub/requests?path=/api/v1/employee'))).requests as unknown[]).length).toBe(1);
    // The journal's own requests are not in it.
    expect((first as unknown[]).length).toBe(3);
    expect((await stub(new Request(`${base}/__stub/requests`, { method: 'DELETE' }))).status).toBe(204);
    expect(stub.requests()).toEqual([]);
  });

  it('keeps the last N only (journal: N), none with 0', async () => {
    const small = createFetchHandler({ snapshot, journal: 2 });
    for (const pk of [1, 5, 6]) await small(new Request(`${base}/api/v1/desk/${pk}`));
    expect(small.requests().map((e) => e.url)).toEqual(['/api/v1/desk/5', '/api/v1/desk/6']);
    const none = createFetchHandler({ snapshot, journal: 0 });
    await none(new Request(`${base}/api/v1/desk`));
    expect(none.requests()).toEqual([]);
  });
});

describe('scenarios set from outside the app', () => {
  it('puts an operation into an error state for the next N requests, then lets go', async () => {
    await stub.scenarios.set({ operationId: 'listDesks', prefer: 'code=500', times: 2 });
    expect((await get('/api/v1/desk')).status).toBe(500);
    expect((await get('/api/v1/desk?format=api')).status).toBe(500);
    expect((await get('/api/v1/desk')).status).toBe(200);
    const entries = stub.requests();
    expect(entries.map((e) => [e.status, e.scenario ?? null, e.scenarioFrom ?? null])).toEqual([
      [500, 'code=500', 'scenarios'],
      [500, 'code=500', 'scenarios'],
      [200, null, null],
    ]);
  });

  it('matches a path and a method; a request of its own Prefer wins', async () => {
    await stub.scenarios.set({ path: '/api/v1/desk', method: 'GET', prefer: 'empty=true' });
    expect((await json(get('/api/v1/desk'))).count).toBe(0);
    expect((await get('/api/v1/desk', { prefer: 'code=500' })).status).toBe(500);
    expect((await json(get('/api/v1/employee'))).count).not.toBe(0);
    expect(await stub.scenarios.list()).toEqual([{ id: 1, path: '/api/v1/desk', method: 'GET', prefer: 'empty=true' }]);
    await stub.scenarios.clear();
    expect((await json(get('/api/v1/desk'))).count).not.toBe(0);
  });

  it("the deployment's 401 and 403 on demand, where the spec declares neither", async () => {
    await stub.scenarios.set({ operationId: 'retrieveDesk', prefer: 'code=401' });
    const denied = await get('/api/v1/desk/1');
    // The designer spec authenticates as stock DRF (Session first): 403, no challenge.
    expect(denied.status).toBe(403);
    expect(await denied.json()).toEqual({ detail: 'Authentication credentials were not provided.' });
    await stub.scenarios.set({ operationId: 'retrieveDesk', prefer: 'code=403' });
    expect(await json(get('/api/v1/desk/1'))).toEqual({ detail: 'You do not have permission to perform this action.' });
  });

  it('refuses a scenario it cannot apply, telling every problem', async () => {
    const r = await send('PUT', '/__stub/scenarios', { operationId: 'nosuch', prefer: 'code=abc', times: 0, extra: 1 });
    expect(r.status).toBe(400);
    const detail = String(((await r.json()) as { detail: string }).detail);
    for (const part of [
      'unknown member "extra"',
      'no operation "nosuch"',
      'times must be',
      'code must be an HTTP status',
    ])
      expect(detail).toContain(part);
    expect(await stub.scenarios.list()).toEqual([]);
  });

  it('a reset clears them with the state', async () => {
    await stub.scenarios.set({ operationId: 'listDesks', prefer: 'empty=true' });
    await send('POST', '/api/v1/desk', desk('298'));
    expect(
      (
        await stub(
          new Request(`${base}/__stub/reset`, { method: 'POST', headers: { 'content-type': 'application/json' } }),
        )
      ).status,
    ).toBe(204);
    expect(await stub.scenarios.list()).toEqual([]);
    const desks = (await json(get('/api/v1/desk?page_size=100'))).results as { number: string }[];
    expect(desks.some((d) => d.number === '298')).toBe(false);
  });
});

describe('a session per client (X-Stub-Session)', () => {
  it('gives each its own writes, scenarios and journal, from the snapshot', async () => {
    const as = (s: string) => ({ 'x-stub-session': s });
    const created = await send('POST', '/api/v1/desk', desk('397'), as('worker-1'));
    expect(created.status).toBe(201);
    const count = async (h: Record<string, string>) => (await json(get('/api/v1/desk', h))).count as number;
    const shared = await count({});
    expect(await count(as('worker-1'))).toBe(shared + 1);
    expect(await count(as('worker-2'))).toBe(shared);
    await send('PUT', '/__stub/scenarios', { operationId: 'listDesks', prefer: 'empty=true' }, as('worker-2'));
    expect(await count(as('worker-2'))).toBe(0);
    expect(await count(as('worker-1'))).toBe(shared + 1);
    expect(stub.requests({ session: 'worker-1' }).map((e) => e.method)).toEqual(['POST', 'GET', 'GET']);
    // A cookie of the same name works as the header does.
    expect(await count({ cookie: 'X-Stub-Session=worker-1' })).toBe(shared + 1);
    // Resetting one session leaves the others.
    await stub(
      new Request(`${base}/__stub/reset`, {
        method: 'POST',
        headers: { ...as('worker-1'), 'content-type': 'application/json' },
      }),
    );
    expect(await count(as('worker-1'))).toBe(shared);
    expect(await count(as('worker-2'))).toBe(0);
  });

  it('refuses a name it cannot take, and more sessions than its bound', async () => {
    expect((await get('/api/v1/desk', { 'x-stub-session': 'a b' })).status).toBe(400);
    const bounded = createFetchHandler({ snapshot, maxSessions: 2 });
    for (const s of ['a', 'b'])
      expect((await bounded(new Request(`${base}/api/v1/desk`, { headers: { 'x-stub-session': s } }))).status).toBe(
        200,
      );
    const third = await bounded(new Request(`${base}/api/v1/desk`, { headers: { 'x-stub-session': 'c' } }));
    expect(third.status).toBe(503);
    expect(third.headers.get('content-type')).toBe('application/problem+json');
    expect(String(((await third.json()) as { detail: string }).detail)).toContain('2 sessions are open already');
  });
});
