import { describe, expect, it } from 'vitest';
import { bundledSnapshot, createFetchHandler } from '../../../src/adapters/fetch.js';

type Page = { count: number; next: string | null; results: { url: string; pk: number }[] };
const get = (url: string, init?: RequestInit) => new Request(url, init);

describe('createFetchHandler: the core as (Request) => Promise<Response>', () => {
  const stub = createFetchHandler();

  it('answers from the bundled snapshot; urls follow the request’s origin; Content-Length set', async () => {
    const r = await stub(get('https://app.test:8443/api/v1/desk?format=api'));
    const page = (await r.clone().json()) as Page;
    expect([r.status, r.headers.get('content-type')]).toEqual([200, 'application/json']);
    expect(page.results[0]?.url).toMatch(/^https:\/\/app\.test:8443\/api\/v1\/desk\/\d+\?format=api$/);
    expect(r.headers.get('content-length')).toBe(String((await r.arrayBuffer()).byteLength));
    expect(stub.model.operations.lists.map((l) => l.resource)).toContain('desk');
  });

  it('HEAD: the headers of GET, no body', async () => {
    const r = await stub(get('http://localhost/api/v1/desk', { method: 'HEAD' }));
    expect([r.status, await r.text()]).toEqual([200, '']);
    expect(Number(r.headers.get('content-length'))).toBeGreaterThan(0);
  });

  it('a baseUrl with a path: urls under it, requests outside it are Django’s 404', async () => {
    const based = createFetchHandler({ baseUrl: 'https://api.example.org/workplace' });
    const page = (await (await based(get('http://localhost/workplace/api/v1/desk'))).json()) as Page;
    expect(page.results[0]?.url).toMatch(/^https:\/\/api\.example\.org\/workplace\/api\/v1\/desk\/\d+$/);
    expect((await based(get('http://localhost/w%6Frkplace/api/v1/desk'))).status).toBe(200);
    const outside = await based(get('http://localhost/api/v1/desk'));
    expect([outside.status, outside.headers.get('content-type')]).toEqual([404, 'text/html; charset=utf-8']);
    expect((await based(get('http://localhost/workplaces/api/v1/desk'))).status).toBe(404);
  });

  it.each<[number | undefined, number | undefined]>([
    [2, 2],
    [undefined, 100],
  ])('pageSize %s: pages of %s', async (pageSize, size) => {
    const page = (await (await createFetchHandler({ pageSize })(get('http://localhost/api/v1/desk'))).json()) as Page;
    expect(page.results.length).toBe(Math.min(size as number, page.count));
  });

  it.each([0, 1.5, 100_001])('pageSize %s is refused', (pageSize) => {
    expect(() => createFetchHandler({ pageSize })).toThrow(TypeError);
  });

  it('a snapshot of its own (as JSON), checked; without handlers unless given', async () => {
    const own = createFetchHandler({ snapshot: JSON.parse(JSON.stringify(bundledSnapshot())) as unknown, pageSize: 1 });
    expect((await own(get('http://localhost/api/v1/desk'))).status).toBe(200);
    expect(() => createFetchHandler({ snapshot: { nope: true } })).toThrow();
    expect(bundledSnapshot()).toBe(bundledSnapshot());
  });

  it('writes change its state until reset; the journal keeps each request', async () => {
    const s = createFetchHandler({ journal: 10 });
    const first = ((await (await s(get('http://localhost/api/v1/desk'))).json()) as Page).results[0];
    const gone = await s(get(`http://localhost/api/v1/desk/${first?.pk}`, { method: 'DELETE' }));
    expect([gone.status, gone.body]).toEqual([204, null]);
    expect((await s(get(`http://localhost/api/v1/desk/${first?.pk}`))).status).toBe(404);
    s.reset();
    expect((await s(get(`http://localhost/api/v1/desk/${first?.pk}`))).status).toBe(200);
    expect(s.requests().map((r) => `${r.method} ${r.status}`)).toEqual(['GET 200', 'DELETE 204', 'GET 404', 'GET 200']);
  });

  it('scenarios set, listed and removed from outside, as /__stub/scenarios does', async () => {
    const s = createFetchHandler();
    await s.scenarios.set(
      { operationId: 'listDesks', prefer: 'code=500' },
      { path: '/api/v1/employee', prefer: 'empty=true', times: 1 },
    );
    expect((await s.scenarios.list()).map((r) => r.prefer)).toEqual(['code=500', 'empty=true']);
    expect((await s(get('http://localhost/api/v1/desk'))).status).toBe(500);
    await s.scenarios.remove({ operationId: 'listDesks' });
    expect((await s(get('http://localhost/api/v1/desk'))).status).toBe(200);
    await s.scenarios.clear();
    expect(await s.scenarios.list()).toEqual([]);
    await expect(s.scenarios.set({ operationId: 'noSuchOperation', prefer: 'code=500' })).rejects.toThrow(
      /noSuchOperation/,
    );
  });

  it('tokens, handlers and the clock are the server’s options', async () => {
    const s = createFetchHandler({
      tokens: ['good'],
      now: new Date('2026-01-05T10:00:00Z'),
      handlers: {
        listDesks: (_req, ctx) =>
          ctx.ok({ count: 0, next: null, previous: null, results: [], at: ctx.now().toISOString() }),
      },
    });
    expect((await s(get('http://localhost/api/v1/desk', { headers: { authorization: 'Token bad' } }))).status).toBe(
      401,
    );
    const r = await s(get('http://localhost/api/v1/desk', { headers: { authorization: 'Token good' } }));
    expect(((await r.json()) as { at: string }).at).toBe('2026-01-05T10:00:00.000Z');
  });

  it('Prefer: delay holds the answer', async () => {
    const started = performance.now();
    expect((await stub(get('http://localhost/api/v1/desk', { headers: { prefer: 'delay=60' } }))).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(55);
  });
});
