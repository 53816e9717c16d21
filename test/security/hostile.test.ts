import { execFileSync } from 'node:child_process';
import { mkdir, readFile, symlink, unlink, writeFile } from 'node:fs/promises';
import { METHODS as NODE_METHODS } from 'node:http';
import { connect, type Socket } from 'node:net';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LoadError } from '../../src/load/errors.js';
import { loadState } from '../../src/load/state.js';
import { LOOPBACK_HOSTS } from '../../src/server/config.js';
import { ROOT } from '../cli-helpers.js';
import { aliasBomb, deepFixture, setDeskRef, type Workspace, workspace } from '../workspace.js';
import { listen, makeApp } from '../helpers.js';

/** The answer to a raw request, read off a socket: nothing on the way normalizes or refuses it. */
interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

function send(port: number, bytes: string | Buffer, timeoutMs = 5000): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error('no answer: the request hung'));
    }, timeoutMs);
    socket.on('data', (d) => chunks.push(d));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      const text = Buffer.concat(chunks).toString('latin1');
      const [head = '', ...rest] = text.split('\r\n\r\n');
      const [statusLine = '', ...headerLines] = head.split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of headerLines) {
        const i = line.indexOf(':');
        if (i > 0) headers[line.slice(0, i).toLowerCase()] = line.slice(i + 1).trim();
      }
      resolve({ status: Number(statusLine.split(' ')[1] ?? 0), headers, body: rest.join('\r\n\r\n') });
    });
    socket.write(bytes);
  });
}

const get = (target: string, headers: Record<string, string> = {}, method = 'GET') =>
  `${method} ${target} HTTP/1.1\r\n${Object.entries({ host: 'stub.test', ...headers, connection: 'close' })
    .map(([k, v]) => `${k}: ${v}`)
    .join('\r\n')}\r\n\r\n`;

const SECRETS = [/"dependencies"/, /root:x:0/, /\[core\]/, /import Fastify/, /"pk": 1,\n/];

/** Django's own pages (DEBUG off) that the service answers before or around DRF. */
const DJANGO_PAGE = /^\n<!doctype html>\n<html lang="en">\n<head>\n {2}<title>(Not Found|Bad Request \(400\))<\/title>/;

/**
 * Every answer: in time, no 5xx, no file leaked, and an error in one of the service's shapes: DRF's
 * JSON `{"detail": ...}`, its field errors `{"number": ["..."]}` (a 400 of a write the serializer
 * refuses), the stub's problem+json, or one of Django's own HTML pages.
 */
function expectSafe(a: RawAnswer, method = 'GET'): void {
  expect(a.status, a.body).toBeGreaterThanOrEqual(200);
  expect(a.status, a.body).toBeLessThan(500);
  for (const secret of SECRETS) expect(a.body).not.toMatch(secret);
  if (a.status >= 400 && method !== 'HEAD') {
    // Django's own pages are text/html (its HttpResponse default adds the charset).
    if (/^text\/html(; charset=utf-8)?$/.test(a.headers['content-type'] ?? '')) {
      expect(a.body).toMatch(a.status === 431 ? /^<h1>Request Header Fields Too Large \(431\)<\/h1>$/ : DJANGO_PAGE);
      return;
    }
    expect(a.headers['content-type']).toMatch(/^application\/(problem\+)?json/);
    const body = JSON.parse(a.body) as Record<string, unknown>;
    if (a.status === 400 && body.detail === undefined && body.title === undefined) {
      // DRF's ValidationError of a serializer: each field with its messages.
      expect(Object.keys(body).length).toBeGreaterThan(0);
      for (const messages of Object.values(body)) {
        expect(Array.isArray(messages)).toBe(true);
        for (const m of messages as unknown[]) expect(typeof m).toBe('string');
      }
      return;
    }
    expect(typeof (body.detail ?? body.title)).toBe('string');
  }
}

