// The validating proxy: a frontend pointed at it reaches the upstream with links that keep working,
// every answer held to the checker's rules; a hostile upstream never brings it down.
import { once } from 'node:events';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { gzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Contract, loadContract } from '../../src/contract/load.js';
import type { RunningProxy } from '../../src/contract/proxy/proxy-server.js';
import { runCli, startCli } from '../cli-helpers.js';
import { listen, makeApp, SPEC } from '../helpers.js';
import { deployment, type Deployment, EMPTY_PAGE, sendJson, stubAnswer, stubbed, testProxy } from './deployments.js';

let contract: Contract;
let stub: FastifyInstance;
let stubUrl: string;
const proxies: RunningProxy[] = [];
const closers: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  contract = await loadContract(SPEC);
  stub = await makeApp({ pageSize: 7 });
  stubUrl = await listen(stub);
});
afterAll(async () => {
  for (const p of proxies) await p.stop();
  for (const c of closers) await c();
  await stub.close();
});

async function proxyOf(
  upstream: string,
  more: { errors?: boolean; timeoutMs?: number; maxBody?: number; corsOrigins?: string[] } = {},
): Promise<{ proxy: RunningProxy; log: string[] }> {
  const log: string[] = [];
  const proxy = await testProxy(contract, upstream, { ...more, log: (l) => log.push(l) });
  proxies.push(proxy);
  return { proxy, log };
}

