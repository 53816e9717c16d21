import http, { type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import type { Fetched } from '../../../../src/contract/http.js';
import { type ProxyOptions, type RunningProxy, startProxy } from '../../../../src/contract/proxy/proxy-server.js';
import { answer, type Asked, bundledContract, desk, DESKS, honest, type Route } from '../fake-deployment.js';

// The proxy is a server: it is tested over loopback, between a client and an upstream of its own.
const contract = await bundledContract();
const upstreamSeen: { method: string; url: string; headers: IncomingHttpHeaders }[] = [];
let upstreamRoute: (base: string) => Route = (base) => honest([desk(1, base), desk(2, base), desk(3, base)], 2, base);
const upstream = http.createServer((req, res) => {
  upstreamSeen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const asked: Asked = { method: req.method ?? 'GET', url: new URL(req.url ?? '/', upstreamBase), headers: {} };
    const r: Fetched = upstreamRoute(upstreamBase)(asked);
    if (!r.ok) return void res.destroy();
    res.writeHead(r.status, r.headers as http.OutgoingHttpHeaders).end(req.method === 'HEAD' ? undefined : r.body);
  });
});
await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
const upstreamBase = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;

const proxies: RunningProxy[] = [];
let logged: string[] = [];
async function proxy(over: Partial<ProxyOptions> = {}): Promise<RunningProxy> {
  const p = await startProxy({
    contract,
    upstream: upstreamBase,
    host: '127.0.0.1',
    port: 0,
    errors: false,
    timeoutMs: 2000,
    maxBody: 4096,
    log: (line) => logged.push(line),
    ...over,
  });
  proxies.push(p);
  return p;
}
afterAll(async () => {
  for (const p of proxies) await p.stop();
  upstream.closeAllConnections();
  await new Promise<void>((r) => upstream.close(() => r()));
});
beforeEach(() => {
  upstreamSeen.length = 0;
  logged = [];
  upstreamRoute = (base) => honest([desk(1, base), desk(2, base), desk(3, base)], 2, base);
});

interface Got {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}
function ask(
  p: RunningProxy,
  path: string,
  opts: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Got> {
  return new Promise((resolve, reject) => {
    const u = new URL(p.url);
    const req = http.request(
      { host: u.hostname, port: u.port, path, method: opts.method ?? 'GET', headers: opts.headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString() }),
        );
      },
    );
    req.on('error', reject);
    req.end(opts.body);
  });
}
const breakPage =
  (change: (body: Record<string, unknown>) => object) =>
  (base: string): Route => {
    const real = honest([desk(1, base)], 2, base);
    return (req) => {
      const r = real(req);
      return r.ok && req.url.pathname === DESKS
        ? answer(r.status, change(JSON.parse(r.text) as Record<string, unknown>), r.headers)
        : r;
    };
  };

