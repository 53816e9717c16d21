import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { http as mswHttp, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFetchHandler, type HandlerOptions } from '../../src/adapters/fetch.js';
import { createHandlers } from '../../src/adapters/msw.js';
import type { StubConfig } from '../../src/server/config.js';
import { FIXTURES, listen, makeApp, stateFor, testConfig } from '../helpers.js';

/**
 * One corpus, three adapters over the one core (issue #12 §4): the HTTP server (real HTTP), the
 * fetch handler, and the MSW handlers (msw/node, then the global fetch). Each case must get the
 * same status, headers and body from all three. Every request names the server's host:port, so
 * that the Host (and every url built from it) is the same for all three.
 */

interface Case {
  readonly name: string;
  readonly method?: string;
  /** Path and query, as sent. */
  readonly path: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string;
}

interface Answer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

type Send = (request: Request) => Promise<Response>;

/** The connection's own headers, which only the real HTTP server has. */
const TRANSPORT = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

const PAGE_SIZE = 10;
const JSON_BODY = { 'content-type': 'application/json' };

function requestOf(origin: string, c: Case): Request {
  return new Request(`${origin}${c.path}`, {
    method: c.method ?? 'GET',
    headers: c.headers,
    body: c.body,
    redirect: 'manual',
  });
}

async function answerOf(res: Response): Promise<Answer> {
  const headers: Record<string, string> = {};
  res.headers.forEach((value, name) => {
    if (!TRANSPORT.has(name)) headers[name] = value;
  });
  return { status: res.status, headers, body: await res.text() };
}

async function sendAll(send: Send, origin: string, cases: readonly Case[]): Promise<Answer[]> {
  const out: Answer[] = [];
  for (const c of cases) out.push(await answerOf(await send(requestOf(origin, c))));
  return out;
}