/** A raw request (fetch would normalise `..` away before sending). */
function raw(
  url: string,
  path: string,
  headers: Record<string, string> = {},
  method = 'GET',
  body?: string,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: u.hostname, port: u.port, path, method, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('through the proxy, a frontend sees the upstream with working links', () => {
  it('answers the stub answers (as if the stub were at the proxy), links leading through the proxy', async () => {
    const { proxy, log } = await proxyOf(stubUrl);
    const host = new URL(proxy.url).host;
    let url: string | null = `${proxy.url}/api/v1/desk?format=api`;
    let pages = 0;
    while (url) {
      const res = await fetch(url);
      expect(res.status).toBe(200);
      expect(res.headers.get('x-contract-violations')).toBe('0');
      const body = await res.text();
      const direct = await stub.inject({ url: url.slice(proxy.url.length), headers: { host } });
      expect(body).toBe(direct.body);
      const page = JSON.parse(body) as { next: string | null; results: { url: string }[] };
      for (const d of page.results.slice(0, 2)) {
        expect(d.url.startsWith(`${proxy.url}/api/v1/desk/`)).toBe(true);
        const detail = await fetch(d.url);
        expect(detail.status).toBe(200);
        expect(detail.headers.get('x-contract-violations')).toBe('0');
      }
      url = page.next;
      pages++;
    }
    expect(pages).toBe(28); // fixtures/desk.json: 190 desks listed, pages of 7
    expect(log).toEqual([]);
    expect(proxy.session.violations).toBe(0);
  });

  it('a path-prefixed upstream: its base is rewritten whole, and no path leaves it', async () => {
    // The stub behind the prefix is made once the deployment's address (its fixed base) is known.
    const inner: { app?: FastifyInstance } = {};
    const d = await deployment(async (req, res) => {
      if (!req.url?.startsWith('/prefix/') || !inner.app) return void sendJson(res, 404, { detail: 'outside' });
      const a = await stubAnswer(inner.app, req, req.url.slice('/prefix'.length));
      res.writeHead(a.status, a.headers).end(a.body);
    }, '/prefix');
    closers.push(() => d.close());
    const app = await makeApp({ pageSize: 7, baseUrl: d.base });
    inner.app = app;
    closers.push(() => app.close());
    const { proxy } = await proxyOf(d.base);
    const page = (await (await fetch(`${proxy.url}/api/v1/desk?format=api&page=2`)).json()) as {
      next: string;
      previous: string;
      results: { url: string }[];
    };
    expect(page.next).toBe(`${proxy.url}/api/v1/desk?format=api&page=3`);
    expect(page.previous).toBe(`${proxy.url}/api/v1/desk?format=api`);
    expect(page.results[0]?.url).toMatch(new RegExp(`^${proxy.url}/api/v1/desk/\\d+\\?format=api$`));
    for (const path of [
      '/../admin',
      '/%2e%2e/admin',
      '/api/../../admin',
      // Read by a front server (nginx decodes %2F; Tomcat and Jetty drop `;…`) as leaving /prefix.
      '/..%2F..%2Fadmin',
      '/..%2fadmin',
      '/..;/admin',
      '/api/..;/..;/admin',
      '/%2e%2e%5cadmin',
      '/..%3B/admin',
    ]) {
      const r = await raw(proxy.url, path);
      expect(r.status, path).toBe(400);
      expect(r.headers['content-type']).toBe('application/problem+json');
    }
    expect(d.seen.map((s) => s.url).filter((u) => !u.startsWith('/prefix/') || /%2f|%5c|%3b|;/i.test(u))).toEqual([]);
  });

  it('credentials pass through, Host is the upstream’s, Location and Link are rewritten', async () => {
    const up = await deployment((req, res, { origin }) => {
      if (req.url === '/old')
        return void res
          .writeHead(301, {
            location: `${origin}/api/v1/desk?format=api`,
            link: `<${origin}/api/v1/desk?page=2>; rel="next"`,
          })
          .end();
      sendJson(res, 200, EMPTY_PAGE);
    });
    closers.push(() => up.close());
    const { proxy } = await proxyOf(up.base);
    const r = await raw(proxy.url, '/old', {
      authorization: 'Token pass-through-1',
      cookie: 'sessionid=abc123',
      'accept-encoding': 'gzip',
      host: new URL(proxy.url).host,
    });
    expect(r.status).toBe(301);
    expect(r.headers.location).toBe(`${proxy.url}/api/v1/desk?format=api`);
    expect(r.headers.link).toBe(`<${proxy.url}/api/v1/desk?page=2>; rel="next"`);
    await fetch(`${proxy.url}/api/v1/employee`, { headers: { authorization: 'Token pass-through-1' } });
    expect(up.seen.map((s) => [s.url, s.headers.host, s.headers.authorization])).toEqual([
      ['/old', new URL(up.base).host, 'Token pass-through-1'],
      ['/api/v1/employee', new URL(up.base).host, 'Token pass-through-1'],
    ]);
    expect(up.seen[0]?.headers.cookie).toBe('sessionid=abc123');
  });
});

describe('each answer is held to the contract', () => {
  let broken: Deployment;
  beforeAll(async () => {
    broken = await deployment(
      stubbed(stub, (a, req) => {
        if (req.url?.startsWith('/api/v1/desk?'))
          a.body = a.body
            .replace(/"building":"[SP]"/, '"building":"AB"')
            .replace(/"held_today":(true|false)/, `"held_today":"${req.headers.authorization ?? ''}"`);
        // The list of a ModelViewSet takes GET and POST: PUT is a method it does not allow.
        if (req.method === 'PUT') a.status = 200;
      }),
    );
    closers.push(() => broken.close());
  });

  it('counts violations in x-contract-violations and logs each with its rule id, credentials redacted', async () => {
    const { proxy, log } = await proxyOf(broken.base);
    const res = await fetch(`${proxy.url}/api/v1/desk?format=api`, {
      headers: { authorization: 'Token log-secret-42' },
    });
    expect(res.status).toBe(200);
    expect(Number(res.headers.get('x-contract-violations'))).toBeGreaterThanOrEqual(2);
    expect(
      log.some((l) =>
        /^violation schema GET \/api\/v1\/desk\?format=api \/results\/0\/building: expected must be equal to one of the allowed values/.test(
          l,
        ),
      ),
    ).toBe(true);
    expect(log.join('\n')).not.toContain('log-secret-42');
    expect(log.join('\n')).toContain('[redacted]');
    const put = await fetch(`${proxy.url}/api/v1/desk`, {
      method: 'PUT',
      body: '{}',
      headers: { 'content-type': 'application/json' },
    });
    expect(put.status).toBe(200);
    expect(put.headers.get('x-contract-violations')).toBe('1');
    expect(log.some((l) => l.startsWith('violation probe.method-not-allowed PUT /api/v1/desk'))).toBe(true);
  });

  it('--errors: 502 application/problem+json listing the violations instead', async () => {
    const { proxy } = await proxyOf(broken.base, { errors: true });
    const res = await fetch(`${proxy.url}/api/v1/desk?format=api`);
    expect(res.status).toBe(502);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    const problem = (await res.json()) as {
      title: string;
      status: number;
      upstream: { status: number };
      violations: { rule: string; pointer: string; source: string }[];
    };
    expect(problem).toMatchObject({ status: 502, upstream: { status: 200 } });
    expect(problem.violations).toContainEqual(
      expect.objectContaining({ rule: 'schema', pointer: '/results/0/building', source: 'spec' }),
    );
    const good = await fetch(`${proxy.url}/api/v1/desk/3?format=api`);
    expect(good.status).toBe(200);
  });
});

describe('a hostile upstream never brings the proxy down', () => {
  it('deep JSON, a gzip bomb, a reset, a hang, garbage, a huge request: each answered, the proxy still serves', async () => {
    const bomb = Buffer.concat(Array.from({ length: 256 }).fill(gzipSync(Buffer.alloc(1024 * 1024))) as Buffer[]);
    const up = await deployment((req, res) => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      if (path === '/api/v1/desk')
        return sendJson(
          res,
          200,
          `{"count":1,"next":null,"previous":null,"results":[${'['.repeat(100_000)}${']'.repeat(100_000)}]}`,
        );
      if (path === '/api/v1/employee')
        return void res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' }).end(bomb);
      if (path === '/api/v1/review') return void req.socket.destroy();
      if (path === '/api/v1/jobtitle') return; // never answers
      if (path === '/api/v1/workflow') return void req.socket.end('garbage\r\n\r\n');
      sendJson(res, 200, EMPTY_PAGE);
    });
    closers.push(() => up.close());
    const { proxy } = await proxyOf(up.base, { timeoutMs: 500, maxBody: 1024 * 1024 });
    const deep = await fetch(`${proxy.url}/api/v1/desk?format=api`);
    expect(deep.status).toBe(200);
    expect(deep.headers.get('x-contract-violations')).toBe('1');
    for (const [path, code] of [
      ['/api/v1/employee', 'larger than --max-body|decompresses to more'],
      ['/api/v1/review', 'socket hang up|ECONNRESET|closed'],
      ['/api/v1/jobtitle', 'no answer within 500 ms'],
      ['/api/v1/workflow', 'HPE_|Parse Error|Expected HTTP'],
    ] as const) {
      const res = await fetch(`${proxy.url}${path}`);
      expect(res.status, path).toBe(502);
      const problem = (await res.json()) as { detail: string };
      expect(problem.detail, path).toMatch(new RegExp(code));
    }
    const big = await fetch(`${proxy.url}/api/v1/desk`, { method: 'POST', body: Buffer.alloc(2 * 1024 * 1024) });
    expect(big.status).toBe(413);
    const fine = await fetch(`${proxy.url}/api/v1/mealstop?format=api`);
    expect(fine.status).toBe(200);
    expect(proxy.session.upstreamFailures).toBe(4);
  });
});

