import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { buildApp } from '../../../src/server/app.js';
import { CONTROL_PAGE, isStubPage } from '../../../src/server/pages.js';
import { testConfig } from '../../helpers.js';
import { fixtureDir, fixtureState } from './state-fixtures.js';

describe("isStubPage: the stub's own pages, by the target's literal path", () => {
  it.each<[string | undefined, string | undefined, boolean]>([
    ['GET', undefined, true],
    ['GET', '/', true],
    ['GET', '/?format=api', true],
    ['HEAD', '/docs', true],
    ['GET', '/docs/swagger-ui.css', true],
    ['GET', '/docs?x', true],
    ['GET', '/openapi.json', true],
    ['GET', '/openapi.yaml?v=1', true],
    ['GET', CONTROL_PAGE, true],
    ['GET', `${CONTROL_PAGE}?session=a`, true],
    ['POST', '/docs', false],
    ['OPTIONS', '/', false],
    ['GET', '/__stub/requests', false],
    ['GET', '/__stub', false],
    ['GET', '/docsx', false],
    ['GET', '/d%6fcs', false],
    ['GET', '/openapi.yml', false],
    ['GET', '/docs/%E0%A4%A', false],
    ['GET', '/docs/%C3%A9', true],
    ['GET', '/api/v1/desk', false],
  ])('%s %s: %s', (method, url, want) => {
    expect(isStubPage(method, url)).toBe(want);
  });
});

const mini = path.join(fixtureDir('mini'), 'openapi.yaml');
const config = testConfig({ specFile: mini, fixturesDir: path.join(fixtureDir('mini'), 'fixtures') });
const app = await buildApp(config, { current: await fixtureState('mini') });
const strict = await buildApp(testConfig({ ...config, allowedHosts: ['.localhost'] }), {
  current: await fixtureState('mini'),
});
afterAll(async () => {
  await app.close();
  await strict.close();
});

describe('registerPages: the pages, as routes of the one entrance', () => {
  const get = (url: string, headers: Record<string, string> = {}, method: 'GET' | 'HEAD' | 'POST' = 'GET') =>
    app.inject({ method, url, headers: { host: 'stub.test:8000', ...headers } });

  it.each<[string, string, string, RegExp]>([
    ['/docs', 'text/html; charset=utf-8', '', /SwaggerUIBundle\(\{\s+url: '\/openapi.json'/],
    ['/docs/swagger-ui.css', 'text/css; charset=utf-8', 'public, max-age=3600', /swagger-ui/],
    ['/__stub/', 'text/html; charset=utf-8', 'no-store', /<title>Response selection test spec: stub control<\/title>/],
  ])('%s', async (url, type, cache, body) => {
    const r = await get(url);
    expect([r.statusCode, r.headers['content-type'], r.headers['cache-control'] ?? '']).toEqual([200, type, cache]);
    expect(r.headers['content-length']).toBe(String(r.rawPayload.length));
    expect(r.body).toMatch(body);
  });

  it('the spec as served now, this stub first among its servers, as JSON and YAML', async () => {
    const json = await get('/openapi.json');
    expect(json.headers['content-type']).toBe('application/json; charset=utf-8');
    const doc = json.json<{ servers: { url: string }[]; info: { title: string } }>();
    expect(doc.servers[0]?.url).toBe('http://stub.test:8000');
    expect(doc.info.title).toBe('Response selection test spec');
    const yaml = await get('/openapi.yaml', { host: 'other.test' });
    expect(yaml.headers['content-type']).toBe('application/yaml; charset=utf-8');
    expect((parse(yaml.body) as typeof doc).servers[0]?.url).toBe('http://other.test');
  });

  it('the index for a browser at /, each collection linked', async () => {
    const r = await get('/', { accept: 'text/html' });
    expect(r.statusCode).toBe(200);
    expect(r.body).toContain('<li><a href="http://stub.test:8000/api/v1/stored?format=api">/api/v1/stored</a>');
    expect(r.body).toContain('(3 items, fixture)');
  });

  it.each<[string, string, Record<string, string>, 'GET' | 'POST', number]>([
    ['/ to a client that is not a browser', '/', { accept: 'application/json' }, 'GET', 404],
    ['another file under /docs/', '/docs/nosuch.js', {}, 'GET', 404],
    ['a method other than GET or HEAD', '/docs', {}, 'POST', 404],
  ])("left to the service: %s (Django's page)", async (_name, url, headers, method, status) => {
    const r = await get(url, headers, method);
    expect([r.statusCode, r.headers['content-type']]).toEqual([status, 'text/html; charset=utf-8']);
    expect(r.body).toContain('Not Found');
  });

  it('HEAD: the headers of GET, no body', async () => {
    const r = await get('/docs', {}, 'HEAD');
    expect([r.statusCode, r.body, r.headers['content-type']]).toEqual([200, '', 'text/html; charset=utf-8']);
  });

  it.each(['/docs', '/openapi.json', '/__stub/'])(
    "%s: a Host the stub does not answer is Django's 400",
    async (url) => {
      const r = await strict.inject({ method: 'GET', url, headers: { host: 'evil.test' } });
      expect(r.statusCode).toBe(400);
      expect(r.headers['content-length']).toBe(String(r.rawPayload.length));
    },
  );
});