/** The corpus: every collection of the served state, then what one collection shows of the rest. */
async function corpus(): Promise<Case[]> {
  const state = await stateFor(testConfig());
  const cases: Case[] = [];
  for (const [path, collection] of state.model.collections) {
    const name = path.slice(path.lastIndexOf('/') + 1);
    const list: [string, string, Record<string, string>?][] = [
      ['list', ''],
      ['format=api', '?format=api'],
      ['format=json', '?format=json'],
      ['.json suffix', '.json'],
      ['page 2', '?format=api&page=2'],
      ['page=last', '?page=last&format=api'],
      ['page=0', '?page=0'],
      ['page=abc', '?page=abc'],
      ['a page past the end', '?page=99'],
      ['an unknown format', '?format=xml'],
      ['Prefer: empty=true', '', { prefer: 'empty=true' }],
      ['__empty=true', '?__empty=true&format=api'],
      ['Prefer: dynamic=true', '?format=api', { prefer: 'dynamic=true' }],
      ['__dynamic=true, page 2', '?__dynamic=true&page=2&format=api'],
      ['Prefer: code=404', '', { prefer: 'code=404' }],
      ['__code=500', '?__code=500'],
      ['Prefer: code=418 (impossible)', '', { prefer: 'code=418' }],
    ];
    for (const [what, suffix, headers] of list)
      cases.push({ name: `${name}: ${what}`, path: `${path}${suffix}`, headers });
    cases.push({ name: `${name}: HEAD`, method: 'HEAD', path: `${path}?format=api` });
    cases.push({ name: `${name}: OPTIONS`, method: 'OPTIONS', path });
    cases.push({ name: `${name}: POST`, method: 'POST', path, headers: JSON_BODY, body: '{}' });
    if (collection.itemRoute) {
      const pk = collection.items.items[0]?.pk ?? '1';
      cases.push(
        { name: `${name} detail`, path: `${path}/${pk}` },
        { name: `${name} detail: format=api`, path: `${path}/${pk}?format=api` },
        { name: `${name} detail: .json suffix`, path: `${path}/${pk}.json` },
        { name: `${name} detail: an unknown pk`, path: `${path}/999999` },
        { name: `${name} detail: a pk its field cannot read`, path: `${path}/abc` },
        { name: `${name} detail: a trailing slash`, path: `${path}/${pk}/` },
        {
          name: `${name} detail: Prefer: dynamic=true`,
          path: `${path}/${pk}?format=api`,
          headers: { prefer: 'dynamic=true' },
        },
        { name: `${name} detail: HEAD`, method: 'HEAD', path: `${path}/${pk}` },
        { name: `${name} detail: OPTIONS`, method: 'OPTIONS', path: `${path}/${pk}` },
        { name: `${name} detail: DELETE`, method: 'DELETE', path: `${path}/${pk}` },
        {
          name: `${name} detail: PUT`,
          method: 'PUT',
          path: `${path}/${pk}`,
          headers: JSON_BODY,
          body: '{"building":"B"}',
        },
      );
    }
  }
  const desk = '/api/v1/desk';
  const extra: Case[] = [
    { name: 'the API root', path: '/api/' },
    { name: 'the API root, format=api', path: '/api/?format=api' },
    { name: 'the API root without its slash (APPEND_SLASH)', path: '/api?page=2' },
    { name: 'the API root, .json suffix', path: '/api/.json' },
    { name: 'the API root, POST', method: 'POST', path: '/api/', headers: JSON_BODY, body: '{}' },
    { name: 'no API root at /api/v1/ (the router is mounted at /api/)', path: '/api/v1/' },
    { name: 'the site root (a Django redirect to the API root)', path: '/' },
    { name: 'the favicon (a Django redirect)', path: '/favicon.ico' },
    { name: 'an unknown collection', path: '/api/v1/nosuch' },
    { name: 'a collection with a trailing slash', path: `${desk}/` },
    { name: 'a path in another spelling', path: '/api/v1/d%65sk?format=api' },
    { name: 'the folder in another spelling', path: '/%61pi/v1/desk?format=api&page=2' },
    { name: 'Accept: application/json', path: `${desk}?format=api`, headers: { accept: 'application/json' } },
    {
      name: 'Accept: application/json; indent=4',
      path: `${desk}/3`,
      headers: { accept: 'application/json; indent=4' },
    },
    { name: 'Accept: text/html', path: desk, headers: { accept: 'text/html' } },
    { name: 'Accept: application/xml', path: desk, headers: { accept: 'application/xml' } },
    {
      name: 'Accept: text/html, application/json;q=0.9',
      path: desk,
      headers: { accept: 'text/html, application/json;q=0.9' },
    },
    { name: 'Accept: */*', path: desk, headers: { accept: '*/*' } },
    { name: 'Basic credentials the stub does not hold', path: desk, headers: { authorization: 'Basic dXNlcjpwYXNz' } },
    { name: 'Basic without credentials', path: desk, headers: { authorization: 'Basic' } },
    { name: 'a token', path: '/api/v1/employee', headers: { authorization: 'Token abc123' } },
    { name: 'a token header without its key', path: desk, headers: { authorization: 'Token' } },
    { name: 'a token with spaces', path: desk, headers: { authorization: 'Token a b' } },
    {
      name: 'a cross-origin request (CORS)',
      path: `${desk}?format=api`,
      headers: { origin: 'http://app.example:5173' },
    },
    {
      name: 'a CORS preflight',
      method: 'OPTIONS',
      path: desk,
      headers: {
        origin: 'http://app.example:5173',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'prefer',
      },
    },
    { name: 'Prefer: example=twoDesks', path: `${desk}?format=api`, headers: { prefer: 'example=twoDesks' } },
    { name: '__example=twoDesks', path: `${desk}?format=api&__example=twoDesks` },
    { name: 'Prefer: code=404, example=invalidPage', path: desk, headers: { prefer: 'code=404, example=invalidPage' } },
    { name: 'Prefer: example=nosuch', path: desk, headers: { prefer: 'example=nosuch' } },
    { name: 'Prefer: delay=20', path: `${desk}?format=api&page=3`, headers: { prefer: 'delay=20' } },
    {
      name: 'Prefer: dynamic=true, delay=10',
      path: `${desk}?format=api`,
      headers: { prefer: 'dynamic=true, delay=10' },
    },
    { name: 'Prefer: delay=abc', path: desk, headers: { prefer: 'delay=abc' } },
    { name: 'Prefer: code=502', path: desk, headers: { prefer: 'code=502' } },
    { name: 'other query parameters kept in the links, sorted', path: `${desk}?zeta=1&alpha=b+c&format=api&page=2` },
    { name: 'a repeated page: the last counts', path: `${desk}?page=1&page=3&format=api` },
    { name: 'a repeated format', path: `${desk}?format=json&format=api` },
    { name: 'a broken escape in the query', path: `${desk}?x=%zz&page=2` },
    { name: 'unicode in the query', path: `${desk}?q=caf%C3%A9&page=2&q=%E2%9C%93` },
    { name: 'an empty key and value', path: `${desk}?=x&y=&&page=2` },
    { name: 'a page with spaces', path: `${desk}?page=%202%20` },
    { name: 'a page with a sign', path: `${desk}?page=+2` },
    { name: 'a huge page', path: `${desk}?page=99999999999999999999999` },
    { name: '__proto__ as a key', path: `${desk}?__proto__=1&constructor=2&page=2` },
    { name: 'a method in lower case', method: 'patch', path: `${desk}/3`, headers: JSON_BODY, body: '{}' },
    { name: 'PATCH on the list', method: 'PATCH', path: desk, headers: JSON_BODY, body: '{}' },
    {
      name: 'POST with a body that is not JSON',
      method: 'POST',
      path: desk,
      headers: { 'content-type': 'text/plain' },
      body: 'hello',
    },
    { name: 'a long query', path: `${desk}?${'k=v&'.repeat(200)}page=2` },
    { name: 'the reset path, GET', path: '/__stub/reset' },
    { name: 'the reset path, POST', method: 'POST', path: '/__stub/reset' },
  ];
  return [...cases, ...extra];
}

