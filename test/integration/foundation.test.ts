import { readFile } from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContractAjv } from '../../src/openapi/ajv.js';
import { loadSpec } from '../../src/load/spec.js';
import type { Desk, DeskList, StoredDesk } from '../../src/types.js';
import { DOCUMENT_COLLECTIONS, FIXTURES, listen, makeApp, SPEC } from '../helpers.js';

const fixtureDesks = JSON.parse(await readFile(`${FIXTURES}/desk.json`, 'utf8')) as StoredDesk[];

describe('the stub over inject: the list envelope of every collection (§2.1, §4)', () => {
  let app: FastifyInstance;
  let ajv: ContractAjv;
  beforeAll(async () => {
    app = await makeApp();
    ajv = new ContractAjv((await loadSpec(SPEC)).doc);
  });
  afterAll(() => app.close());

  it.each(DOCUMENT_COLLECTIONS)(
    '/api/v1/%s?format=api answers the envelope, valid against the spec',
    async (resource) => {
      const res = await app.inject({ url: `/api/v1/${resource}?format=api`, headers: { host: 'stub.test' } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/json');
      expect(String(res.headers.vary).split(', ')).toContain('Accept');
      const body = res.json();
      expect(Object.keys(body)).toEqual(['count', 'next', 'previous', 'results']);
      const opPath = `#/paths/${`/api/v1/${resource}`.replaceAll('/', '~1')}/get/responses/200/content/application~1json/schema`;
      expect(ajv.validate(opPath, body)).toEqual([]);
      // Rule 2: it fits on one page, so no links and results.length === count.
      expect(body.next).toBeNull();
      expect(body.previous).toBeNull();
      expect(body.results).toHaveLength(body.count);
    },
  );

  it('rule 1: a collection without fixture or described fields is exactly the empty envelope', async () => {
    const res = await app.inject({ url: '/api/v1/employee?format=api' });
    expect(res.body).toBe('{"count":0,"next":null,"previous":null,"results":[]}');
    const page2 = await app.inject({ url: '/api/v1/employee?page=2' });
    expect(page2.statusCode).toBe(404);
    expect(page2.json()).toEqual({ detail: 'Invalid page.' });
  });

  it('serves every desk of the fixture, each with the nine fields of §2.2 and their shapes', async () => {
    const body = (
      await app.inject({ url: '/api/v1/desk?format=api', headers: { host: 'stub.test:8000' } })
    ).json() as DeskList;
    expect(body.count).toBe(fixtureDesks.length);
    expect(body.results).toHaveLength(fixtureDesks.length);
    for (const [i, desk] of body.results.entries()) {
      expect(Object.keys(desk)).toEqual([
        'url',
        'pk',
        'building',
        'floor',
        'number',
        'active',
        'lead',
        'ergonomic',
        'held_today',
      ]);
      expect(desk.building).toMatch(/^[A-Z]$/);
      expect(Number.isInteger(desk.floor)).toBe(true);
      expect(typeof desk.number).toBe('string');
      expect(desk.number).toMatch(/^[0-9]+[A-Za-z]*$/);
      for (const flag of ['active', 'lead', 'ergonomic', 'held_today'] as const)
        expect(typeof desk[flag]).toBe('boolean');
      expect(desk.url).toBe(`http://stub.test:8000/api/v1/desk/${desk.pk}?format=api`);
      expect(new URL(desk.url).pathname.split('/').at(-1)).toBe(String(desk.pk));
      const { url: _url, ...stored } = desk;
      expect(stored).toEqual(fixtureDesks[i]);
    }
  });

  it('the fixture is realistic: >= 40 desks, >= 3 buildings with >= 2 floors, suffixed numbers, every flag both ways', () => {
    expect(fixtureDesks.length).toBeGreaterThanOrEqual(40);
    const floors = new Map<string, Set<number>>();
    for (const d of fixtureDesks) floors.set(d.building, (floors.get(d.building) ?? new Set()).add(d.floor));
    expect([...floors.values()].filter((f) => f.size >= 2).length).toBeGreaterThanOrEqual(3);
    expect(fixtureDesks.some((d) => /^[0-9]+$/.test(d.number))).toBe(true);
    expect(fixtureDesks.some((d) => /^[0-9]+[A-Za-z]+$/.test(d.number))).toBe(true);
    for (const flag of ['active', 'lead', 'ergonomic', 'held_today'] as const) {
      expect(new Set(fixtureDesks.map((d) => d[flag]))).toEqual(new Set([true, false]));
    }
  });

  it('urls follow the Host that was called (§9.2), with two different hosts', async () => {
    const a = (
      await app.inject({ url: '/api/v1/desk?format=api', headers: { host: 'staging.example.org' } })
    ).json() as DeskList;
    const b = (
      await app.inject({ url: '/api/v1/desk?format=api', headers: { host: 'prod.example.org:8443' } })
    ).json() as DeskList;
    expect(a.results.every((d) => d.url.startsWith('http://staging.example.org/api/v1/desk/'))).toBe(true);
    expect(b.results.every((d) => d.url.startsWith('http://prod.example.org:8443/api/v1/desk/'))).toBe(true);
  });

  it.each([
    ['format=api', '/api/v1/desk?format=api', '?format=api'],
    ['format=json', '/api/v1/desk?format=json', '?format=json'],
    ['no format', '/api/v1/desk', ''],
    ['page and other parameters are not copied', '/api/v1/desk?page=1&x=1&format=api', '?format=api'],
  ])('item urls keep only the format parameter: %s', async (_name, url, query) => {
    const body = (await app.inject({ url, headers: { host: 'h' } })).json() as DeskList;
    expect(body.results[0]?.url).toBe(`http://h/api/v1/desk/${fixtureDesks[0]?.pk}${query}`);
  });

  it("each desk's detail equals its list item, at its url", async () => {
    const list = (await app.inject({ url: '/api/v1/desk?format=api', headers: { host: 'h' } })).json() as DeskList;
    for (const desk of list.results) {
      const url = new URL(desk.url);
      const res = await app.inject({ url: `${url.pathname}${url.search}`, headers: { host: 'h' } });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual(desk);
    }
  });
});

describe('DRF errors (drf-behaviour.md)', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await makeApp({ pageSize: 7 });
  });
  afterAll(() => app.close());

  it.each([
    ['page=0', '/api/v1/desk?page=0', 404, { detail: 'Invalid page.' }],
    ['page=-1', '/api/v1/desk?page=-1', 404, { detail: 'Invalid page.' }],
    ['page=abc', '/api/v1/desk?page=abc', 404, { detail: 'Invalid page.' }],
    ['page=1.5', '/api/v1/desk?page=1.5', 404, { detail: 'Invalid page.' }],
    ['page past the end', '/api/v1/desk?page=8', 404, { detail: 'Invalid page.' }],
    ['page of 30 digits', `/api/v1/desk?page=${'9'.repeat(30)}`, 404, { detail: 'Invalid page.' }],
    ['format=xml', '/api/v1/desk?format=xml', 404, { detail: 'Not found.' }],
    ['format=xml on a detail', '/api/v1/desk/1?format=xml', 404, { detail: 'Not found.' }],
    ['unknown pk', '/api/v1/desk/999999', 404, { detail: 'No Desk matches the given query.' }],
    ['malformed pk', '/api/v1/desk/abc', 404, { detail: 'Not found.' }],
    ['pk with a dot', '/api/v1/desk/1.5', 404, { detail: 'Not found.' }],
  ])('%s → %i', async (_name, url, status, body) => {
    const res = await app.inject({ url });
    expect(res.statusCode).toBe(status);
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.json()).toEqual(body);
  });

  // Django's resolver matches nothing: its own page, not DRF's JSON (DEBUG off).
  it.each([
    ['unknown path', '/api/v1/nosuch'],
    ['trailing slash', '/api/v1/desk/'],
    ['detail with trailing slash', '/api/v1/desk/1/'],
  ])('%s → Django 404 page', async (_name, url) => {
    const res = await app.inject({ url });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.body).toContain('<h1>Not Found</h1><p>The requested resource was not found on this server.</p>');
    expect(res.headers.vary).toBeUndefined();
  });

  it('empty page and page=last are pages 1 and the last', async () => {
    expect((await app.inject({ url: '/api/v1/desk?page=' })).json().previous).toBeNull();
    const last = (await app.inject({ url: '/api/v1/desk?page=last', headers: { host: 'h' } })).json() as DeskList;
    expect(last.next).toBeNull();
    expect(last.previous).toBe('http://h/api/v1/desk?page=6');
  });

  it.each(['POST', 'PUT', 'PATCH', 'DELETE'] as const)('%s → 405 with Allow, even with a body', async (method) => {
    const res = await app.inject({
      method,
      url: '/api/v1/desk',
      payload: '{not json',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD, OPTIONS');
    expect(res.json()).toEqual({ detail: `Method "${method}" not allowed.` });
    const detail = await app.inject({ method, url: '/api/v1/desk/1' });
    expect(detail.statusCode).toBe(405);
  });

  it('format is negotiated before the method is checked (DRF order)', async () => {
    const res = await app.inject({ method: 'POST', url: '/api/v1/desk?format=xml' });
    expect(res.statusCode).toBe(404);
  });

  it('HEAD answers the GET headers without a body', async () => {
    const get = await app.inject({ url: '/api/v1/desk?format=api' });
    const head = await app.inject({ method: 'HEAD', url: '/api/v1/desk?format=api' });
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
    expect(head.headers['content-type']).toBe(get.headers['content-type']);
    expect(head.headers['content-length']).toBe(get.headers['content-length']);
  });

  it('OPTIONS answers DRF metadata', async () => {
    const res = await app.inject({ method: 'OPTIONS', url: '/api/v1/desk' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      name: 'Desk List',
      description: '',
      renders: ['application/json', 'application/json'],
      parses: ['application/json', 'application/x-www-form-urlencoded', 'multipart/form-data'],
    });
    expect((await app.inject({ method: 'OPTIONS', url: '/api/v1/desk/1' })).json().name).toBe('Desk Instance');
  });

  it.each([
    ['markup', '<script>'],
    ['a space', 'a b'],
    ['a quote', 'a"b'],
    ['an empty port', 'host:'],
    ['no domain', '.'],
    ['a port that is not a number', 'host:abc'],
    ['a path', 'host/path'],
  ])("a Host with %s → Django's 400 page", async (_name, host) => {
    const res = await app.inject({ url: '/api/v1/desk', headers: { host } });
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.body).toContain('<h1>Bad Request (400)</h1>');
  });
});