describe('CORS: a page on a dev server reads the proxy, a page elsewhere does not', () => {
  const cors = (r: { headers: Record<string, string | string[] | undefined> }) =>
    Object.fromEntries(Object.entries(r.headers).filter(([k]) => k.startsWith('access-control-') || k === 'vary'));

  // The stub as an upstream without a CORS policy (asked without the page's Origin).
  let plain: Deployment;
  beforeAll(async () => {
    plain = await deployment(stubbed(stub));
    closers.push(() => plain.close());
  });

  it.each([
    ['http://localhost:5173', true],
    ['http://127.0.0.1:3000', true],
    ['http://[::1]:5173', true],
    ['http://app.localhost:8080', true],
    ['https://localhost', true],
    ['https://dev.example.org', true], // --cors-origin
    ['https://dev.example.org:8443', false],
    ['http://dev.example.org', false],
    ['null', false],
    ['http://evil.example', false],
    ['http://localhost.evil.example', false],
    ['http://127.0.0.1.nip.io:5173', false],
    ['file://', false],
    ['http://localhost:5173/path', false],
  ])('Origin %s: echoed %s', async (origin, echoed) => {
    const { proxy } = await proxyOf(plain.base, { corsOrigins: ['https://dev.example.org'] });
    const r = await raw(proxy.url, '/api/v1/desk?format=api', { origin });
    expect(r.status).toBe(200);
    expect(cors(r)).toEqual(
      echoed
        ? {
            'access-control-allow-origin': origin,
            'access-control-allow-credentials': 'true',
            'access-control-expose-headers': 'x-contract-violations',
            vary: expect.stringMatching(/(^|, )Origin$/),
          }
        : expect.not.objectContaining({ 'access-control-allow-origin': expect.anything() }),
    );
    const pre = await raw(
      proxy.url,
      '/api/v1/desk/3',
      {
        origin,
        'access-control-request-method': 'PUT',
        'access-control-request-headers': 'authorization, content-type',
      },
      'OPTIONS',
    );
    if (echoed) {
      expect(pre.status).toBe(204);
      expect(cors(pre)).toMatchObject({
        'access-control-allow-origin': origin,
        'access-control-allow-credentials': 'true',
        'access-control-allow-methods': expect.stringContaining('PUT'),
        'access-control-allow-headers': 'authorization, content-type',
      });
    } else expect(pre.headers['access-control-allow-origin']).toBeUndefined();
  });

  it("the proxy's own answers (a path off the base, an upstream gone) carry it too", async () => {
    const gone = await deployment((_req, res) => void res.destroy());
    closers.push(() => gone.close());
    const { proxy } = await proxyOf(gone.base);
    const origin = 'http://localhost:5173';
    for (const path of ['/api/v1/desk', '/%2e%2e/admin']) {
      const r = await raw(proxy.url, path, { origin });
      expect(r.headers['content-type']).toBe('application/problem+json');
      expect(r.headers['access-control-allow-origin'], path).toBe(origin);
    }
  });

  it('an upstream with a CORS policy of its own keeps it: its headers pass unchanged, none added', async () => {
    const up = await deployment((req, res) => {
      const own = { 'access-control-allow-origin': 'https://app.example.org', vary: 'Origin' };
      if (req.method === 'OPTIONS')
        return void res.writeHead(200, { ...own, 'access-control-allow-methods': 'GET' }).end();
      sendJson(res, 200, EMPTY_PAGE, own);
    });
    closers.push(() => up.close());
    const { proxy } = await proxyOf(up.base);
    const origin = 'http://localhost:5173';
    const r = await raw(proxy.url, '/api/v1/employee', { origin });
    expect(cors(r)).toEqual({ 'access-control-allow-origin': 'https://app.example.org', vary: 'Origin' });
    const pre = await raw(proxy.url, '/api/v1/employee', { origin, 'access-control-request-method': 'GET' }, 'OPTIONS');
    expect(pre.status).toBe(200);
    expect(cors(pre)).toEqual({
      'access-control-allow-origin': 'https://app.example.org',
      'access-control-allow-methods': 'GET',
      vary: 'Origin',
    });
    expect(up.seen.map((x) => x.headers.origin)).toEqual([origin, origin]);
  });

  it.each([['null'], ['http://x/path'], ['ftp://x'], ['not an origin']])('--cors-origin %s: exit 2', async (value) => {
    const r = await runCli(['proxy', '--upstream', stubUrl, '--port', '0', '--cors-origin', value]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: --cors-origin /);
  });
});

