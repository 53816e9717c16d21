import { connect } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StubState } from '../../src/load/state.js';
import { buildApp } from '../../src/server/app.js';
import { listen, stateFor, testConfig, settled } from '../helpers.js';

/*
 * Fastify is the one entrance: every request Node reads goes through it, and every one that is
 * not a page of the stub's own reaches the core exactly as sent (method, target, headers, body):
 * what goes out on the socket is the core's answer, byte for byte. Requests Fastify's router or
 * parser would refuse or rewrite (methods it does not know, targets it decodes, a Content-Type it
 * cannot parse) are the ones that matter here. A designer's spec, so that bodies are read.
 */

const DESIGNER = fileURLToPath(new URL('../fixtures/designer/', import.meta.url));

interface Ask {
  readonly method: string;
  readonly target: string;
  /** Headers as sent, lower-case (Host is added unless given; `undefined` leaves it out). */
  readonly headers?: Readonly<Record<string, string | undefined>>;
  readonly body?: string;
}

/** The bytes of a request; `connection: close` so that the socket's end ends the answer. */
function bytesOf(ask: Ask): Buffer {
  const headers: Record<string, string | undefined> = { host: 'stub.test', ...ask.headers, connection: 'close' };
  if (ask.body !== undefined) headers['content-length'] ??= String(Buffer.byteLength(ask.body, 'latin1'));
  const lines = Object.entries(headers)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}: ${v}`);
  return Buffer.from(
    `${ask.method} ${ask.target} HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n${ask.body ?? ''}`,
    'latin1',
  );
}

/** The answer on the socket: the status line and headers as sent, then the body. */
function send(port: number, bytes: Buffer): Promise<{ head: string; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => socket.destroy(new Error('no answer')), 5000);
    socket.on('data', (d) => chunks.push(d));
    socket.on('error', reject);
    socket.on('close', () => {
      clearTimeout(timer);
      const text = Buffer.concat(chunks).toString('latin1');
      const end = text.indexOf('\r\n\r\n');
      resolve({ head: text.slice(0, end), body: text.slice(end + 4) });
    });
    socket.write(bytes);
  });
}

/**
 * The core's answer to `ask`, as the wire carries it: the status line, the core's headers in its
 * order and Content-Length, then what Node adds (Date, the connection's); no body for HEAD.
 */
function coreWire(app: FastifyInstance, state: StubState, ask: Ask): { head: string; body: string } {
  const headers: Record<string, string | undefined> = { host: 'stub.test', ...ask.headers };
  const answer = settled(
    app.coreOf(state).answer({
      method: ask.method,
      url: ask.target,
      header: (n) => headers[n],
      body: ask.body === undefined ? undefined : Buffer.from(ask.body, 'latin1'),
    }),
  );
  const body = Buffer.from(answer.body);
  const lines = [
    `HTTP/1.1 ${answer.status} ${STATUS_TEXT[answer.status] ?? '?'}`,
    ...Object.entries({ ...answer.headers, 'content-length': String(body.length) }).map(([k, v]) => `${k}: ${v}`),
  ];
  return { head: lines.join('\r\n'), body: ask.method === 'HEAD' ? '' : body.toString('latin1') };
}

const STATUS_TEXT: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  301: 'Moved Permanently',
  400: 'Bad Request',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  415: 'Unsupported Media Type',
};

/** What Node adds to every answer it frames: compared apart. */
const framing = (head: string) => head.split('\r\n').filter((l) => !/^(date|connection|keep-alive): /i.test(l));

const JSON_DESK =
  '{"building":"B","floor":2,"number":"201","active":true,"lead":false,"ergonomic":false,"held_today":false}';

/** [name, request]: every one answered by the core as sent. */
const TO_THE_CORE: [string, Ask][] = [
  ['GET, the cache cold', { method: 'GET', target: '/api/v1/desk?page=2' }],
  ['HEAD: GET’s headers, no body', { method: 'HEAD', target: '/api/v1/desk' }],
  ['PROPFIND, a method Fastify does not know', { method: 'PROPFIND', target: '/api/v1/desk' }],
  ['M-SEARCH', { method: 'M-SEARCH', target: '/api/v1/desk/1' }],
  ['QUERY without a Content-Type (Fastify refuses it, 400)', { method: 'QUERY', target: '/api/v1/desk', body: 'q' }],
  ['TRACE with a body', { method: 'TRACE', target: '/api/v1/desk', body: 'x' }],
  ['OPTIONS of a page path', { method: 'OPTIONS', target: '/docs' }],
  ['POST of a page path', { method: 'POST', target: '/openapi.json', body: '{}' }],
  ['QUERY of a page path, without a Content-Type', { method: 'QUERY', target: '/docs', body: 'q' }],
  [
    'a Content-Type Fastify cannot parse, to a page path',
    { method: 'PUT', target: '/', headers: { 'content-type': 'text' }, body: 'x' },
  ],
  ['a page path percent-encoded', { method: 'GET', target: '/%64ocs' }],
  ['a page path with a fragment', { method: 'GET', target: '/docs#x' }],
  ['a page path in absolute form', { method: 'GET', target: 'http://stub.test/docs' }],
  ['a page path doubled', { method: 'GET', target: '//docs' }],
  ['/ in asterisk form', { method: 'GET', target: '*' }],
  ['/ with a fragment', { method: 'GET', target: '/#x' }],
  ['/ to a client that is not a browser', { method: 'GET', target: '/' }],
  ['a file Swagger UI has not', { method: 'GET', target: '/docs/package.json' }],
  ['a file under /docs/ the router cannot decode', { method: 'GET', target: '/docs/%zz' }],
  ['a path the router cannot decode', { method: 'GET', target: '/api/v1/%zz' }],
  ['an escape Django decodes', { method: 'GET', target: '/api/v1/%64esk/%31' }],
  ['double slashes', { method: 'GET', target: '/api/v1//desk' }],
  ['a path of 12 KiB (Node reads 16 KiB of head)', { method: 'GET', target: `/api/v1/${'a'.repeat(12_000)}` }],
  ['/__stub/reset, refused to GET', { method: 'GET', target: '/__stub/reset' }],
  [
    'a Content-Type Fastify cannot parse (it refuses it, 415)',
    { method: 'POST', target: '/api/v1/desk', headers: { 'content-type': 'text' }, body: JSON_DESK },
  ],
  [
    'an empty Content-Type',
    { method: 'POST', target: '/api/v1/desk', headers: { 'content-type': '' }, body: JSON_DESK },
  ],
  [
    'an empty body with a type Fastify cannot parse',
    { method: 'POST', target: '/api/v1/desk', headers: { 'content-type': 'application/json garbage' }, body: '' },
  ],
  [
    'JSON that does not parse',
    { method: 'POST', target: '/api/v1/desk', headers: { 'content-type': 'application/json' }, body: '{not json' },
  ],
  [
    'a form with a field left out',
    {
      method: 'POST',
      target: '/api/v1/desk',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'building=B&floor=2',
    },
  ],
];

describe('Fastify is the one entrance: every request reaches the core as sent', () => {
  let app: FastifyInstance;
  let state: StubState;
  let port: number;
  beforeAll(async () => {
    const config = testConfig({ specFile: `${DESIGNER}openapi.yaml`, fixturesDir: `${DESIGNER}fixtures` });
    state = await stateFor(config);
    app = await buildApp(config, { current: state });
    port = Number(new URL(await listen(app)).port);
  });
  afterAll(() => app.close());

  it.each(TO_THE_CORE)('%s', async (_name, ask) => {
    const want = coreWire(app, state, ask);
    const got = await send(port, bytesOf(ask));
    expect(framing(got.head)).toEqual(framing(want.head));
    expect(got.body).toBe(want.body);
    // Nothing of Fastify's own shows (its errors are JSON with a statusCode).
    expect(got.body).not.toMatch(/"statusCode":|FST_ERR/);
  });

  it.each<[string, string, RegExp]>([
    ['/docs', '/docs', /^content-type: text\/html; charset=utf-8$/m],
    ['/docs/ with a query', '/docs?x=1', /^content-type: text\/html; charset=utf-8$/m],
    ['a Swagger UI file', '/docs/swagger-ui.css', /^cache-control: public, max-age=3600$/m],
    [
      'a Swagger UI file percent-encoded, as the router decodes it',
      '/docs/%73wagger-ui.css',
      /^content-type: text\/css/m,
    ],
    ['/openapi.json', '/openapi.json', /^content-type: application\/json; charset=utf-8$/m],
    ['/openapi.yaml', '/openapi.yaml', /^content-type: application\/yaml; charset=utf-8$/m],
  ])('the page %s is the stub’s own', async (_name, target, header) => {
    for (const method of ['GET', 'HEAD']) {
      const got = await send(port, bytesOf({ method, target }));
      expect(got.head).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
      expect(got.head).toMatch(header);
      if (method === 'HEAD') expect(got.body).toBe('');
      else expect(Buffer.byteLength(got.body, 'latin1')).toBe(Number(/^content-length: (\d+)$/m.exec(got.head)?.[1]));
    }
  });

  it('/ is an index to a browser', async () => {
    const got = await send(port, bytesOf({ method: 'GET', target: '/', headers: { accept: 'text/html' } }));
    expect(got.head).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(got.body).toMatch(/^<!doctype html>.*Workplace Administration Service stub/);
  });

  it('a body past Django’s DATA_UPLOAD_MAX_MEMORY_SIZE: its 400 page, the connection closed, the rest unread', async () => {
    for (const headers of [
      { 'content-type': 'application/json', 'content-length': '99999999' },
      { 'content-type': 'text', 'content-length': '99999999' },
    ]) {
      const got = await send(port, bytesOf({ method: 'POST', target: '/api/v1/desk', headers, body: 'abc' }));
      expect(got.head).toMatch(/^HTTP\/1\.1 400 Bad Request\r\nconnection: close\r\n/);
      expect(got.body).toContain('<h1>Bad Request (400)</h1>');
    }
  });

  it.each<[string, Ask]>([
    ['a method Node’s parser does not know', { method: 'FOO', target: '/api/v1/desk' }],
    ['raw 8-bit bytes in the target', { method: 'GET', target: '/api/v1/d\u00e9sk' }],
    ['CONNECT', { method: 'CONNECT', target: '/api/v1/desk' }],
  ])('what Node reads no request of, %s: the core’s answer from its bytes, then closed', async (_name, ask) => {
    const want = coreWire(app, state, ask);
    const got = await send(port, bytesOf(ask));
    expect(framing(got.head)).toEqual(framing(want.head));
    expect(got.head).toMatch(/\r\nconnection: close$/);
    expect(got.body).toBe(want.body);
  });
});
