// Test deployments for the contract tools: real node:http servers on loopback, some honest (the
// stub), some hostile (written per test). Each records what it was asked, so tests can see what
// the tools sent (and where credentials went).
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { Contract } from '../../src/contract/load.js';
import { type ProxyOptions, type RunningProxy, startProxy } from '../../src/contract/proxy/proxy-server.js';

export interface Seen {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
}

export interface Deployment {
  /** The base URL (root of the deployment, with a prefix when it has one). */
  readonly base: string;
  readonly origin: string;
  readonly server: Server;
  readonly seen: Seen[];
  close(): Promise<void>;
}

export type Handler = (
  req: IncomingMessage,
  res: ServerResponse,
  ctx: { origin: string; seen: Seen[] },
) => void | Promise<void>;

/** A deployment answering with `handler`; `prefix` is the path its base URL carries. */
export async function deployment(handler: Handler, prefix = ''): Promise<Deployment> {
  const seen: Seen[] = [];
  let origin = '';
  const server = createServer((req, res) => {
    seen.push({ method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers });
    Promise.resolve(handler(req, res, { origin, seen })).catch(() => res.destroy());
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base: `${origin}${prefix}`,
    origin,
    server,
    seen,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** The stub's own answer to a request, over inject, with the Host the client sent. */
export async function stubAnswer(
  stub: FastifyInstance,
  req: IncomingMessage,
  path = req.url ?? '/',
): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  const r = await stub.inject({
    method: (req.method ?? 'GET') as 'GET',
    url: path,
    headers: {
      host: req.headers.host ?? 'x',
      ...(req.headers.authorization ? { authorization: req.headers.authorization } : {}),
    },
  });
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(r.headers))
    if (
      v !== undefined &&
      k !== 'content-length' &&
      k !== 'connection' &&
      k !== 'keep-alive' &&
      k !== 'transfer-encoding'
    )
      headers[k] = String(v);
  return { status: r.statusCode, headers, body: r.body };
}

/** A deployment that answers what the stub answers, after `edit` (which may change status, headers or body). */
export function stubbed(
  stub: FastifyInstance,
  edit: (a: { status: number; headers: Record<string, string>; body: string }, req: IncomingMessage) => void = () => {},
): Handler {
  return async (req, res) => {
    const a = await stubAnswer(stub, req);
    edit(a, req);
    res.writeHead(a.status, a.headers).end(req.method === 'HEAD' ? undefined : a.body);
  };
}

export async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as AddressInfo).port;
  await new Promise((r) => s.close(r));
  return port;
}

/** A JSON answer. */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res
    .writeHead(status, {
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(text)),
      ...headers,
    })
    .end(text);
}

/** An empty collection page, as DRF answers it. */
export const EMPTY_PAGE = { count: 0, next: null, previous: null, results: [] };

/**
 * The proxy in front of `upstream` as the tests start it: loopback, a free port, the deployment's
 * own answers forwarded (no planted errors), 3 s to answer, 4 MiB bodies, no log; `more` changes any.
 */
export function testProxy(
  contract: Contract,
  upstream: string,
  more: Partial<ProxyOptions> = {},
): Promise<RunningProxy> {
  return startProxy({
    contract,
    upstream,
    host: '127.0.0.1',
    port: 0,
    errors: false,
    timeoutMs: 3000,
    maxBody: 4 * 1024 * 1024,
    log: () => undefined,
    ...more,
  });
}