const PAGE_VALUES = [
  '0',
  '-1',
  '1.5',
  'abc',
  '9'.repeat(30),
  '%00',
  '',
  '%20',
  '1e3',
  '0x1',
  '1_000',
  '%D9%A1',
  '%FF',
  'last',
  'LAST',
  '+1',
  '-0',
  '2147483648',
  'NaN',
  'Infinity',
  'null',
  '[]',
  '%7B%7D',
  '%27%22',
  '%3Cscript%3E',
  '..%2F',
];
const PK_VALUES = [
  '0',
  '-1',
  '1.5',
  'abc',
  '9'.repeat(30),
  '%00',
  '%2F',
  '%2e%2e',
  '..',
  '.',
  '%201',
  '1%20',
  'null',
  '__proto__',
  'constructor',
  '1;drop',
  '%27',
  '%22',
  'x'.repeat(3000),
  '1%0d%0aSet-Cookie:x',
];
const TRAVERSALS = [
  '/docs/../../package.json',
  '/docs/..%2f..%2fpackage.json',
  '/docs/%2e%2e/%2e%2e/package.json',
  '/docs/%252e%252e%252fpackage.json',
  '/docs/....//....//package.json',
  '/docs/..\\..\\package.json',
  '/openapi.json/../package.json',
  '/api/v1/../../package.json',
  '/api/v1/desk/..%2f..%2f..%2fpackage.json',
  '/docs/%2e%2e%5c%2e%2e%5cpackage.json',
  '//etc/passwd',
  '/docs//etc/passwd',
  '/docs/../../../../etc/passwd',
  '/%2e%2e/%2e%2e/etc/passwd',
  '/docs/swagger-ui.css/..%00/package.json',
  '/docs/%00',
  '/fixtures/desk.json',
  '/openapi/openapi.yaml',
  '/src/app.ts',
  '/package.json',
  '/node_modules/fastify/package.json',
  '/docs/../node_modules/swagger-ui-dist/package.json',
  '/.git/config',
  '/docs/.git/config',
  '/docs/package.json',
  '/docs/index.js',
  '/docs/swagger-initializer.js',
];
const BAD_HOSTS = [
  '<script>',
  'a b',
  'a"b',
  "a'b",
  '.',
  'host:٣',
  'host:abc',
  'host:-1',
  '',
  'a/b',
  'a\\b',
  '[::1',
  '[zz::1]',
  'host:',
  'é.example',
  'a@b',
  'a%20b',
  'a,b',
  'javascript:alert(1)',
];
const PREFERS = [
  'code=',
  'code=abc',
  'code=99999',
  'example=',
  'delay=-1',
  'delay=1e9',
  'dynamic=maybe',
  '=====',
  ',,,,',
  'code=404;example=x',
  'x'.repeat(5000),
  'code=404, code=500',
  'empty=true, dynamic=true',
  'code=200',
  'respond-async',
  'return=minimal',
];
const METHODS = [
  'GET',
  'HEAD',
  'POST',
  'PUT',
  'PATCH',
  'DELETE',
  'OPTIONS',
  'TRACE',
  'PROPFIND',
  'PROPPATCH',
  'MKCOL',
  'COPY',
  'MOVE',
  'LOCK',
  'UNLOCK',
  'SEARCH',
  'PURGE',
  'REPORT',
  'MKCALENDAR',
  'LINK',
  'UNLINK',
  'SOURCE',
  'QUERY',
  'FOO',
  'CONNECT',
];
const METHODS_NODE_KNOWS = new Set(NODE_METHODS);
const GARBAGE: [string, string | Buffer][] = [
  ['NUL bytes', '\u0000\u0001\u0002\r\n\r\n'],
  ['a request line without a target', 'GET\r\n\r\n'],
  ['HTTP/9.9', 'GET / HTTP/9.9\r\nHost: a\r\n\r\n'],
  ['random bytes', Buffer.from(Array.from({ length: 1024 }, (_, i) => (i * 131 + 7) % 256))],
  ['a bad Content-Length', 'GET /api/v1/desk HTTP/1.1\r\nHost: a\r\nContent-Length: abc\r\n\r\n'],
  [
    'Transfer-Encoding with Content-Length',
    'POST /api/v1/desk HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n0\r\n\r\n',
  ],
  ['a header without a colon', 'GET /api/v1/desk HTTP/1.1\r\nHost a\r\n\r\n'],
  ['bare LF lines', 'GET /api/v1/desk HTTP/1.1\nHost: a\n\n'],
  [
    '300 headers',
    `GET /api/v1/desk HTTP/1.1\r\nHost: a\r\n${Array.from({ length: 300 }, (_, i) => `X-H${i}: ${'v'.repeat(60)}`).join('\r\n')}\r\n\r\n`,
  ],
  ['a 20 KiB url', get(`/api/v1/desk?q=${'a'.repeat(20_000)}`)],
  ['a 20 KiB path', get(`/api/v1/${'a'.repeat(20_000)}`)],
  ['a space in the target', 'GET /api/v1/de sk HTTP/1.1\r\nHost: a\r\n\r\n'],
  ['a fragment in the target', get('/api/v1/desk#frag')],
  ['an absolute-form target', get('http://evil.example/api/v1/desk')],
  ['an asterisk target', get('*', {}, 'OPTIONS')],
  ['a body on GET', 'GET /api/v1/desk HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello'],
  [
    'a huge declared body',
    'POST /api/v1/desk HTTP/1.1\r\nHost: a\r\nContent-Length: 99999999999\r\nConnection: close\r\n\r\nabc',
  ],
  ['an invalid chunk size', 'POST /api/v1/desk HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n'],
  ['a duplicate Host', 'GET /api/v1/desk HTTP/1.1\r\nHost: a\r\nHost: b\r\nConnection: close\r\n\r\n'],
  ['an obsolete line folding', 'GET /api/v1/desk HTTP/1.1\r\nHost: a\r\nX-A: b\r\n c\r\n\r\n'],
];