describe('pagination over real HTTP with --page-size 7', () => {
  let app: FastifyInstance;
  let base: string;
  beforeAll(async () => {
    app = await makeApp({ pageSize: 7 });
    base = await listen(app);
  });
  afterAll(() => app.close());

  it('crawling next yields each desk once, with exactly DRF’s links, and previous leads back', async () => {
    const pages = Math.ceil(fixtureDesks.length / 7);
    const seen: number[] = [];
    let url: string | null = `${base}/api/v1/desk?format=api`;
    let n = 1;
    while (url) {
      const res = await fetch(url);
      expect(res.status).toBe(200);
      const body = (await res.json()) as DeskList;
      expect(body.count).toBe(fixtureDesks.length);
      expect(body.next).toBe(n < pages ? `${base}/api/v1/desk?format=api&page=${n + 1}` : null);
      expect(body.previous).toBe(
        n === 1 ? null : n === 2 ? `${base}/api/v1/desk?format=api` : `${base}/api/v1/desk?format=api&page=${n - 1}`,
      );
      expect(body.results.length).toBe(n < pages ? 7 : fixtureDesks.length - 7 * (pages - 1));
      seen.push(...body.results.map((d: Desk) => d.pk));
      url = body.next;
      n++;
    }
    expect(n - 1).toBe(pages);
    expect(seen).toEqual(fixtureDesks.map((d) => d.pk));
  });

  it('links keep every other parameter, keys sorted, values as quote_plus encodes them; page 1 drops page', async () => {
    const res = await fetch(`${base}/api/v1/desk?z=a%20b&page=2&a=%7E*,&format=json&a=2`);
    const body = (await res.json()) as DeskList;
    expect(body.next).toBe(`${base}/api/v1/desk?a=~%2A%2C&a=2&format=json&page=3&z=a+b`);
    expect(body.previous).toBe(`${base}/api/v1/desk?a=~%2A%2C&a=2&format=json&z=a+b`);
  });

  it('without any query, previous of page 2 has no "?"', async () => {
    const body = (await (await fetch(`${base}/api/v1/desk?page=2`)).json()) as DeskList;
    expect(body.previous).toBe(`${base}/api/v1/desk`);
  });
});

