import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFetchHandler } from '../../src/adapters/fetch.js';
import { makeApp } from '../helpers.js';

/*
 * The stub's own paths that the control page uses: a scenario removed by its operation or its
 * path, the page itself (behind Django's host check, like /docs), and `/` left to a spec that
 * declares it (the deployment's redirect to its API root).
 */
describe('the control paths over HTTP', () => {
  let app: FastifyInstance;
  let strict: FastifyInstance;
  beforeAll(async () => {
    app = await makeApp();
    // The default host list (loopback only), as `npm start` runs it.
    strict = await makeApp({ allowedHosts: undefined });
  });
  afterAll(async () => {
    await app.close();
    await strict.close();
  });

  const put = (rules: unknown) =>
    app.inject({
      method: 'PUT',
      url: '/__stub/scenarios',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify(rules),
    });
  const listed = async () =>
    (await app.inject('/__stub/scenarios')).json<{ scenarios: { operationId?: string; path?: string }[] }>().scenarios;

  it('DELETE /__stub/scenarios?operationId= removes that operation’s rules only', async () => {
    expect(
      (
        await put([
          { operationId: 'listDesks', prefer: 'code=500' },
          { operationId: 'getDesk', prefer: 'code=404' },
        ])
      ).statusCode,
    ).toBe(200);
    expect((await app.inject('/api/v1/desk')).statusCode).toBe(500);
    expect((await app.inject({ method: 'DELETE', url: '/__stub/scenarios?operationId=listDesks' })).statusCode).toBe(
      204,
    );
    expect((await listed()).map((r) => r.operationId)).toEqual(['getDesk']);
    expect((await app.inject('/api/v1/desk')).statusCode).toBe(200);
    expect((await app.inject('/api/v1/desk/12')).statusCode).toBe(404);
    await app.inject({ method: 'DELETE', url: '/__stub/scenarios' });
    expect(await listed()).toEqual([]);
  });

  it('DELETE /__stub/scenarios?path=&method= removes the rules of that path and method', async () => {
    await put([
      { path: '/api/v1/desk', method: 'GET', prefer: 'empty=true' },
      { path: '/api/v1/desk', method: 'POST', prefer: 'code=400' },
    ]);
    await app.inject({ method: 'DELETE', url: '/__stub/scenarios?path=/api/v1/desk&method=get' });
    expect((await listed()).map((r) => r.path)).toEqual(['/api/v1/desk']);
    expect((await app.inject('/api/v1/desk')).json<{ count: number }>().count).toBe(190);
    await app.inject({ method: 'DELETE', url: '/__stub/scenarios' });
  });

  it('serves the control page at /__stub/ to a loopback host, and Django’s 400 to another', async () => {
    const page = await strict.inject({ url: '/__stub/', headers: { host: '127.0.0.1:4010' } });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.body).toContain('<title>Workplace Administration Service: stub control</title>');
    // Nothing loaded from elsewhere: no src or href to another origin.
    expect(page.body).not.toMatch(/(src|href)="(https?:)?\/\//);
    const evil = await strict.inject({ url: '/__stub/', headers: { host: 'evil.example' } });
    expect(evil.statusCode).toBe(400);
    expect(evil.body).not.toContain('stub control');
  });

  it("the stub's own problems carry their answer's status (RFC 9457)", async () => {
    const crossSite = await app.inject({
      method: 'POST',
      url: '/__stub/reset',
      headers: { origin: 'https://evil.example', 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'a=1',
    });
    expect(crossSite.statusCode).toBe(403);
    expect(crossSite.json()).toMatchObject({ title: 'Cross-site request refused', status: 403 });
    const wrongMethod = await app.inject({ method: 'GET', url: '/__stub/reset' });
    expect(wrongMethod.statusCode).toBe(405);
    expect(wrongMethod.headers.allow).toBe('POST');
    expect(wrongMethod.json()).toMatchObject({ title: 'Method not allowed', status: 405 });
  });

  it('leaves `/` to the spec that declares it: the deployment’s redirect, even for a browser', async () => {
    const root = await app.inject({ url: '/', headers: { accept: 'text/html' } });
    expect(root.statusCode).toBe(302);
    expect(root.headers.location).toBe('/api/');
  });
});

describe('the control paths through the fetch handler', () => {
  it('scenarios.remove takes an operation’s rules away, as DELETE ?operationId= does', async () => {
    const handler = createFetchHandler();
    const get = async (path: string) => (await handler(new Request(`http://localhost${path}`))).status;
    await handler.scenarios.set(
      { operationId: 'listDesks', prefer: 'code=503' },
      { operationId: 'getDesk', prefer: 'code=500' },
    );
    expect(await get('/api/v1/desk')).toBe(503);
    await handler.scenarios.remove({ operationId: 'listDesks' });
    expect(await get('/api/v1/desk')).toBe(200);
    expect(await get('/api/v1/desk/12')).toBe(500);
    await handler.scenarios.remove({ path: '/api/v1/desk/{pk}' });
    expect((await handler.scenarios.list()).map((r) => r.operationId)).toEqual(['getDesk']);
    await handler.scenarios.clear();
    expect(await handler.scenarios.list()).toEqual([]);
  });
});