describe('startProxy: every answer forwarded, held to the contract, its links through the proxy', () => {
  it('rewrites the upstream’s base to its own, counts the violations, sends the upstream its own Host', async () => {
    const p = await proxy();
    const r = await ask(p, `${DESKS}?format=api`);
    const body = JSON.parse(r.text) as { next: string; results: { url: string }[] };
    expect([r.status, r.headers['x-contract-violations'], r.headers['content-length']]).toEqual([
      200,
      '0',
      String(Buffer.byteLength(r.text)),
    ]);
    expect(body.next).toBe(`${p.url}${DESKS}?format=api&page=2`);
    expect(body.results.map((d) => d.url)).toEqual([`${p.url}${DESKS}/1?format=api`, `${p.url}${DESKS}/2?format=api`]);
    expect(upstreamSeen[0]?.headers.host).toBe(new URL(upstreamBase).host);
    expect([p.session.requests, p.session.validated, p.session.violations]).toEqual([1, 1, 0]);
  });

  it('a broken answer: forwarded with its violations counted and logged, credentials redacted', async () => {
    upstreamRoute = breakPage((b) => ({ ...b, previous: 'https://evil.test/?t=abc-s3cret' }));
    const p = await proxy();
    const r = await ask(p, `${DESKS}?format=api`, { headers: { authorization: 'Token abc-s3cret' } });
    expect([r.status, r.headers['x-contract-violations']]).toEqual([200, '2']);
    expect(upstreamSeen[0]?.headers.authorization).toBe('Token abc-s3cret');
    expect(
      logged.some((l) =>
        l.startsWith(
          'violation envelope.first-previous GET /api/v1/desk?format=api /previous: expected null; found "https://evil.test/?t=[redacted]"',
        ),
      ),
    ).toBe(true);
    expect(logged.join('\n')).not.toContain('abc-s3cret');
    const session = await p.stop();
    expect(session.endpoints[0]?.violations.map((v) => v.rule)).toEqual(['envelope.first-previous', 'urls.base']);
  });

  it('with errors: a broken answer becomes a 502 problem listing its violations', async () => {
    upstreamRoute = breakPage((b) => ({ ...b, count: 'x' }));
    const r = await ask(await proxy({ errors: true }), DESKS);
    const problem = JSON.parse(r.text) as {
      title: string;
      upstream: { status: number };
      violations: { rule: string; pointer: string }[];
    };
    expect([r.status, r.headers['content-type']]).toEqual([502, 'application/problem+json']);
    expect(problem.title).toBe("The upstream's answer breaks the contract");
    expect(problem.upstream).toEqual({ status: 200 });
    expect(problem.violations.map((v) => [v.rule, v.pointer])).toEqual([['schema', '/count']]);
  });

  it.each<[string, string, { method?: string; headers?: Record<string, string>; body?: string }, number, RegExp]>([
    ['a body over --max-body', DESKS, { method: 'POST', body: 'x'.repeat(5000) }, 413, /at most --max-body 4096 bytes/],
    ['a path leaving the base', '/..%2F..%2Fetc', {}, 400, /leaves the upstream's base|not a path/],
    ['a target that is no path', 'http://[', {}, 400, /not a path/],
  ])('refused: %s', async (_name, path, opts, status, detail) => {
    const p = await proxy({ upstream: `${upstreamBase}/prefix` });
    const r = await ask(p, path, opts);
    expect([r.status, r.headers['content-type']]).toEqual([status, 'application/problem+json']);
    expect((JSON.parse(r.text) as { detail: string }).detail).toMatch(detail);
    expect(upstreamSeen).toEqual([]);
  });

  it('an upstream that gives no answer: 502, counted', async () => {
    upstreamRoute = () => () => ({ ok: false, code: 'ECONNRESET', error: 'x', ms: 0 });
    const p = await proxy();
    const r = await ask(p, '/other');
    expect(r.status).toBe(502);
    expect((JSON.parse(r.text) as { title: string }).title).toBe('The upstream gave no usable answer');
    expect(p.session.upstreamFailures).toBe(1);
    expect(logged[0]).toMatch(/^upstream failed: GET \/other: /);
  });

  it('hop-by-hop headers stay; Origin and Referer are rewritten to the upstream; an absolute-form target is its path', async () => {
    const p = await proxy();
    await ask(p, `http://elsewhere${DESKS}?format=api`, {
      headers: {
        connection: 'x-hop',
        'x-hop': '1',
        'keep-alive': 'timeout=5',
        referer: `http://${new URL(p.url).host}/app`,
      },
    });
    const seen = upstreamSeen[0];
    expect(seen?.url).toBe(`${DESKS}?format=api`);
    expect([seen?.headers['x-hop'], seen?.headers['keep-alive'], seen?.headers.referer]).toEqual([
      undefined,
      undefined,
      `${upstreamBase}/app`,
    ]);
  });

  it('HEAD: the headers, no body', async () => {
    const r = await ask(await proxy(), DESKS, { method: 'HEAD' });
    expect([r.status, r.text, r.headers['content-length']]).toEqual([200, '', undefined]);
  });
});

describe("the proxy's CORS", () => {
  it.each<[string, string, string | undefined]>([
    ['a loopback page may read the answers', 'http://localhost:5173', 'http://localhost:5173'],
    ['an origin given with --cors-origin', 'https://dev.example.org', 'https://dev.example.org'],
    ['another origin may not', 'https://evil.example', undefined],
  ])('%s', async (_name, origin, want) => {
    const r = await ask(await proxy({ corsOrigins: ['https://dev.example.org'] }), DESKS, { headers: { origin } });
    expect(r.headers['access-control-allow-origin']).toBe(want);
    if (want)
      expect([r.headers['access-control-expose-headers'], r.headers.vary]).toEqual([
        'x-contract-violations',
        'Accept, Origin',
      ]);
  });

  it('a preflight is answered by the proxy, unless the upstream has a CORS policy of its own, which then stands', async () => {
    const preflight = {
      origin: 'http://localhost:5173',
      'access-control-request-method': 'PUT',
      'access-control-request-headers': 'authorization',
    };
    const own = await ask(await proxy(), DESKS, { method: 'OPTIONS', headers: preflight });
    expect([
      own.status,
      own.headers['access-control-allow-headers'],
      own.headers['access-control-allow-methods'],
    ]).toEqual([204, 'authorization', 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS']);
    upstreamRoute = () => () => answer(200, '', { 'access-control-allow-origin': 'https://app.example' });
    const theirs = await ask(await proxy(), DESKS, { method: 'OPTIONS', headers: preflight });
    expect([theirs.status, theirs.headers['access-control-allow-origin']]).toEqual([200, 'https://app.example']);
  });
});
