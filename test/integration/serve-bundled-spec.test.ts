import { readFile } from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContractAjv } from '../../src/openapi/ajv.js';
import { loadSpec } from '../../src/load/spec.js';
import type { Desk, DeskList, StoredDesk } from '../../src/types.js';
import { DOCUMENT_COLLECTIONS, DOCUMENT_DESK_FIELDS, FIXTURES, listen, makeApp, SPEC } from '../helpers.js';

const fixtureDesks = JSON.parse(await readFile(`${FIXTURES}/desk.json`, 'utf8')) as StoredDesk[];
/** What the deployment's desk list holds: its queryset (active desks), ordered by building, floor, number. */
const listedDesks = fixtureDesks
  .filter((d) => d.active)
  .sort((a, b) =>
    a.building !== b.building
      ? a.building < b.building
        ? -1
        : 1
      : a.floor !== b.floor
        ? a.floor - b.floor
        : a.number < b.number
          ? -1
          : a.number > b.number
            ? 1
            : 0,
  );
/** The deployment's PAGE_SIZE. */
const PAGE_SIZE = 100;

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
      expect(body.previous).toBeNull();
      if (resource === 'desk') {
        // 190 active desks do not fit on one page of 100: the first page links to the second.
        expect(body.count).toBe(listedDesks.length);
        expect(body.next).toBe('http://stub.test/api/v1/desk?format=api&page=2');
        expect(body.results).toHaveLength(PAGE_SIZE);
      } else {
        // Rule 2: it fits on one page, so no links and results.length === count.
        expect(body.next).toBeNull();
        expect(body.results).toHaveLength(body.count);
      }
    },
  );

  it('rule 1: a collection without fixture or described fields is exactly the empty envelope', async () => {
    const res = await app.inject({ url: '/api/v1/employee?format=api' });
    expect(res.body).toBe('{"count":0,"next":null,"previous":null,"results":[]}');
    const page2 = await app.inject({ url: '/api/v1/employee?page=2' });
    expect(page2.statusCode).toBe(404);
    expect(page2.json()).toEqual({ detail: 'Invalid page.' });
  });

  it('serves every active desk of the fixture in the deployment order, each with the nine fields of §2.2', async () => {
    const page1 = (
      await app.inject({ url: '/api/v1/desk?format=api', headers: { host: 'stub.test:8000' } })
    ).json() as DeskList;
    expect(page1.count).toBe(listedDesks.length);
    expect(page1.next).toBe('http://stub.test:8000/api/v1/desk?format=api&page=2');
    const page2 = (
      await app.inject({ url: '/api/v1/desk?format=api&page=2', headers: { host: 'stub.test:8000' } })
    ).json() as DeskList;
    expect(page2.count).toBe(listedDesks.length);
    expect(page2.next).toBeNull();
    expect(page2.previous).toBe('http://stub.test:8000/api/v1/desk?format=api');
    const results = [...page1.results, ...page2.results];
    expect(results).toHaveLength(listedDesks.length);
    for (const [i, desk] of results.entries()) {
      expect(Object.keys(desk)).toEqual([...DOCUMENT_DESK_FIELDS]);
      expect(['S', 'P']).toContain(desk.building);
      expect(desk.active).toBe(true);
      expect(Number.isInteger(desk.floor)).toBe(true);
      expect(typeof desk.number).toBe('string');
      expect(desk.number).toMatch(/^[0-9]+[A-Za-z]*$/);
      for (const flag of ['active', 'lead', 'ergonomic', 'held_today'] as const)
        expect(typeof desk[flag]).toBe('boolean');
      expect(desk.url).toBe(`http://stub.test:8000/api/v1/desk/${desk.pk}?format=api`);
      expect(new URL(desk.url).pathname.split('/').at(-1)).toBe(String(desk.pk));
      const { url: _url, ...stored } = desk;
      expect(stored).toEqual(listedDesks[i]);
    }
  });

  it('an inactive desk is neither listed nor found (the queryset holds active desks only)', async () => {
    const inactive = fixtureDesks.filter((d) => !d.active);
    expect(inactive.length).toBeGreaterThan(0);
    for (const desk of inactive) {
      const res = await app.inject({ url: `/api/v1/desk/${desk.pk}` });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ detail: 'No Desk matches the given query.' });
    }
  });

  it("the fixture is the deployment's: 192 desks, 178 in Schaefers and 12 in Park Place on >= 2 floors each, 2 inactive", () => {
    expect(fixtureDesks).toHaveLength(192);
    const floors = new Map<string, Set<number>>();
    for (const d of fixtureDesks) floors.set(d.building, (floors.get(d.building) ?? new Set()).add(d.floor));
    expect([...floors.keys()].sort()).toEqual(['P', 'S']);
    for (const f of floors.values()) expect(f.size).toBeGreaterThanOrEqual(2);
    expect(fixtureDesks.filter((d) => d.active && d.building === 'S')).toHaveLength(178);
    expect(fixtureDesks.filter((d) => d.active && d.building === 'P')).toHaveLength(12);
    expect(fixtureDesks.filter((d) => !d.active)).toHaveLength(2);
    // number: CharField(max_length=10, unique=True).
    expect(new Set(fixtureDesks.map((d) => d.number)).size).toBe(fixtureDesks.length);
    for (const d of fixtureDesks) expect(d.number.length).toBeLessThanOrEqual(10);
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
    expect(body.results[0]?.url).toBe(`http://h/api/v1/desk/${listedDesks[0]?.pk}${query}`);
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
    [
      'page past the end',
      `/api/v1/desk?page=${Math.ceil(listedDesks.length / 7) + 1}`,
      404,
      { detail: 'Invalid page.' },
    ],
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
    expect(last.previous).toBe(`http://h/api/v1/desk?page=${Math.ceil(listedDesks.length / 7) - 1}`);
  });

  // A ModelViewSet: the list route has GET and POST, the item route GET, PUT, PATCH and DELETE.
  it.each([
    ['PUT', '/api/v1/desk', 'GET, POST, HEAD, OPTIONS'],
    ['PATCH', '/api/v1/desk', 'GET, POST, HEAD, OPTIONS'],
    ['DELETE', '/api/v1/desk', 'GET, POST, HEAD, OPTIONS'],
    ['PROPFIND', '/api/v1/desk', 'GET, POST, HEAD, OPTIONS'],
    ['POST', '/api/v1/desk/1', 'GET, PUT, PATCH, DELETE, HEAD, OPTIONS'],
  ] as const)('%s %s → 405 with Allow, even with a broken body', async (method, url, allow) => {
    const res = await app.inject({
      // PROPFIND is not among light-my-request 6.6's method names; Node sends it all the same.
      method: method as 'POST',
      url,
      payload: '{not json',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe(allow);
    expect(res.json()).toEqual({ detail: `Method "${method}" not allowed.` });
  });

  it('POST on the list parses its body: broken JSON → 400 with the parser error', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/desk',
      payload: '{not json',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.headers.allow).toBe('GET, POST, HEAD, OPTIONS');
    expect(res.json()).toEqual({
      detail: 'JSON parse error - Expecting property name enclosed in double quotes: line 1 column 2 (char 1)',
    });
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
    const body = res.json();
    expect(body).toMatchObject({
      name: 'Desk List',
      description: 'Desks (listing described for desk reservations)',
      renders: ['application/json', 'text/html'],
      parses: ['application/json', 'application/x-www-form-urlencoded', 'multipart/form-data'],
    });
    expect(Object.keys(body.actions)).toEqual(['POST']);
    expect(Object.keys(body.actions.POST)).toEqual([...DOCUMENT_DESK_FIELDS]);
    expect(body.actions.POST.building).toEqual({
      type: 'choice',
      required: false,
      read_only: false,
      label: 'Building',
      choices: [
        { value: 'S', display_name: 'Schaefers' },
        { value: 'P', display_name: 'Park Place' },
      ],
    });
    expect(body.actions.POST.number).toEqual({
      type: 'string',
      required: true,
      read_only: false,
      label: 'Number',
      max_length: 10,
    });
    const item = (await app.inject({ method: 'OPTIONS', url: '/api/v1/desk/1' })).json();
    expect(item.name).toBe('Desk Instance');
    expect(Object.keys(item.actions)).toEqual(['PUT']);
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
    const pages = Math.ceil(listedDesks.length / 7);
    const seen: number[] = [];
    let url: string | null = `${base}/api/v1/desk?format=api`;
    let n = 1;
    while (url) {
      const res = await fetch(url);
      expect(res.status).toBe(200);
      const body = (await res.json()) as DeskList;
      expect(body.count).toBe(listedDesks.length);
      expect(body.next).toBe(n < pages ? `${base}/api/v1/desk?format=api&page=${n + 1}` : null);
      expect(body.previous).toBe(
        n === 1 ? null : n === 2 ? `${base}/api/v1/desk?format=api` : `${base}/api/v1/desk?format=api&page=${n - 1}`,
      );
      expect(body.results.length).toBe(n < pages ? 7 : listedDesks.length - 7 * (pages - 1));
      seen.push(...body.results.map((d: Desk) => d.pk));
      url = body.next;
      n++;
    }
    expect(n - 1).toBe(pages);
    expect(seen).toEqual(listedDesks.map((d) => d.pk));
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
    expect(body.results[0]?.url).toBe(`https://staging.example.org/api/v1/desk/${listedDesks[0]?.pk}?format=api`);
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