describe('same answers everywhere: the HTTP server, the fetch handler and the MSW handlers (issue #12 §4)', () => {
  let app: FastifyInstance;
  let origin: string;
  let cases: Case[];
  const answers: { server: Answer[]; fetch: Answer[]; msw: Answer[] } = { server: [], fetch: [], msw: [] };

  beforeAll(async () => {
    app = await makeApp({ pageSize: PAGE_SIZE });
    origin = await listen(app);
    cases = await corpus();
    // One after another, so that msw (which patches the global fetch) is on only for its own arm.
    answers.server = await sendAll(fetch, origin, cases);
    answers.fetch = await sendAll(createFetchHandler({ pageSize: PAGE_SIZE }), origin, cases);
    // On the server's origin: the site's own views (`/`, `/favicon.ico`) are answered there only.
    const msw = setupServer(...createHandlers({ pageSize: PAGE_SIZE, baseUrl: origin }));
    msw.listen({ onUnhandledRequest: 'error' });
    try {
      answers.msw = await sendAll((r) => fetch(r), origin, cases);
    } finally {
      msw.close();
    }
  }, 120_000);
  afterAll(() => app.close());

  it('the corpus covers every collection, pages, details, scenarios, methods and errors', async () => {
    expect(cases.length).toBeGreaterThan(400);
    const statuses = new Set(answers.server.map((a) => a.status));
    for (const s of [200, 201, 204, 301, 302, 400, 401, 403, 404, 405, 406, 500, 502])
      expect(statuses, `a ${s} in the corpus`).toContain(s);
  });

  it('every answer is the same from all three (status, headers, body)', () => {
    const differences: string[] = [];
    cases.forEach((c, i) => {
      const server = answers.server[i] as Answer;
      for (const arm of ['fetch', 'msw'] as const) {
        const other = answers[arm][i] as Answer;
        try {
          expect(other).toEqual(server);
        } catch {
          differences.push(
            `${arm} ≠ server for ${c.method ?? 'GET'} ${c.path} (${c.name}):\n  server: ${JSON.stringify(server).slice(0, 600)}\n  ${arm}: ${JSON.stringify(other).slice(0, 600)}`,
          );
        }
      }
    });
    expect(differences, differences.join('\n')).toEqual([]);
  });

  it('the answers carry Content-Type, Allow and Vary where the service sends them', () => {
    const desk = cases.findIndex((c) => c.name === 'desk: format=api');
    expect(answers.msw[desk]?.headers).toMatchObject({
      'content-type': 'application/json',
      allow: 'GET, POST, HEAD, OPTIONS',
      vary: 'Accept, Cookie',
    });
    // The deployment's desk queryset: the active desks.
    const active = JSON.parse(readFileSync(`${FIXTURES}/desk.json`, 'utf8')) as { active: boolean }[];
    expect(JSON.parse(answers.msw[desk]?.body ?? '{}')).toMatchObject({
      count: active.filter((d) => d.active).length,
      next: `${origin}/api/v1/desk?format=api&page=2`,
    });
    const root = answers.msw[cases.findIndex((c) => c.name === 'the API root, format=api')];
    expect(root?.headers).toMatchObject({ 'content-type': 'application/json', allow: 'GET, HEAD, OPTIONS' });
    expect(JSON.parse(root?.body ?? '{}')).toMatchObject({ 'v1/desk': `${origin}/api/v1/desk?format=api` });
    const site = answers.msw[cases.findIndex((c) => c.name.startsWith('the site root'))];
    expect(site).toMatchObject({ status: 302, headers: { location: '/api/' }, body: '' });
  });
});

