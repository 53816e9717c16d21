import http, { type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { validHostDomain } from '../../core/django/host.js';
import { Findings } from '../findings.js';
import { type Answer, send } from '../http.js';
import type { Contract } from '../load.js';
import { Redactor } from '../redact.js';
import { RULES, type Violation } from '../rules.js';
import { BaseScope } from '../scope.js';
import { CorsPolicy, corsHeaders, hasOwnCors, preflightHeaders } from './cors.js';
import { BaseRewriter, isRewritable } from './rewrite.js';
import { ProxySession } from './session.js';
import { proxyRules, route, validateAnswer } from './validate.js';
import { count } from '../words.js';

export interface ProxyOptions {
  readonly contract: Contract;
  /** The deployment proxied (its root; a path prefix is kept). */
  readonly upstream: string;
  readonly host: string;
  readonly port: number;
  /** Answer 502 application/problem+json listing the violations instead of the broken answer. */
  readonly errors: boolean;
  readonly timeoutMs: number;
  readonly maxBody: number;
  /** One line per violation and per upstream failure. */
  readonly log: (line: string) => void;
  /** Origins besides loopback ones whose pages may read the answers (cors.ts), checked by corsOrigin. */
  readonly corsOrigins?: readonly string[];
}

export interface RunningProxy {
  readonly url: string;
  readonly session: ProxySession;
  /** Stops listening, lets requests in flight end (closing idle connections), answers the session. */
  stop(): Promise<ProxySession>;
}

// RFC 9110 §7.6.1: connection-specific headers are not forwarded.
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);
// Response headers that name the upstream and are rewritten to the proxy.
const LINK_HEADERS = new Set(['location', 'content-location', 'link', 'refresh']);
// Request headers that carry credentials: redacted from whatever that request's report shows.
const CREDENTIAL = /^(?:authorization|cookie|x-api-key|x-auth-token|x-csrftoken)$|token|secret|session|auth/i;

function hopByHop(headers: IncomingHttpHeaders): Set<string> {
  const named = String(headers.connection ?? '')
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  return new Set([...HOP_BY_HOP, ...named]);
}

function problem(
  res: ServerResponse,
  status: number,
  title: string,
  detail: string,
  extra: Record<string, unknown> = {},
  cors: Record<string, string> = {},
): void {
  const body = JSON.stringify({ type: 'about:blank', title, status, detail, ...extra });
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res
    .writeHead(status, {
      ...cors,
      'content-type': 'application/problem+json',
      'content-length': Buffer.byteLength(body),
    })
    .end(body);
}

/** The request body, at most `max` bytes; undefined when larger (the client gets 413). */
function readBody(req: IncomingMessage, max: number): Promise<Buffer | undefined> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > max) {
        resolve(undefined);
        req.removeAllListeners('data');
        req.resume();
      } else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', () => resolve(undefined));
  });
}

const describe = (v: Violation) => ({
  rule: v.rule,
  source: RULES[v.rule].source,
  text: RULES[v.rule].text,
  url: v.url,
  pointer: v.pointer,
  expected: v.expected,
  found: v.found,
});

/**
 * A validating proxy for a frontend pointed at a deployment (staging): every request forwarded
 * (credentials passed through, `Host` the upstream's), every answer to a path of the spec held to
 * the checker's rules, the upstream's base rewritten to the proxy's in bodies and link headers so
 * links keep leading through it, `x-contract-violations: N` added (or, with `errors`, 502
 * application/problem+json listing them). Bodies are bounded both ways; a hostile upstream is a
 * 502, never a crash.
 */
