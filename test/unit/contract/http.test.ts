import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { headerText, HttpClient, pool, send, type Fetched } from '../../../src/contract/http.js';
import { BaseScope } from '../../../src/contract/scope.js';

// The one module of the contract that speaks HTTP: tested against a server on loopback.
const seen: IncomingHttpHeaders[] = [];
const BODY = JSON.stringify({ count: 0, results: [] });
const answers: Record<string, (res: ServerResponse) => void> = {
  '/plain': (res) => res.writeHead(200, { 'content-type': 'application/json' }).end(BODY),
  '/gzip': (res) => res.writeHead(200, { 'content-encoding': 'gzip' }).end(zlib.gzipSync(BODY)),
  '/deflate': (res) => res.writeHead(200, { 'content-encoding': 'deflate' }).end(zlib.deflateSync(BODY)),
  '/raw-deflate': (res) => res.writeHead(200, { 'content-encoding': 'deflate' }).end(zlib.deflateRawSync(BODY)),
  '/bad-deflate': (res) => res.writeHead(200, { 'content-encoding': 'deflate' }).end('\x78not deflate'),
  '/br': (res) => res.writeHead(200, { 'content-encoding': 'br' }).end(zlib.brotliCompressSync(BODY)),
  '/stacked': (res) =>
    res.writeHead(200, { 'content-encoding': 'gzip, identity, gzip' }).end(zlib.gzipSync(zlib.gzipSync(BODY))),
  '/four': (res) => res.writeHead(200, { 'content-encoding': 'gzip, gzip, gzip, gzip' }).end('x'),
  '/unknown-encoding': (res) => res.writeHead(200, { 'content-encoding': 'zstd' }).end('x'),
  '/bad-gzip': (res) => res.writeHead(200, { 'content-encoding': 'gzip' }).end('not gzip at all'),
  '/declared-large': (res) => res.writeHead(200, { 'content-length': '5000' }).end('x'.repeat(5000)),
  '/large': (res) => {
    res.writeHead(200);
    res.write('x'.repeat(3000));
    res.end('x'.repeat(3000));
  },
  '/bomb': (res) => res.writeHead(200, { 'content-encoding': 'gzip' }).end(zlib.gzipSync(Buffer.alloc(100_000))),
  '/slow': () => undefined,
  '/cut': (res) => {
    res.writeHead(200, { 'content-length': '100' });
    res.write('partial');
    setTimeout(() => res.socket?.destroy(), 5);
  },
  '/headers': (res) => res.writeHead(204, { 'set-cookie': ['a=1', 'b=2'] }).end(),
};
const server = createServer((req, res) => {
  seen.push(req.headers);
  const path = new URL(req.url ?? '/', 'http://x').pathname.replace(/^\/prefix/, '');
  (answers[path] ?? ((r: ServerResponse) => r.writeHead(404).end()))(res);
});
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
afterAll(
  () =>
    new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    }),
);

const get = (path: string, maxBody = 4096, timeoutMs = 2000): Promise<Fetched> =>
  send(`${origin}${path}`, { timeoutMs, maxBody });

describe('send: one answer, read whole but bounded, never thrown', () => {
  it.each(['/plain', '/gzip', '/deflate', '/raw-deflate', '/br', '/stacked'])('%s: the body decoded', async (path) => {
    const r = await get(path);
    expect(r.ok && [r.status, r.text, r.body.length]).toEqual([200, BODY, BODY.length]);
  });

  it.each<[string, string, RegExp, number?, number?]>([
    ['/four', 'BAD_ENCODING', /^4 content encodings stacked$/],
    ['/unknown-encoding', 'BAD_ENCODING', /^unknown Content-Encoding "zstd"$/],
    ['/bad-gzip', 'BAD_ENCODING', /^the gzip body cannot be decoded: /],
    ['/bad-deflate', 'BAD_ENCODING', /^the deflate body cannot be decoded: /],
    ['/declared-large', 'TOO_LARGE', /^the answer declares 5000 bytes, more than --max-body 4096$/],
    ['/large', 'TOO_LARGE', /^the answer is larger than --max-body 4096 bytes$/],
    ['/bomb', 'TOO_LARGE', /^the answer decompresses to more than --max-body 4096 bytes$/],
    ['/slow', 'TIMEOUT', /^no answer within 100 ms$/, 4096, 100],
    ['/cut', 'ECONNRESET', /closed before the answer ended|aborted|socket hang up/],
  ])('%s: %s', async (path, code, error, maxBody, timeoutMs) => {
    const r = await get(path, maxBody, timeoutMs);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.code).toBe(code);
      expect(r.error).toMatch(error);
    }
  });

  it.each<[string, string, string]>([
    ['not http(s)', 'ftp://127.0.0.1/x', 'ERR_INVALID_URL'],
    ['no URL', 'http://[', 'ERR_INVALID_URL'],
  ])('%s: %s', async (_name, url, code) => {
    const r = await send(url, { timeoutMs: 1000, maxBody: 10 });
    expect(!r.ok && r.code).toBe(code);
  });

  it('nothing listening: ECONNREFUSED, named in the message', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const r = await send(`http://127.0.0.1:${port}/`, { timeoutMs: 1000, maxBody: 10 });
    expect(!r.ok && [r.code, r.error.includes('ECONNREFUSED')]).toEqual(['ECONNREFUSED', true]);
  });

  it('headers as node:http gives them; headerText joins repeated ones', async () => {
    const r = await get('/headers');
    expect(r.ok && [r.status, r.text, headerText(r.headers, 'set-cookie'), headerText(r.headers, 'nope')]).toEqual([
      204,
      '',
      'a=1, b=2',
      '',
    ]);
  });
});

describe('HttpClient: credentials to the base only', () => {
  it('sends the headers to urls on the base, never elsewhere; counts every request', async () => {
    const client = new HttpClient({
      scope: new BaseScope(`${origin}/prefix`),
      headers: { authorization: 'Token t' },
      timeoutMs: 2000,
      maxBody: 4096,
      concurrency: 2,
    });
    try {
      seen.length = 0;
      await client.get(`${origin}/prefix/plain`);
      await client.get(`${origin}/plain`);
      await client.request('HEAD', `${origin}/prefix/plain`, { headers: { 'x-extra': '1' } });
      expect(seen.map((h) => h.authorization)).toEqual(['Token t', undefined, 'Token t']);
      expect(seen[0]).toMatchObject({ accept: 'application/json, */*;q=0.1', 'user-agent': 'workplace-stub-check' });
      expect(seen[2]?.['x-extra']).toBe('1');
      expect(client.requests).toBe(3);
    } finally {
      client.close();
    }
  });
});

describe('pool: at most `limit` at once, results in input order', () => {
  it.each<[number, number, number]>([
    [1, 5, 1],
    [3, 7, 3],
    [10, 2, 2],
    [0, 3, 1],
  ])('limit %d over %d items: %d at most at once', async (limit, n, most) => {
    let running = 0;
    let peak = 0;
    const out = await pool(
      Array.from({ length: n }, (_, i) => i),
      limit,
      async (x, i) => {
        running++;
        peak = Math.max(peak, running);
        await new Promise((r) => setTimeout(r, (n - i) % 3));
        running--;
        return x * 10;
      },
    );
    expect(out).toEqual(Array.from({ length: n }, (_, i) => i * 10));
    expect(peak).toBe(most);
  });

  it('no items: no work', async () => {
    expect(await pool([], 4, () => Promise.reject(new Error('never')))).toEqual([]);
  });
});