describe('a corpus of bad and hostile requests: a 4xx in the service error shape, never a 5xx, a hang or a leak', () => {
  let app: FastifyInstance;
  let trusting: FastifyInstance;
  let port: number;
  let trustingPort: number;
  beforeAll(async () => {
    app = await makeApp({ pageSize: 10 });
    port = Number(new URL(await listen(app)).port);
    trusting = await makeApp({ trustProxy: true });
    trustingPort = Number(new URL(await listen(trusting)).port);
  });
  afterAll(async () => {
    await app.close();
    await trusting.close();
  });

  const pages = PAGE_VALUES.flatMap((v) =>
    ['/api/v1/desk', '/api/v1/employee'].flatMap((p) => [`${p}?page=${v}`, `${p}?format=api&page=${v}`]),
  );
  it.each(pages)('page value: %s', async (target) => {
    const a = await send(port, get(target));
    expectSafe(a);
    if (a.status === 200) {
      const body = JSON.parse(a.body) as { next: string | null };
      if (body.next) expect(body.next.startsWith('http://stub.test/api/v1/')).toBe(true);
    }
  });

  it.each(PK_VALUES.flatMap((v) => [`/api/v1/desk/${v}`, `/api/v1/desk/${v}?format=api`]))(
    'pk value: %s',
    async (target) => {
      const a = await send(port, get(target));
      expectSafe(a);
      expect(a.headers['set-cookie']).toBeUndefined();
    },
  );

  it.each(TRAVERSALS)('path traversal: %s', async (target) => {
    const a = await send(port, get(target));
    expectSafe(a);
    expect([400, 404]).toContain(a.status);
  });

  it.each([
    ['repeated page, last wins', '/api/v1/desk?page=1&page=2&page=abc', 404],
    ['repeated format, last wins (unknown)', '/api/v1/desk?format=api&format=xml', 404],
    ['repeated format, last wins (known)', '/api/v1/desk?format=xml&format=api', 200],
    ['__proto__ key', '/api/v1/desk?__proto__=1', 200],
    ['__proto__[x] key', '/api/v1/desk?__proto__%5Bx%5D=1', 200],
    ['constructor key', '/api/v1/desk?constructor=1&page=2', 200],
    ['toString key', '/api/v1/desk?toString=1', 200],
    ['hasOwnProperty key', '/api/v1/desk?hasOwnProperty=1', 200],
    ['an 8 KiB query', `/api/v1/desk?q=${'b'.repeat(8000)}`, 200],
    ['1000 parameters', `/api/v1/desk?${Array.from({ length: 1000 }, (_, i) => `k${i}=${i}`).join('&')}`, 200],
    ['bad percent-encoding in the query', '/api/v1/desk?a=%zz&b=%', 200],
    ['bad percent-encoding in the path', '/api/v1/%zz', 404],
  ])('%s', async (_n, target, status) => {
    const a = await send(port, get(target));
    expectSafe(a);
    expect(a.status).toBe(status);
  });

  it.each(BAD_HOSTS)('Host %j → 400, never in a url', async (host) => {
    const a = await send(port, get('/api/v1/desk', { host }));
    expectSafe(a);
    expect(a.status).toBe(400);
  });

  it.each(BAD_HOSTS.filter((h) => h !== ''))('X-Forwarded-Host %j (trusted proxy) → 400', async (host) => {
    const a = await send(trustingPort, get('/api/v1/desk', { 'x-forwarded-host': host }));
    expectSafe(a);
    expect(a.status).toBe(400);
  });

  it.each(['<script>', 'javascript', 'https, http', 'HTTPS', '"https"', 'ftp'])(
    'X-Forwarded-Proto %j gives http or https urls, nothing else',
    async (proto) => {
      const a = await send(trustingPort, get('/api/v1/desk', { 'x-forwarded-proto': proto }));
      expectSafe(a);
      const body = JSON.parse(a.body) as { results: { url: string }[] };
      expect(body.results[0]?.url).toMatch(/^https?:\/\/stub\.test\/api\/v1\/desk\/\d+$/);
    },
  );

  it.each(PREFERS)('Prefer %j', async (prefer) => {
    const a = await send(port, get('/api/v1/desk', { prefer }));
    // The one 5xx a request can ask for: a simulated server failure (of a preference given twice,
    // the first counts: RFC 7240, section 2).
    if (/^code=500\b/.test(prefer)) {
      expect(a.status).toBe(500);
      expect(a.body).toContain('<h1>Server Error (500)</h1>');
    } else expectSafe(a);
  });

  // The deployment's ModelViewSet: the methods each route allows, in its Allow header's order.
  const ALLOW: Record<string, string> = {
    '/api/v1/desk': 'GET, POST, HEAD, OPTIONS',
    '/api/v1/desk/1': 'GET, PUT, PATCH, DELETE, HEAD, OPTIONS',
  };
  // What a write without a body is answered (desk 1 of fixtures/desk.json is active): the
  // serializer's 400 where `number` is required, else the write done.
  const WRITES: Record<string, [number, string]> = {
    'POST /api/v1/desk': [400, '{"number":["This field is required."]}'],
    'PUT /api/v1/desk/1': [400, '{"number":["This field is required."]}'],
    'PATCH /api/v1/desk/1': [200, '"pk":1,'],
    'DELETE /api/v1/desk/1': [204, ''],
  };
  it.each(METHODS.flatMap((m) => ['/api/v1/desk', '/api/v1/desk/1', '/api/v1/nosuch'].map((p) => [m, p] as const)))(
    '%s %s',
    async (method, target) => {
      const a = await send(port, get(target, {}, method));
      expectSafe(a, method);
      // Methods Node's parser does not know (FOO, and QUERY on Node 20) are read from the raw bytes
      // and answered as Django does: every method the viewset does not allow is DRF's 405 on a route.
      void METHODS_NODE_KNOWS;
      const allow = ALLOW[target];
      const write = WRITES[`${method} ${target}`];
      if (allow === undefined) expect(a.status).toBe(404);
      else {
        expect(a.headers.allow).toBe(allow);
        if (write) {
          expect(a.status).toBe(write[0]);
          expect(a.body).toContain(write[1]);
        } else if (!allow.split(', ').includes(method)) {
          expect(a.status).toBe(405);
          expect(JSON.parse(a.body)).toEqual({ detail: `Method "${method}" not allowed.` });
        } else expect(a.status).toBe(200);
      }
      // A write done is undone, so that every request of the corpus meets the bundled desks.
      if (write && a.status < 300) expect((await send(port, get('/__stub/reset', {}, 'POST'))).status).toBe(204);
    },
  );

  it.each(GARBAGE)('garbage: %s', async (_n, bytes) => {
    expectSafe(await send(port, bytes));
  });

  it('still answers afterwards, the bundled desks as they were', async () => {
    const a = await send(port, get('/api/v1/desk'));
    expect(a.status).toBe(200);
    expect((JSON.parse(a.body) as { count: number }).count).toBe(190);
    expect((await send(port, get('/api/v1/desk/1'))).status).toBe(200);
  });
});