export async function startProxy(opts: ProxyOptions): Promise<RunningProxy> {
  const upstream = new BaseScope(opts.upstream);
  const session = new ProxySession(upstream.href);
  const policy = new CorsPolicy(opts.corsOrigins);
  const agent = upstream.origin.startsWith('https:')
    ? new https.Agent({ keepAlive: true, maxSockets: 32 })
    : new http.Agent({ keepAlive: true, maxSockets: 32 });
  let listening = '';

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    session.requests++;
    const started = performance.now();
    const method = (req.method ?? 'GET').toUpperCase();
    // The page's origin, when it may read the answers: the proxy's own answers carry CORS for it.
    const origin = policy.allowed(req.headers.origin);
    const ownCors = origin === undefined ? {} : corsHeaders(origin);
    const preflight = method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined;
    const body = await readBody(req, opts.maxBody);
    if (body === undefined)
      return problem(
        res,
        413,
        'Request body too large',
        `the proxy forwards at most --max-body ${count(opts.maxBody, 'byte')}`,
        {},
        ownCors,
      );
    const raw = req.url ?? '/';
    let target: URL;
    try {
      const path = raw.startsWith('/')
        ? raw
        : (() => {
            const u = new URL(raw); // absolute-form (a client configured with this as its HTTP proxy)
            return `${u.pathname}${u.search}`;
          })();
      target = new URL(`${upstream.href}${path}`);
    } catch {
      return problem(res, 400, 'Bad request target', 'the request target is not a path', {}, ownCors);
    }
    if (!upstream.contains(target))
      return problem(res, 400, 'Bad request target', "the path leaves the upstream's base", {}, ownCors);

    const host = req.headers.host;
    const proxyBase = host !== undefined && validHostDomain(host) !== undefined ? `http://${host}` : listening;
    const toUpstream = new BaseRewriter(proxyBase, upstream.href);
    const drop = hopByHop(req.headers);
    const headers: Record<string, string | string[]> = {};
    const secrets: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (
        value === undefined ||
        drop.has(name) ||
        name === 'host' ||
        name === 'content-length' ||
        name === 'accept-encoding'
      )
        continue;
      headers[name] = name === 'origin' || name === 'referer' ? toUpstream.rewrite(String(value)) : value;
      if (CREDENTIAL.test(name)) secrets[name] = Array.isArray(value) ? value.join('; ') : value;
    }
    headers.host = target.host;
    if (body.length > 0 || !['GET', 'HEAD', 'OPTIONS', 'DELETE'].includes(method))
      headers['content-length'] = String(body.length);
    const redactor = Redactor.forHeaders(secrets);

    const r = await send(target, {
      method,
      headers,
      body: body.length > 0 ? body : undefined,
      timeoutMs: opts.timeoutMs,
      maxBody: opts.maxBody,
      agent,
    });
    // A preflight is the browser's, not the frontend's: answered by the upstream's own CORS policy
    // when it has one, else by the proxy's; never held to the contract.
    if (preflight && origin !== undefined && !(r.ok && hasOwnCors(r.headers))) {
      res.writeHead(204, preflightHeaders(origin, req.headers)).end();
      return;
    }
    const routed = preflight ? undefined : route(opts.contract, target.pathname.slice(upstream.path.length));
    let violations: Violation[] = [];
    if (routed) {
      const op = routed.isDetail && routed.detail ? routed.detail : routed.list;
      const findings = new Findings(redactor, op);
      validateAnswer(opts.contract, upstream, findings, routed, method, target, r);
      session.validated++;
      session.merge(routed, proxyRules(opts.contract, routed), findings, performance.now() - started);
      violations = findings.violations;
      const shown = `${method} ${redactor.safe(upstream.relative(target), 300)}`;
      for (const v of violations)
        opts.log(`violation ${v.rule} ${shown} ${v.pointer || '/'}: expected ${v.expected}; found ${v.found}`);
    }
    if (!r.ok) {
      session.upstreamFailures++;
      const detail = redactor.safe(r.error, 500);
      if (!routed) opts.log(`upstream failed: ${method} ${redactor.safe(upstream.relative(target), 300)}: ${detail}`);
      return problem(
        res,
        502,
        'The upstream gave no usable answer',
        detail,
        { violations: violations.map(describe) },
        ownCors,
      );
    }
    // The upstream's own CORS policy stands; without one, the proxy's.
    const cors = origin === undefined || hasOwnCors(r.headers) ? undefined : corsHeaders(origin, r.headers.vary);
    if (opts.errors && violations.length > 0) {
      return problem(
        res,
        502,
        "The upstream's answer breaks the contract",
        `${method} ${upstream.relative(target)}: ${count(violations.length, 'violation')}`,
        {
          upstream: { status: r.status },
          violations: violations.map(describe),
        },
        cors,
      );
    }
    forward(res, r, new BaseRewriter(upstream.href, proxyBase), routed ? violations.length : undefined, method, cors);
  };

  const server = http.createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      // A defect of the proxy: said plainly, never a crash of the process.
      opts.log(`proxy error: ${e instanceof Error ? e.message : String(e)}`);
      problem(res, 502, 'Proxy error', 'the proxy failed on this request');
    });
  });
  server.on('clientError', (_e, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
    else socket.destroy();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  listening = `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`;

  return {
    url: listening,
    session,
    stop: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
        setTimeout(() => server.closeAllConnections(), 2_000).unref();
      });
      agent.destroy();
      return session;
    },
  };
}

/** The upstream's answer to the client: decoded, the upstream's base rewritten to the proxy's, the violations counted in a header. */
function forward(
  res: ServerResponse,
  r: Answer,
  toProxy: BaseRewriter,
  violations: number | undefined,
  method: string,
  cors: Record<string, string> = {},
): void {
  const drop = hopByHop(r.headers);
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(r.headers)) {
    if (value === undefined || drop.has(name) || name === 'content-length' || name === 'content-encoding') continue;
    headers[name] = LINK_HEADERS.has(name)
      ? Array.isArray(value)
        ? value.map((v) => toProxy.rewrite(v))
        : toProxy.rewrite(value)
      : value;
  }
  const body = isRewritable(r.contentType) && r.body.length > 0 ? Buffer.from(toProxy.rewrite(r.text), 'utf8') : r.body;
  if (violations !== undefined) headers['x-contract-violations'] = String(violations);
  Object.assign(headers, cors);
  // HEAD: the upstream's Content-Length stands for GET's body, whose rewritten length is unknown;
  // 204 and 304 carry no body (a 304's length would describe the cached one).
  const bodyless = method === 'HEAD' || r.status === 204 || r.status === 304;
  if (!bodyless) headers['content-length'] = String(body.length);
  res.writeHead(r.status, headers);
  res.end(bodyless ? undefined : body);
}
