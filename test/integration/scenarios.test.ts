import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeskList } from '../../src/types.js';
import { makeApp } from '../helpers.js';

describe('scenarios per request, Prism-compatible (Prefer header and __ query parameters)', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await makeApp({ pageSize: 10, maxDelayMs: 2000 });
  });
  afterAll(() => app.close());
  const get = (url: string, prefer?: string) =>
    app.inject({ url, headers: { host: 'h', ...(prefer ? { prefer } : {}) } });

  it.each([
    ['Prefer: code=404', '/api/v1/desk', 'code=404', 404, { detail: 'Not found.' }],
    [
      'Prefer: code=404, example=invalidPage',
      '/api/v1/desk',
      'code=404, example=invalidPage',
      404,
      { detail: 'Invalid page.' },
    ],
    ['__code=404', '/api/v1/desk?__code=404', undefined, 404, { detail: 'Not found.' }],
    [
      '__code=404&__example=invalidPage',
      '/api/v1/desk?__code=404&__example=invalidPage',
      undefined,
      404,
      { detail: 'Invalid page.' },
    ],
    ['code=404 on the detail', '/api/v1/desk/1', 'code=404', 404, { detail: 'Not found.' }],
  ])('%s answers the declared response', async (_n, url, prefer, status, body) => {
    const res = await get(url, prefer);
    expect(res.statusCode).toBe(status);
    expect(res.json()).toEqual(body);
  });

  it('example=NAME serves a named example of the 200 answer, with urls of the host called', async () => {
    for (const [url, prefer] of [
      ['/api/v1/desk?format=api', 'example=twoDesks'],
      ['/api/v1/desk?format=api&__example=twoDesks', undefined],
    ] as const) {
      const body = (await get(url, prefer)).json() as DeskList;
      expect(body.count).toBe(2);
      expect(body.results.map((d) => d.url)).toEqual([
        'http://h/api/v1/desk/12?format=api',
        'http://h/api/v1/desk/13?format=api',
      ]);
    }
    expect((await get('/api/v1/desk', 'example=empty')).body).toBe(
      '{"count":0,"next":null,"previous":null,"results":[]}',
    );
  });

  it('dynamic=true serves generated desks instead of the fixture, the same every time', async () => {
    const a = await get('/api/v1/desk?format=api', 'dynamic=true');
    const b = await get('/api/v1/desk?format=api&__dynamic=true');
    const fixture = (await get('/api/v1/desk?format=api')).json() as DeskList;
    expect(a.body).toBe(b.body);
    const body = a.json() as DeskList;
    expect(body.count).toBe(25);
    expect(body.results).not.toEqual(fixture.results.slice(0, 10));
    const detail = await get('/api/v1/desk/3', 'dynamic=true');
    expect(detail.json()).toMatchObject({ pk: 3 });
  });

  it('empty=true serves any collection in its empty state', async () => {
    expect((await get('/api/v1/desk', 'empty=true')).body).toBe('{"count":0,"next":null,"previous":null,"results":[]}');
    expect((await get('/api/v1/desk?__empty=true')).body).toBe('{"count":0,"next":null,"previous":null,"results":[]}');
    expect((await get('/api/v1/desk/1?__empty=true')).statusCode).toBe(404);
  });

  it('several preferences join with commas, as in Prism', async () => {
    const res = await get('/api/v1/desk?format=api', 'dynamic=true, delay=10');
    expect((res.json() as DeskList).count).toBe(25);
  });

  it('delay=MS waits before answering', async () => {
    const started = performance.now();
    const res = await get('/api/v1/desk', 'delay=250');
    expect(res.statusCode).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(240);
  });

  it('scenario parameters are never copied into next, previous or item urls', async () => {
    const body = (await get('/api/v1/desk?format=api&page=2&__dynamic=true&__delay=0')).json() as DeskList;
    expect(body.next).toBe('http://h/api/v1/desk?format=api&page=3');
    expect(body.previous).toBe('http://h/api/v1/desk?format=api');
    expect(body.results.every((d) => d.url.endsWith('?format=api'))).toBe(true);
  });

  it.each([
    ['an undeclared code', '/api/v1/desk', 'code=418', /declares no 418 response/, 'codes'],
    ['an unknown example', '/api/v1/desk', 'example=nope', /no example "nope"/, 'examples'],
    ['an unknown example of a code', '/api/v1/desk', 'code=404, example=nope', /no example "nope"/, 'examples'],
    ['a bad delay', '/api/v1/desk?__delay=abc', undefined, /delay must be a whole number/, 'prefer'],
    ['a delay past the bound', '/api/v1/desk', 'delay=999999', /from 0 to 2000/, 'prefer'],
    ['a code that is not a status', '/api/v1/desk?__code=abc', undefined, /code must be an HTTP status/, 'prefer'],
    ['dynamic where nothing is described', '/api/v1/employee', 'dynamic=true', /describes no field/, 'prefer'],
    ['a bad boolean', '/api/v1/desk', 'dynamic=maybe', /dynamic must be true or false/, 'prefer'],
  ])(
    'an impossible scenario (%s) → 400 problem+json naming what is available',
    async (_n, url, prefer, detail, available) => {
      const res = await get(url, prefer);
      expect(res.statusCode).toBe(400);
      expect(res.headers['content-type']).toBe('application/problem+json');
      const body = res.json() as { title: string; detail: string; available: Record<string, unknown> };
      expect(body.title).toBe('Impossible scenario');
      expect(body.detail).toMatch(detail);
      expect(Object.keys(body.available)).toContain(available);
    },
  );

  it('the codes offered are the declared ones, then those the deployment answers anywhere, each once', async () => {
    const body = (await get('/api/v1/desk', 'code=418')).json() as { available: { codes: string[] } };
    // 200, 401, 404 declared (401 the token's); 403, 500, 502, 503, 504 answered without declaration.
    expect(body.available.codes).toEqual(['200', '401', '404', '403', '500', '502', '503', '504']);
    for (const code of body.available.codes)
      expect((await get('/api/v1/desk', `code=${code}`)).statusCode).toBe(Number(code));
  });

  it('a declared code without example is generated from its schema', async () => {
    const { fileURLToPath } = await import('node:url');
    const mini = fileURLToPath(new URL('../fixtures/mini/', import.meta.url));
    const m = await makeApp({ specFile: `${mini}openapi.yaml`, fixturesDir: `${mini}fixtures` });
    const a = await m.inject({ url: '/api/v1/generated', headers: { prefer: 'code=404' } });
    const b = await m.inject({ url: '/api/v1/generated', headers: { prefer: 'code=404' } });
    expect(a.statusCode).toBe(404);
    expect(typeof a.json().detail).toBe('string');
    expect(a.body).toBe(b.body);
    await m.close();
  });
});