/** The same bytes twice in a row, then other bytes twice: what the answer cache must not mix up. */
const NO_HOST = 'GET /api/v1/desk HTTP/1.0\r\n\r\n';
const CACHE_PAIRS: [string, 'plain' | 'trusting', string, number, string, number][] = [
  ['no Host (HTTP/1.0), then an empty Host', 'plain', NO_HOST, 200, get('/api/v1/desk', { host: '' }), 400],
  ['an empty Host, then no Host (HTTP/1.0)', 'plain', get('/api/v1/desk', { host: '' }), 400, NO_HOST, 200],
  ['a Host, then an empty Host', 'plain', get('/api/v1/desk'), 200, get('/api/v1/desk', { host: '' }), 400],
  ['no Accept, then an empty Accept', 'plain', get('/api/v1/desk'), 200, get('/api/v1/desk', { accept: '' }), 406],
  ['an empty Accept, then no Accept', 'plain', get('/api/v1/desk', { accept: '' }), 406, get('/api/v1/desk'), 200],
  [
    'no X-Forwarded-Host, then an empty one (trusted proxy)',
    'trusting',
    get('/api/v1/desk'),
    200,
    get('/api/v1/desk', { 'x-forwarded-host': '' }),
    400,
  ],
  [
    'an empty X-Forwarded-Host, then none (trusted proxy)',
    'trusting',
    get('/api/v1/desk', { 'x-forwarded-host': '' }),
    400,
    get('/api/v1/desk'),
    200,
  ],
  // TokenAuthentication: a Token header without a key is 401; any other scheme is not its keyword (anonymous).
  [
    'no Authorization, then an empty Token one',
    'plain',
    get('/api/v1/desk'),
    200,
    get('/api/v1/desk', { authorization: 'Token' }),
    401,
  ],
  [
    'an empty Token Authorization, then an empty Basic one (ignored)',
    'plain',
    get('/api/v1/desk', { authorization: 'Token' }),
    401,
    get('/api/v1/desk', { authorization: 'Basic' }),
    200,
  ],
  [
    'GET, then HEAD of an empty Host',
    'plain',
    get('/api/v1/desk'),
    200,
    get('/api/v1/desk', { host: '' }, 'HEAD'),
    400,
  ],
];

