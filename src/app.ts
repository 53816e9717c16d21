import fastifyCors from '@fastify/cors';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest, LogController } from 'fastify';
import { createServer, type OutgoingHttpHeaders } from 'node:http';
import type { StubConfig } from './config.js';
import { AnswerCache } from './responses/answer-cache.js';
import { detailBody, methodNotAllowedDetail, SERVICE_ERRORS } from './errors.js';
import { loggerOptions } from './log.js';
import { resolveBaseUrl } from './responses/base-url.js';
import { answerService, toRouterPath, VIEW_HEADERS } from './responses/dispatch.js';
import { registerMetaRoutes } from './routes/meta.js';
import type { StubState } from './state.js';

/** Holds the state being served; a reload replaces `current` whole, never mutates it. */
export interface StateHolder {
  current: StubState;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The answers kept for the fast path (for inspection). */
    answerCache: AnswerCache;
  }
  interface FastifyRequest {
    /** The deployment's base URL for this request (§9.2), set by the host check. */
    baseUrl: string;
    /** Set when this request's answer may be kept by the answer cache, with the state it came from. */
    cacheKey: string | undefined;
    cacheState: StubState | undefined;
  }
}

/** Headers Django's SecurityMiddleware and XFrameOptionsMiddleware add to every answer. */
const DJANGO_HEADERS = Object.freeze({
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
  'cross-origin-opener-policy': 'same-origin',
  'x-frame-options': 'DENY',
});

// DRF's JSONRenderer: `application/json`, no charset parameter. Bodies go to Fastify as Buffers,
// since it appends `; charset=utf-8` to JSON sent as a string.
const JSON_TYPE = 'application/json';