describe('a base URL, and the scheme of the request', () => {
  const BASE = 'https://staging.example.org/workplace';
  let app: FastifyInstance;
  let origin: string;

  const cases: Case[] = [
    { name: 'list', path: '/api/v1/desk?format=api&page=2' },
    { name: 'detail', path: '/api/v1/desk/3?format=api' },
    { name: 'an unknown desk', path: '/api/v1/desk/999999' },
    { name: 'the API root', path: '/api/' },
    { name: 'without the slash', path: '/api' },
    { name: 'OPTIONS', method: 'OPTIONS', path: '/api/v1/desk' },
  ];

  async function serverAnswers(config: Partial<StubConfig>, headers: Record<string, string> = {}): Promise<Answer[]> {
    const served = await makeApp({ pageSize: PAGE_SIZE, ...config });
    try {
      const url = await listen(served);
      return await sendAll(
        fetch,
        url,
        cases.map((c) => ({ ...c, headers: { ...c.headers, ...headers } })),
      );
    } finally {
      await served.close();
    }
  }

  beforeAll(async () => {
    app = await makeApp({ pageSize: PAGE_SIZE });
    origin = await listen(app);
  });
  afterAll(() => app.close());

  it('with a baseUrl that has a path, the handlers answer below it as the server with --base-url answers at its root', async () => {
    const server = await serverAnswers({ baseUrl: BASE });
    const options: HandlerOptions = { pageSize: PAGE_SIZE, baseUrl: BASE };
    const viaFetch = await sendAll(createFetchHandler(options), BASE, cases);
    const msw = setupServer(...createHandlers(options));
    msw.listen({ onUnhandledRequest: 'error' });
    let viaMsw: Answer[];
    try {
      viaMsw = await sendAll((r) => fetch(r), BASE, cases);
    } finally {
      msw.close();
    }
    expect(viaFetch).toEqual(server);
    expect(viaMsw).toEqual(server);
    expect(JSON.parse(viaFetch[0]?.body ?? '{}')).toMatchObject({
      next: `${BASE}/api/v1/desk?format=api&page=3`,
      previous: `${BASE}/api/v1/desk?format=api`,
    });
  });

  it('the fetch handler answers 404 outside the base path, and takes the path in any spelling', async () => {
    const handle = createFetchHandler({ baseUrl: `${BASE}/` });
    const outside = await handle(new Request('https://staging.example.org/api/v1/desk'));
    expect(outside.status).toBe(404);
    expect(outside.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect((await handle(new Request('https://staging.example.org/workplaces/api/v1/desk'))).status).toBe(404);
    const encoded = await handle(new Request('https://staging.example.org/work%70lace/api/v1/desk/3?format=api'));
    expect(await encoded.json()).toMatchObject({ pk: 3, url: `${BASE}/api/v1/desk/3?format=api` });
  });

  it('an https request gets https urls, as the server behind a trusted proxy that says https', async () => {
    const server = await serverAnswers(
      { trustProxy: true },
      { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'app.example' },
    );
    const viaFetch = await sendAll(createFetchHandler({ pageSize: PAGE_SIZE }), 'https://app.example', cases);
    expect(viaFetch).toEqual(server);
    expect(JSON.parse(viaFetch[1]?.body ?? '{}')).toMatchObject({
      url: 'https://app.example/api/v1/desk/3?format=api',
    });
  });

  it("a Request's own X-Forwarded-* headers are not read (the server reads none without --trust-proxy)", async () => {
    const res = await createFetchHandler()(
      new Request(`${origin}/api/v1/desk/3?format=api`, {
        headers: { 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' },
      }),
    );
    expect(await res.json()).toMatchObject({ url: `${origin}/api/v1/desk/3?format=api` });
  });

  it('a bad baseUrl or pageSize is refused at once', () => {
    for (const baseUrl of [
      'not a url',
      'ftp://x.example',
      'https://x.example/?q=1',
      'https://x.example/#f',
      'https://u:p@x.example',
    ]) {
      expect(() => createFetchHandler({ baseUrl }), baseUrl).toThrow(TypeError);
      expect(() => createHandlers({ baseUrl }), baseUrl).toThrow(TypeError);
    }
    for (const pageSize of [0, -1, 1.5, Number.NaN])
      expect(() => createFetchHandler({ pageSize }), String(pageSize)).toThrow(TypeError);
  });
});

describe('the MSW handlers take only the service', () => {
  it('leave every other request to the next handler and to onUnhandledRequest', async () => {
    const unhandled: string[] = [];
    const msw = setupServer(
      ...createHandlers(),
      mswHttp.all('*', ({ request }) => HttpResponse.text(`next handler: ${new URL(request.url).pathname}`)),
    );
    const only = setupServer(...createHandlers());
    msw.listen({ onUnhandledRequest: 'error' });
    try {
      const text = async (url: string) => (await fetch(url)).text();
      expect(await text('http://app.example/docs')).toBe('next handler: /docs');
      expect(await text('http://app.example/apifoo')).toBe('next handler: /apifoo');
      expect(await text('http://app.example/apis/v1/desk')).toBe('next handler: /apis/v1/desk');
      expect(await text('http://app.example/index.html')).toBe('next handler: /index.html');
      // Below /api/ is the deployment's (its router is mounted there): an unknown path is its 404.
      for (const url of ['http://app.example/api/v2/desk', 'http://app.example/api/v1foo']) {
        const other = await fetch(url);
        expect(other.status, url).toBe(404);
        expect(await other.text(), url).toContain('<h1>Not Found</h1>');
      }
      // The spec routes / and /favicon.ico too (x-django-view), but on any origin they are the
      // app's own: left to the next handler (with a baseUrl, the deployment's redirects: below).
      expect(await text('http://app.example/')).toBe('next handler: /');
      expect(await text('http://app.example/favicon.ico')).toBe('next handler: /favicon.ico');
      expect(JSON.parse(await text('http://app.example/api/v1/desk/3'))).toMatchObject({ pk: 3 });
    } finally {
      msw.close();
    }
    only.listen({ onUnhandledRequest: (request) => void unhandled.push(new URL(request.url).pathname) });
    try {
      await fetch('http://127.0.0.1:9/assets/app.js').catch(() => undefined);
      expect(unhandled).toEqual(['/assets/app.js']);
    } finally {
      only.close();
    }
  });

  it('with a baseUrl, only its origin and path', async () => {
    const msw = setupServer(
      ...createHandlers({ baseUrl: 'https://staging.example.org/workplace' }),
      mswHttp.all('*', () => HttpResponse.text('next')),
    );
    msw.listen({ onUnhandledRequest: 'error' });
    try {
      expect((await fetch('https://staging.example.org/workplace/api/v1/desk/3')).status).toBe(200);
      expect(await (await fetch('https://staging.example.org/api/v1/desk/3')).text()).toBe('next');
      expect(await (await fetch('https://other.example/workplace/api/v1/desk/3')).text()).toBe('next');
      // On the API's own origin, the site's Django views are the deployment's redirects.
      for (const [url, location] of [
        ['https://staging.example.org/workplace/', '/api/'],
        ['https://staging.example.org/workplace/favicon.ico', '/static/favicon.ico'],
      ] as const) {
        const res = await fetch(url, { redirect: 'manual' });
        expect(res.status, url).toBe(302);
        expect(res.headers.get('location'), url).toBe(location);
      }
      expect(await (await fetch('https://other.example/favicon.ico')).text()).toBe('next');
    } finally {
      msw.close();
    }
  });

  it('reset() and POST /__stub/reset put written state back (the core answers the path)', async () => {
    const handle = createFetchHandler();
    const msw = setupServer(...createHandlers());
    msw.listen({ onUnhandledRequest: 'error' });
    try {
      for (const send of [handle, (r: Request) => fetch(r)]) {
        expect((await send(new Request('http://app.example/__stub/reset', { method: 'POST' }))).status).toBe(204);
        const get = await send(new Request('http://app.example/__stub/reset'));
        expect(get.status).toBe(405);
        expect(get.headers.get('allow')).toBe('POST');
      }
    } finally {
      msw.close();
    }
    expect(() => handle.reset()).not.toThrow();
  });

  it('serve a snapshot given as parsed JSON, and refuse what is not one', async () => {
    const state = await stateFor(
      testConfig({ specFile: 'test/fixtures/mini/openapi.yaml', fixturesDir: 'test/fixtures/mini/fixtures' }),
    );
    const handle = createFetchHandler({ snapshot: JSON.parse(JSON.stringify(state.snapshot)) });
    const root = (await (await handle(new Request('http://h/api/v1/'))).json()) as Record<string, string>;
    expect(Object.keys(root).length).toBeGreaterThan(0);
    expect(Object.keys(root)).not.toContain('desk');
    expect(() => createFetchHandler({ snapshot: { format: 'other' } })).toThrow(/not a stub snapshot/);
  });
});