describe('--validate-requests', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await makeApp({ validateRequests: true });
  });
  afterAll(() => app.close());

  it('lets valid requests through', async () => {
    for (const url of [
      '/api/v1/desk',
      '/api/v1/desk?format=api&page=1',
      '/api/v1/desk?page=last',
      '/api/v1/desk?unknown=1',
      '/api/v1/desk/1?format=json',
    ]) {
      expect((await app.inject({ url })).statusCode, url).toBe(200);
    }
  });

  it('answers 400 listing every violation', async () => {
    const res = await app.inject({ url: '/api/v1/desk?format=xml&page=abc' });
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toBe('application/problem+json');
    const body = res.json() as { validation: { location: string; message: string }[] };
    expect(new Set(body.validation.map((v) => v.location))).toEqual(new Set(['query.format', 'query.page']));
    // The deployment's renderers, in its order: JSON, then the browsable API.
    expect(body.validation.find((v) => v.location === 'query.format')?.message).toBe(
      'must be equal to one of the allowed values: ["json","api"]',
    );
    expect(body.validation.some((v) => v.location === 'query.page')).toBe(true);
    expect((await app.inject({ url: '/api/v1/desk?page=0' })).statusCode).toBe(400);
  });

  it('is off by default: DRF answers instead', async () => {
    const plain = await makeApp();
    expect((await plain.inject({ url: '/api/v1/desk?page=abc' })).json()).toEqual({ detail: 'Invalid page.' });
    await plain.close();
  });
});