describe('workplace-stub proxy (the CLI)', () => {
  it('listens on 127.0.0.1, and at SIGTERM prints a summary and writes --junit', async () => {
    const dir = await mkdtemp(`${tmpdir()}/proxy-`);
    try {
      const junit = `${dir}/reports/proxy.xml`;
      const { child, url, output } = await startCli(['proxy', '--upstream', stubUrl, '--port', '0', '--junit', junit]);
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect((await fetch(`${url}/api/v1/desk?format=api`)).headers.get('x-contract-violations')).toBe('0');
      expect((await fetch(`${url}/api/v1/desk/1?format=api`)).status).toBe(200);
      expect((await fetch(`${url}/api/v1/employee`, { method: 'DELETE' })).status).toBe(405);
      child.kill('SIGTERM');
      const [code] = (await once(child, 'exit')) as [number];
      expect(code).toBe(0);
      expect(output()).toMatch(
        /Proxy of http:\/\/127\.0\.0\.1:\d+: 3 requests, 3 answers validated, 0 without an answer; 0 violations/,
      );
      expect(output()).toMatch(/✓ GET \/api\/v1\/desk: 2 answers/);
      const xml = await readFile(junit, 'utf8');
      expect(XMLValidator.validate(xml)).toBe(true);
      expect(xml).toMatch(/<testcase classname="GET \/api\/v1\/desk" name="listDesks: schema" time="[\d.]+"\/>/);
      expect(xml).toMatch(/name="listEmployees: probe.method-not-allowed"/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