describe('where the urls come from', () => {
  it('--base-url fixes every absolute url', async () => {
    const app = await makeApp({ baseUrl: 'https://staging.example.org/', pageSize: 7 });
    const body = (
      await app.inject({ url: '/api/v1/desk?format=api', headers: { host: 'ignored' } })
    ).json() as DeskList;
    expect(body.results[0]?.url).toBe(`https://staging.example.org/api/v1/desk/${fixtureDesks[0]?.pk}?format=api`);
    expect(body.next).toBe('https://staging.example.org/api/v1/desk?format=api&page=2');
    await app.close();
  });

  it('X-Forwarded-Host/Proto count only with --trust-proxy', async () => {
    const headers = { host: 'internal:8000', 'x-forwarded-host': 'public.example.org', 'x-forwarded-proto': 'https' };
    const untrusted = await makeApp();
    expect(((await untrusted.inject({ url: '/api/v1/desk', headers })).json() as DeskList).results[0]?.url).toMatch(
      /^http:\/\/internal:8000\//,
    );
    const trusted = await makeApp({ trustProxy: true });
    expect(((await trusted.inject({ url: '/api/v1/desk', headers })).json() as DeskList).results[0]?.url).toMatch(
      /^https:\/\/public\.example\.org\//,
    );
    const bad = await trusted.inject({
      url: '/api/v1/desk',
      headers: { ...headers, 'x-forwarded-host': 'evil"><script>' },
    });
    expect(bad.statusCode).toBe(400);
    await Promise.all([untrusted.close(), trusted.close()]);
  });

  it('--allowed-hosts restricts hosts as ALLOWED_HOSTS does', async () => {
    const app = await makeApp({ allowedHosts: ['.example.org', 'localhost'] });
    for (const host of ['example.org', 'api.example.org:8000', 'localhost:4010'])
      expect((await app.inject({ url: '/api/v1/desk', headers: { host } })).statusCode).toBe(200);
    const res = await app.inject({ url: '/api/v1/desk', headers: { host: 'evil.test' } });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('<h1>Bad Request (400)</h1>');
    await app.close();
  });
});