/** A whole answer written on a socket the HTTP parser gave up on (or a CONNECT), then closed. */
function rawAnswer(status: number, reason: string, detail: string): string {
  const body = detailBody(detail);
  return `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
}
const BAD_REQUEST_RESPONSE = rawAnswer(400, 'Bad Request', SERVICE_ERRORS.BAD_REQUEST.detail);
const HEADERS_TOO_LARGE_RESPONSE = rawAnswer(431, 'Request Header Fields Too Large', SERVICE_ERRORS.HEADERS_TOO_LARGE.detail);
const CONNECT_RESPONSE = rawAnswer(405, 'Method Not Allowed', methodNotAllowedDetail('CONNECT'));

function sendDetail(reply: FastifyReply, status: number, detail: string): FastifyReply {
  return reply
    .code(status)
    .headers(DJANGO_HEADERS)
    .header('content-type', JSON_TYPE)
    .send(Buffer.from(detailBody(detail)));
}

/**
 * Builds the stub's Fastify instance from a configuration and the state to serve. Never listens:
 * the CLI does, tests use `inject()` or listen themselves.
 */
export async function buildApp(config: StubConfig, holder: StateHolder): Promise<FastifyInstance> {
  const cache = new AnswerCache();
  let log: FastifyInstance['log'] | undefined;
  const app = Fastify({
    // The answer cache's fast path sits in front of Fastify's handler on the same server.
    serverFactory: (handler) => {
      const server = createServer((req, res) => {
        const key = AnswerCache.keyOf(req);
        const hit = key === undefined ? undefined : cache.get(key, holder.current);
        if (hit === undefined) return handler(req, res);
        const started = performance.now();
        res.writeHead(hit.status, hit.headers);
        res.end(req.method === 'HEAD' ? undefined : hit.body);
        log?.info({ method: req.method, url: req.url, status: hit.status, ms: Math.round((performance.now() - started) * 10) / 10 }, 'request');
      });
      // Node hands CONNECT to this event, not to the handler; without it the socket just closes.
      server.on('connect', (_req, socket) => socket.end(CONNECT_RESPONSE));
      return server;
    },
    logger: loggerOptions(config),
    // One line per request, written by the onResponse hook below.
    logController: new LogController({ disableRequestLogging: true }),
    exposeHeadRoutes: true,
    return503OnClosing: false,
    // Garbage on the socket gets the service's error shape, then the connection closes.
    clientErrorHandler: (err: Error & { code?: string }, socket) => {
      if (socket.writable) socket.end(err.code === 'HPE_HEADER_OVERFLOW' ? HEADERS_TOO_LARGE_RESPONSE : BAD_REQUEST_RESPONSE);
      else socket.destroy();
    },
    // A url the router cannot decode is a url Django would not resolve.
    frameworkErrors: (_err, _req, reply) => sendDetail(reply, 404, SERVICE_ERRORS.NOT_FOUND.detail),
  });
  app.decorate('answerCache', cache);
  app.decorateRequest('baseUrl', '');
  app.decorateRequest('cacheKey', undefined);
  app.decorateRequest('cacheState', undefined);
  if (config.logLevel !== 'silent') log = app.log;

  // Bodies are never read: no route here takes one, and DRF parses lazily, so a POST with any body
  // still meets 405 rather than a parse error.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_req, _payload, done) => done(null, undefined));

  // Django's CommonMiddleware calls get_host() before any view: a bad Host is 400 everywhere.
  app.addHook('onRequest', async (req, reply) => {
    const result = resolveBaseUrl(req.headers, {
      baseUrl: config.baseUrl,
      trustProxy: config.trustProxy,
      allowedHosts: config.allowedHosts,
      fallbackHost: `${config.host.includes(':') ? `[${config.host}]` : config.host}:${config.port}`,
    });
    if (!result.ok) {
      const e = result.reason === 'invalid-host' ? SERVICE_ERRORS.INVALID_HOST : SERVICE_ERRORS.DISALLOWED_HOST;
      return sendDetail(reply, e.status, e.detail);
    }
    req.baseUrl = result.baseUrl;
  });

  if (config.logLevel !== 'silent') {
    app.addHook('onResponse', async (req, reply) => {
      req.log.info({ method: req.method, url: req.url, status: reply.statusCode, ms: Math.round(reply.elapsedTime * 10) / 10 }, 'request');
    });
  }

  const serve = async (req: FastifyRequest, reply: FastifyReply) => {
    const state = holder.current;
    const answer = answerService(state, config, { method: req.method, url: req.raw.url ?? '/', baseUrl: req.baseUrl, prefer: req.headers.prefer });
    if (answer.delayMs) await new Promise((r) => setTimeout(r, answer.delayMs));
    reply.code(answer.status).headers(DJANGO_HEADERS);
    if (answer.view) {
      // Vary is a list: keep what CORS put there (Origin) and add DRF's Accept.
      const vary = reply.getHeader('vary');
      reply.headers({ ...VIEW_HEADERS, vary: vary ? `${String(vary)}, ${VIEW_HEADERS.vary}` : VIEW_HEADERS.vary });
    }
    if (req.method === 'GET' && answer.cacheable === true) {
      req.cacheKey = AnswerCache.keyOf(req.raw);
      req.cacheState = state;
    }
    return reply.header('content-type', answer.contentType ?? JSON_TYPE).send(Buffer.from(answer.body));
  };

  // One route per operation of the spec at start-up. Requests to other paths or methods (and paths
  // a reload adds) reach the same dispatcher through the not-found handler, which answers as DRF.
  const routed = new Set<string>();
  for (const op of holder.current.operations.all) {
    const url = toRouterPath(op.path);
    if (routed.has(url)) continue;
    routed.add(url);
    app.get(url, serve);
  }
  app.setNotFoundHandler(serve);
  // Keep what was sent, headers included (CORS and all), for the fast path above.
  app.addHook('onSend', async (req, reply, payload) => {
    const { cacheKey, cacheState } = req;
    if (cacheKey === undefined || cacheState === undefined || !Buffer.isBuffer(payload)) return payload;
    const headers = { ...reply.getHeaders(), 'content-length': String(payload.length) } as OutgoingHttpHeaders;
    cache.set(cacheKey, { state: cacheState, status: reply.statusCode, headers, body: payload });
    return payload;
  });
  await registerMetaRoutes(app, holder);
  if (config.cors) await registerCors(app);

  app.setErrorHandler((err: { statusCode?: number; message?: string }, req, reply) => {
    const status = err.statusCode ?? 500;
    const code = (err as { code?: string }).code ?? '';
    // No route reads a body, so Fastify's complaints about one (a QUERY without Content-Type, a
    // content type parser error) are not the service's: it answers as it would without them.
    if (code === 'FST_ERR_ROUTE_MISSING_CONTENT_TYPE' || code.startsWith('FST_ERR_CTP_')) return serve(req, reply);
    if (status >= 400 && status < 500) return sendDetail(reply, status, SERVICE_ERRORS.BAD_REQUEST.detail);
    req.log.error({ err }, 'unexpected error');
    return sendDetail(reply, 500, SERVICE_ERRORS.SERVER_ERROR.detail);
  });
  return app;
}

/**
 * CORS for a browser app on another origin (@fastify/cors): the Origin echoed, credentials allowed,
 * every preflight answered 204 whatever the path. An OPTIONS that is not a preflight (no
 * Access-Control-Request-Method) still reaches the service, which answers DRF's metadata.
 */
async function registerCors(app: FastifyInstance): Promise<void> {
  await app.register(fastifyCors, {
    delegator: (req, cb) => {
      const preflight = req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined;
      cb(null, {
        origin: true,
        credentials: true,
        preflight,
        methods: ['GET', 'HEAD', 'OPTIONS'],
        exposedHeaders: ['Allow', 'Content-Length', 'Vary'],
        maxAge: 600,
      });
    },
  });
}
