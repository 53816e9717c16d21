import type { FastifyInstance } from 'fastify';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSpec } from '../../src/load/spec.js';
import { DEPLOYMENT_ROUTER_ORDER, DOCUMENT_COLLECTIONS, makeApp, SPEC } from '../helpers.js';

describe('CORS (on by default)', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await makeApp();
  });
  afterAll(() => app.close());
  const origin = 'http://localhost:5173';

  it.each(['/api/v1/desk', '/api/v1/desk/1', '/api/v1/employee', '/api/v1/nosuch', '/'])(
    'answers a preflight to %s with 204',
    async (url) => {
      const res = await app.inject({
        method: 'OPTIONS',
        url,
        headers: { origin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
      });
      expect(res.statusCode).toBe(204);
      expect(res.headers['access-control-allow-origin']).toBe(origin);
      expect(res.headers['access-control-allow-credentials']).toBe('true');
      expect(res.headers['access-control-allow-methods']).toContain('GET');
      expect(res.headers['access-control-allow-headers']).toBe('authorization');
    },
  );

  it('echoes the Origin on answers and errors, and exposes headers', async () => {
    for (const url of ['/api/v1/desk', '/api/v1/desk?page=99']) {
      const res = await app.inject({ url, headers: { origin } });
      expect(res.headers['access-control-allow-origin']).toBe(origin);
      expect(res.headers['access-control-allow-credentials']).toBe('true');
      expect(res.headers['access-control-expose-headers']).toContain('Allow');
      // Vary stays the service's (these answers carry no freshness information: no cache reuses them).
      expect(res.headers.vary).toBe('Accept, Cookie');
    }
  });

  it('leaves a plain OPTIONS (no preflight) to the service: DRF metadata', async () => {
    const res = await app.inject({ method: 'OPTIONS', url: '/api/v1/desk', headers: { origin } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ name: 'Desk List' });
  });

  it('--no-cors turns it off', async () => {
    const off = await makeApp({ cors: { mode: 'off' } });
    const res = await off.inject({ url: '/api/v1/desk', headers: { origin } });
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    const pre = await off.inject({
      method: 'OPTIONS',
      url: '/api/v1/desk',
      headers: { origin, 'access-control-request-method': 'GET' },
    });
    expect(pre.headers['access-control-allow-origin']).toBeUndefined();
    await off.close();
  });
});

describe('the spec, the docs and the index, served', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await makeApp();
  });
  afterAll(() => app.close());

  it('/openapi.json is the bundled document with this stub first among the servers', async () => {
    const res = await app.inject({ url: '/openapi.json', headers: { host: 'stub.test:4010' } });
    expect(res.statusCode).toBe(200);
    const served = res.json() as Record<string, unknown> & { servers: { url: string }[] };
    const { doc } = await loadSpec(SPEC);
    expect(served.servers[0]?.url).toBe('http://stub.test:4010');
    expect(served.servers.slice(1)).toEqual(doc.servers);
    expect({ ...served, servers: doc.servers }).toEqual(JSON.parse(JSON.stringify(doc)));
  });

  it('/openapi.yaml is the same document as YAML', async () => {
    const yaml = parse((await app.inject({ url: '/openapi.yaml' })).body);
    const json = (await app.inject({ url: '/openapi.json' })).json();
    expect(yaml).toEqual(json);
  });

  it('/docs is a page that loads Swagger UI from this stub only', async () => {
    const res = await app.inject({ url: '/docs' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    const assets = [...res.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1] ?? '');
    expect(assets.length).toBeGreaterThan(2);
    for (const asset of assets) {
      expect(asset.startsWith('/')).toBe(true);
      expect((await app.inject({ url: asset })).statusCode, asset).toBe(200);
    }
  });

  it.each([
    '/docs/index.html',
    '/docs/package.json',
    '/docs/swagger-ui-bundle.js.map',
    '/docs/../package.json',
    '/docs/%2e%2e/package.json',
    '/docs/..%2f..%2fpackage.json',
  ])('serves nothing else under /docs: %s → 404', async (url) => {
    const res = await app.inject({ url });
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('"dependencies"');
  });

  it("/ is what the deployment has there, a 302 to /api/, for a browser too (the stub's home is /__stub/)", async () => {
    for (const accept of ['text/html,application/xhtml+xml', 'application/json', undefined]) {
      const api = await app.inject({ url: '/', headers: accept === undefined ? {} : { accept } });
      // Django's RedirectView, not a DRF view: no negotiation, an empty text/html answer.
      expect(api.statusCode).toBe(302);
      expect(api.headers.location).toBe('/api/');
      expect(api.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(api.body).toBe('');
    }
    const home = await app.inject({ url: '/__stub/', headers: { accept: 'text/html', host: 'h' } });
    expect(home.statusCode).toBe(200);
    expect(home.body).toContain('href="/docs"');
  });

  it("/api/ is DefaultRouter's API root: every collection's url, in the deployment's registration order", async () => {
    // The root lists the document's 20 collections, in the order the deployment's router registers them.
    const expected = DEPLOYMENT_ROUTER_ORDER.filter((r) => (DOCUMENT_COLLECTIONS as readonly string[]).includes(r));
    expect(new Set(expected)).toEqual(new Set(DOCUMENT_COLLECTIONS));
    const root = await app.inject({ url: '/api/?format=api', headers: { host: 'h' } });
    expect(root.statusCode).toBe(200);
    expect(root.headers.allow).toBe('GET, HEAD, OPTIONS');
    expect(Object.entries(root.json() as Record<string, string>)).toEqual(
      expected.map((r) => [`v1/${r}`, `http://h/api/v1/${r}?format=api`]),
    );
    const redirect = await app.inject({ url: '/api?format=api' });
    expect(redirect.statusCode).toBe(301);
    expect(redirect.headers.location).toBe('/api/?format=api');
    // The router is mounted at /api/: /api/v1/ is no path of it (Django's 404 page).
    for (const url of ['/api/v1/', '/api/v1']) {
      const none = await app.inject({ url });
      expect(none.statusCode).toBe(404);
      expect(none.body).toContain('<h1>Not Found</h1>');
    }
  });
});