describe('the answer cache in a hostile corpus: empty and absent headers, each sent twice in both orders', () => {
  let plain: FastifyInstance;
  let trusting: FastifyInstance;
  const ports = { plain: 0, trusting: 0 };
  beforeAll(async () => {
    plain = await makeApp({ pageSize: 10 });
    ports.plain = Number(new URL(await listen(plain)).port);
    trusting = await makeApp({ trustProxy: true });
    ports.trusting = Number(new URL(await listen(trusting)).port);
  });
  afterAll(async () => {
    await plain.close();
    await trusting.close();
  });

  it.each(CACHE_PAIRS)('%s', async (_n, server, first, firstStatus, second, secondStatus) => {
    (server === 'plain' ? plain : trusting).answerCache.clear();
    const port = ports[server];
    const statuses: number[] = [];
    const bodies: string[] = [];
    for (const bytes of [first, first, second, second, first]) {
      const a = await send(port, bytes);
      statuses.push(a.status);
      bodies.push(a.body);
    }
    expect(statuses).toEqual([firstStatus, firstStatus, secondStatus, secondStatus, firstStatus]);
    expect(bodies[1]).toBe(bodies[0]);
    expect(bodies[3]).toBe(bodies[2]);
  });

  it('a loopback Origin is echoed as sent, never the cached answer of no Origin; an empty one never', async () => {
    plain.answerCache.clear();
    const none = await send(ports.plain, get('/api/v1/desk'));
    const local = await send(ports.plain, get('/api/v1/desk', { origin: 'http://localhost:5173' }));
    const empty = await send(ports.plain, get('/api/v1/desk', { origin: '' }));
    expect(none.headers['access-control-allow-origin']).toBeUndefined();
    expect(local.headers['access-control-allow-origin']).toBe('http://localhost:5173');
    expect(empty.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('slow and idle clients do not stop the server answering', () => {
  let app: FastifyInstance;
  let port: number;
  const sockets: Socket[] = [];
  beforeAll(async () => {
    app = await makeApp();
    port = Number(new URL(await listen(app)).port);
  });
  afterAll(async () => {
    for (const s of sockets) s.destroy();
    await app.close();
  });

  it('50 clients sending headers one byte at a time and 50 idle connections: a request is still answered at once', async () => {
    for (let i = 0; i < 50; i++) {
      const slow = connect(port, '127.0.0.1');
      slow.on('error', () => undefined);
      slow.write('GET /api/v1/desk HTTP/1.1\r\nHo');
      const idle = connect(port, '127.0.0.1');
      idle.on('error', () => undefined);
      sockets.push(slow, idle);
    }
    await new Promise((r) => setTimeout(r, 200));
    const t0 = Date.now();
    const a = await send(port, get('/api/v1/desk'));
    expect(a.status).toBe(200);
    expect(Date.now() - t0).toBeLessThan(2000);
  });
});

/** The problems a load stops with, one line each; fails on anything else thrown (a crash). */
async function loadProblems(w: Workspace): Promise<string> {
  try {
    await loadState({ specFile: w.spec, fixturesDir: w.fixtures, seed: 1, defaultGenerateCount: 25 });
  } catch (e) {
    if (e instanceof LoadError) return e.message;
    throw e;
  }
  return '';
}

const PLACE = /^\S+ at (line \d+:\d+|\/\S*): |^\S+: /;
const file = (w: Workspace, ...parts: string[]) => path.join(w.dir, ...parts);
const HOSTILE_FILES: [string, (w: Workspace) => Promise<unknown>, RegExp][] = [
  [
    'spec: a remote $ref with a leading space',
    (w) => setDeskRef(w, ' http://[::1]:4799/evil.yaml'),
    /openapi\.yaml at \/components\/schemas\/Desk\/\$ref: \$ref " http:\/\/\[::1\]:4799\/evil\.yaml" names a remote document/,
  ],
  [
    'spec: a remote $ref to [::ffff:127.0.0.1]',
    (w) => setDeskRef(w, 'http://[::ffff:127.0.0.1]:4799/evil.yaml'),
    /names a remote document/,
  ],
  [
    'spec: /etc/passwd',
    (w) => setDeskRef(w, '/etc/passwd'),
    /\$ref "\/etc\/passwd" resolves to \/etc\/passwd, outside the spec's folder/,
  ],
  [
    'spec: /proc/self/environ',
    (w) => setDeskRef(w, '/proc/self/environ'),
    /resolves to \/proc\/self\/environ, outside the spec's folder/,
  ],
  [
    'spec: file:///etc/passwd',
    (w) => setDeskRef(w, 'file:///etc/passwd'),
    /resolves to \/etc\/passwd, outside the spec's folder/,
  ],
  [
    'spec: ../../outside.yaml',
    (w) => setDeskRef(w, '../../outside.yaml'),
    /resolves to .*outside\.yaml, outside the spec's folder/,
  ],
  [
    'spec: %2e%2e/outside.yaml',
    (w) => setDeskRef(w, '%2e%2e/outside.yaml'),
    /resolves to .*outside\.yaml, outside the spec's folder/,
  ],
  [
    'spec: a symlink out of the folder',
    async (w) => {
      await writeFile(file(w, 'outside.yaml'), 'type: object\n');
      await symlink(file(w, 'outside.yaml'), file(w, 'openapi', 'link.yaml'));
      await setDeskRef(w, './link.yaml');
    },
    /a symlink to .*outside\.yaml, outside the spec's folder/,
  ],
  [
    'spec: a FIFO',
    async (w) => {
      execFileSync('mkfifo', [file(w, 'openapi', 'fifo.yaml')]);
      await setDeskRef(w, './fifo.yaml');
    },
    /fifo\.yaml: cannot read the file: a FIFO/,
  ],
  [
    'spec: a billion laughs',
    async (w) => writeFile(w.spec, `${await readFile(w.spec, 'utf8')}${aliasBomb()}`),
    /openapi\.yaml at line \d+:\d+: alias \*a\d expands past 100 copies/,
  ],
  [
    'spec: an alias inside its own anchor',
    async (w) => writeFile(w.spec, `${await readFile(w.spec, 'utf8')}x-loop: &loop\n  self: *loop\n`),
    /openapi\.yaml at line \d+:9: alias \*loop stands inside the node its anchor names/,
  ],
  [
    'spec: 5,000 nested flow collections',
    (w) =>
      writeFile(
        file(w, 'openapi', 'schemas', 'desk.yaml'),
        `type: object\nx: ${'{a: '.repeat(5000)}1${'}'.repeat(5000)}\n`,
      ),
    /desk\.yaml at line 2:\d+: nested deeper than 256 levels/,
  ],
  [
    'spec: 300 nested block mappings',
    (w) =>
      writeFile(
        file(w, 'openapi', 'schemas', 'desk.yaml'),
        `type: object\n${Array.from({ length: 300 }, (_, i) => `${' '.repeat(i)}a:`).join('\n')} 1\n`,
      ),
    /desk\.yaml at line \d+:\d+: nested deeper than 256 levels/,
  ],
  [
    'spec: a byte order mark',
    async (w) => writeFile(w.spec, `\ufeff${await readFile(w.spec, 'utf8')}`),
    /openapi\.yaml at line 1:1: starts with a byte order mark/,
  ],
  [
    'spec: UTF-16',
    async (w) => writeFile(w.spec, Buffer.from(`\ufeff${await readFile(w.spec, 'utf8')}`, 'utf16le')),
    /openapi\.yaml at line 1:1: is UTF-16 or UTF-32/,
  ],
  [
    'spec: invalid UTF-8',
    async (w) =>
      writeFile(
        w.spec,
        Buffer.concat([Buffer.from(await readFile(w.spec, 'utf8')), Buffer.from([0x23, 0x20, 0xff, 0x0a])]),
      ),
    /openapi\.yaml at line \d+:3: is not valid UTF-8 \(byte FF\)/,
  ],
  [
    'spec: a NUL byte',
    async (w) => writeFile(w.spec, `${await readFile(w.spec, 'utf8')}# \u0000\n`),
    /openapi\.yaml at line \d+:3: contains a NUL byte/,
  ],
  [
    'fixture: a FIFO',
    async (w) => {
      await unlink(file(w, 'fixtures', 'desk.json'));
      execFileSync('mkfifo', [file(w, 'fixtures', 'desk.json')]);
    },
    /desk\.json: cannot read the file: a FIFO/,
  ],
  [
    'fixture: a directory',
    async (w) => {
      await unlink(file(w, 'fixtures', 'desk.json'));
      await mkdir(file(w, 'fixtures', 'desk.json'));
    },
    /desk\.json: cannot read the file \(EISDIR\)/,
  ],
  [
    'fixture: a symlink to a device',
    async (w) => {
      await unlink(file(w, 'fixtures', 'desk.json'));
      await symlink('/dev/zero', file(w, 'fixtures', 'desk.json'));
    },
    /desk\.json: a symlink to \/dev\/zero, outside the fixtures folder/,
  ],
  [
    'fixture: a symlink to /etc/passwd',
    async (w) => {
      await unlink(file(w, 'fixtures', 'desk.json'));
      await symlink('/etc/passwd', file(w, 'fixtures', 'desk.json'));
    },
    /desk\.json: a symlink to \/etc\/passwd, outside the fixtures folder/,
  ],
  [
    'fixture: nested 5,000 deep',
    (w) => writeFile(file(w, 'fixtures', 'desk.json'), deepFixture(5000)),
    /desk\.json at line 3:\d+: nested deeper than 256 levels/,
  ],
  [
    'fixture: nested 200,000 deep',
    (w) => writeFile(file(w, 'fixtures', 'desk.json'), `${'['.repeat(200_000)}${']'.repeat(200_000)}`),
    /desk\.json at line 1:257: nested deeper than 256 levels/,
  ],
  [
    'fixture: a byte order mark',
    (w) => writeFile(file(w, 'fixtures', 'desk.json'), '\ufeff[]'),
    /desk\.json at line 1:1: starts with a byte order mark/,
  ],
  [
    'fixture: UTF-16 without a BOM',
    (w) => writeFile(file(w, 'fixtures', 'desk.json'), Buffer.from('[]', 'utf16le')),
    /desk\.json at line 1:2: contains a NUL byte/,
  ],
  [
    'fixture: invalid UTF-8',
    (w) => writeFile(file(w, 'fixtures', 'desk.json'), Buffer.from([0x5b, 0x22, 0xed, 0xa0, 0x80, 0x22, 0x5d])),
    /desk\.json at line 1:3: is not valid UTF-8 \(byte ED\)/,
  ],
  [
    'fixture: an object, not an array',
    (w) => writeFile(file(w, 'fixtures', 'desk.json'), '{"__proto__": {"polluted": true}}'),
    /desk\.json at line 1:1: a fixture is a JSON array of items/,
  ],
];

describe('a corpus of hostile spec and fixture files: a load error with file, place and reason, never a hang, a crash or a read outside', () => {
  it.each(HOSTILE_FILES)('%s', async (_n, breakIt, message) => {
    const w = await workspace('stub-hostile-');
    await breakIt(w);
    const problems = await loadProblems(w);
    expect(problems).toMatch(message);
    for (const line of problems.split('\n')) expect(line).toMatch(PLACE);
    expect(problems).not.toMatch(/Maximum call stack|root:x:0/);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('a web page cannot reach the stub unless told (safe local defaults)', () => {
  let app: FastifyInstance;
  let designer: FastifyInstance;
  let deployment: FastifyInstance;
  let port: number;
  let designerPort: number;
  let deploymentPort: number;
  beforeAll(async () => {
    // The default configuration: loopback hosts and origins only.
    app = await makeApp({ allowedHosts: LOOPBACK_HOSTS });
    port = Number(new URL(await listen(app)).port);
    designer = await makeApp({
      allowedHosts: LOOPBACK_HOSTS,
      specFile: path.join(ROOT, 'test/fixtures/designer/openapi.yaml'),
      fixturesDir: path.join(ROOT, 'test/fixtures/designer/fixtures'),
    });
    designerPort = Number(new URL(await listen(designer)).port);
    deployment = await makeApp({ cors: { mode: 'deployment', frontendOrigin: 'https://app.team.lcog.org' } });
    deploymentPort = Number(new URL(await listen(deployment)).port);
  });
  afterAll(async () => {
    await app.close();
    await designer.close();
    await deployment.close();
  });
  const at = (host: string, extra: Record<string, string> = {}) =>
    `GET /api/v1/desk HTTP/1.1\r\nhost: ${host}\r\n${Object.entries(extra)
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('')}connection: close\r\n\r\n`;

  it.each(['localhost:4010', 'app.localhost', '127.0.0.1:4010', '[::1]:4010'])(
    'a loopback Host is answered: %s',
    async (host) => {
      expect((await send(port, at(host))).status).toBe(200);
    },
  );

  it.each(['attacker.example:4101', '192.168.1.20:4010', 'localhost.attacker.example'])(
    "another Host (DNS rebinding) is Django's 400 page: %s",
    async (host) => {
      const a = await send(port, at(host));
      expect(a.status).toBe(400);
      expect(a.body).toMatch(DJANGO_PAGE);
    },
  );

  it.each(['null', 'http://attacker.example', 'file://'])('the Origin %s is never echoed', async (origin) => {
    const a = await send(port, at('localhost', { origin }));
    expect(a.status).toBe(200);
    expect(a.headers['access-control-allow-origin']).toBeUndefined();
    const pre = await send(
      port,
      `OPTIONS /api/v1/desk HTTP/1.1\r\nhost: localhost\r\norigin: ${origin}\r\naccess-control-request-method: DELETE\r\nconnection: close\r\n\r\n`,
    );
    expect(pre.headers['access-control-allow-origin']).toBeUndefined();
    expect(pre.headers['access-control-allow-methods']).toBeUndefined();
  });

  it('a cross-site form POST creates nothing; the same POST from the dev server is answered', async () => {
    const post = (origin: string) =>
      `POST /api/v1/signature HTTP/1.1\r\nhost: localhost\r\norigin: ${origin}\r\ncontent-type: application/x-www-form-urlencoded\r\ncontent-length: 29\r\nconnection: close\r\n\r\nwitness=w&name=A&review=1&x=1`;
    const count = async () =>
      (
        JSON.parse((await send(designerPort, at('localhost').replace('/api/v1/desk', '/api/v1/signature'))).body) as {
          count: number;
        }
      ).count;
    const before = await count();
    const refused = await send(designerPort, post('http://attacker.example'));
    expect(refused.status).toBe(403);
    expect(refused.headers['content-type']).toBe('application/problem+json');
    expect(await count()).toBe(before);
    const local = await send(designerPort, post('http://localhost:5173'));
    expect([201, 400]).toContain(local.status);
  });

  it('a text/plain POST /__stub/reset from another origin resets nothing', async () => {
    const reset = (origin: string) =>
      `POST /__stub/reset HTTP/1.1\r\nhost: localhost\r\norigin: ${origin}\r\ncontent-type: text/plain\r\ncontent-length: 0\r\nconnection: close\r\n\r\n`;
    expect((await send(port, reset('http://attacker.example'))).status).toBe(403);
    expect((await send(port, reset('null'))).status).toBe(403);
    expect((await send(port, reset('http://localhost:5173'))).status).toBe(204);
  });

  it("--frontend-origin: exactly the deployment's middleware, inside CommonMiddleware", async () => {
    const a = await send(deploymentPort, at('stub.test', { origin: 'http://localhost:9000' }));
    expect(a.headers['access-control-allow-origin']).toBe('https://app.team.lcog.org');
    expect(a.headers['access-control-allow-headers']).toBe('Content-Type, Authorization');
    expect(a.headers['access-control-allow-methods']).toBe('GET, POST, PATCH, PUT, DELETE, OPTIONS');
    expect(a.headers['access-control-allow-credentials']).toBeUndefined();
    const missing = await send(deploymentPort, at('stub.test').replace('/api/v1/desk', '/api/v1/nosuch'));
    expect(missing.status).toBe(404);
    expect(missing.headers['access-control-allow-origin']).toBe('https://app.team.lcog.org');
    // CommonMiddleware's APPEND_SLASH (/api to the router's root, /api/) answers before the CORS middleware.
    const slash = await send(deploymentPort, at('stub.test').replace('/api/v1/desk', '/api'));
    expect([slash.status, slash.headers.location]).toEqual([301, '/api/']);
    expect(slash.headers['access-control-allow-origin']).toBeUndefined();
    // /api/v1 is no route of the deployment: Django's 404, through the CORS middleware.
    const v1 = await send(deploymentPort, at('stub.test').replace('/api/v1/desk', '/api/v1'));
    expect(v1.status).toBe(404);
    expect(v1.body).toMatch(DJANGO_PAGE);
    expect(v1.headers['access-control-allow-origin']).toBe('https://app.team.lcog.org');
  });
});
