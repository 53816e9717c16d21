import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { type CoreAnswer, type CoreOptions, djangoPage, StubCore } from '../core/answer.js';
import type { HandlerProblem } from '../core/request.js';
import { answerChecker, describeHandlerProblem } from './handler-checks.js';
import { DJANGO_ERRORS } from '../core/errors.js';
import type { StubState } from '../load/state.js';
import { AnswerCache } from './answer-cache.js';
import type { StubConfig } from './config.js';
import { RequestLog } from './log.js';
import { isMetaPath, registerMetaRoutes } from './meta-routes.js';
import {
  coreRequest,
  mayHaveBody,
  outgoingHeaders,
  parseRawRequest,
  rawAnswer,
  readBody,
  writeAnswer,
} from './node-adapter.js';
import { queryValidator } from './request-validation.js';

/** Holds the state being served; a reload replaces `current` whole, never mutates it. */
export interface StateHolder {
  current: StubState;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The answers kept for the fast path (for inspection). */
    answerCache: AnswerCache;
    /** The request log (undefined with --quiet). */
    requestLog: RequestLog | undefined;
    /** The core answering for a state (one per state: a reload starts from the snapshot again). */
    coreOf(state: StubState): StubCore;
  }
}

/** The core's options from the server's configuration. */
export function coreOptions(
  config: StubConfig,
  state?: StubState,
  onHandlerProblem?: (problem: HandlerProblem) => void,
): CoreOptions {
  return {
    pageSize: config.pageSize,
    baseUrl: config.baseUrl,
    trustProxy: config.trustProxy,
    allowedHosts: config.allowedHosts,
    // Django's SERVER_NAME:SERVER_PORT, the port left out when it is 80 (PEP 333).
    fallbackHost: `${config.host.includes(':') ? `[${config.host}]` : config.host}${config.port === 80 ? '' : `:${config.port}`}`,
    maxDelayMs: config.maxDelayMs,
    cors: config.cors,
    validateQuery: config.validateRequests && state ? queryValidator(state) : undefined,
    tokens: state?.tokens,
    handlers: state?.handlers,
    strictHandlers: config.strictHandlers,
    checkAnswer: state ? answerChecker(state) : undefined,
    onHandlerProblem,
    now: config.now === undefined ? undefined : () => new Date(config.now as string),
  };
}

/**
 * Builds the stub's HTTP server: every request to the service's paths goes straight from Node's
 * HTTP server to the core (and the answer cache); Fastify serves the stub's own pages (`/docs`,
 * `/openapi.json`, …) and, for `inject()` in tests, passes everything else to the same handler.
 * Never listens: the CLI does, tests use `inject()` or listen themselves.
 */
export async function buildApp(config: StubConfig, holder: StateHolder): Promise<FastifyInstance> {
  const cache = new AnswerCache();
  const log = config.logLevel === 'silent' ? undefined : new RequestLog({ format: config.logFormat });
  const cores = new WeakMap<StubState, StubCore>();
  // The state of the last request, and its core: every request asks, and it changes on a reload only.
  let lastState: StubState | undefined;
  let lastCore: StubCore | undefined;
  const coreOf = (state: StubState): StubCore => {
    if (state === lastState && lastCore !== undefined) return lastCore;
    let core = cores.get(state);
    if (!core) {
      // Without a Host, Django builds urls from SERVER_NAME:SERVER_PORT: the address listened on.
      const address = app.server.address();
      const port = typeof address === 'object' && address !== null ? address.port : config.port;
      core = new StubCore(
        state.model,
        coreOptions({ ...config, port }, state, (p) => {
          const line = describeHandlerProblem(p, config.handlersFile);
          if (log) log.message(line);
          else process.stderr.write(`${line}\n`);
        }),
      );
      cores.set(state, core);
    }
    lastState = state;
    lastCore = core;
    return core;
  };

  // A cached answer counts for the state and the writes that produced it: the core's generation.
  const finish = (
    req: IncomingMessage,
    res: ServerResponse,
    state: StubState,
    cacheable: boolean,
    answer: CoreAnswer,
    started: number,
  ) => {
    const kept = cacheable && answer.cacheable === true && AnswerCache.keeps(req.method, req.url, req.headers);
    // An answer kept is kept as bytes; any other is written as its text (UTF-8, the same bytes),
    // without a copy of its bytes made for it alone.
    const body = kept ? Buffer.from(answer.body) : answer.body;
    const headers = outgoingHeaders(answer, body);
    const send = () => {
      writeAnswer(res, req.method, answer.status, headers, body);
      if (log)
        log.request({
          method: req.method ?? '',
          url: req.url ?? '',
          status: answer.status,
          ms: Math.round((performance.now() - started) * 10) / 10,
        });
    };
    if (kept)
      cache.set(req.method, req.url, req.headers, {
        state: coreOf(state).generation,
        status: answer.status,
        headers,
        body: body as Buffer,
      });
    if (answer.delayMs) setTimeout(send, answer.delayMs);
    else send();
  };

  /** Answers one request to the service's paths: from the cache, or from the core. */
  const serveService = (req: IncomingMessage, res: ServerResponse): void => {
    // The clock is read for the log's sake only.
    const started = log === undefined ? 0 : performance.now();
    const state = holder.current;
    const hit = cache.get(req.method, req.url, req.headers, coreOf(state).generation);
    if (hit !== undefined) {
      writeAnswer(res, req.method, hit.status, hit.headers, hit.body);
      if (log)
        log.request({
          method: req.method ?? '',
          url: req.url ?? '',
          status: hit.status,
          ms: Math.round((performance.now() - started) * 10) / 10,
        });
      return;
    }
    const defect = (e: unknown): CoreAnswer => {
      log?.message(
        `error: a defect of the stub answering ${req.method} ${req.url}: ${(e as Error).stack ?? String(e)}`,
      );
      return djangoPage(DJANGO_ERRORS.SERVER_ERROR);
    };
    const answerWith = (body?: Uint8Array) => {
      let answer: CoreAnswer | Promise<CoreAnswer>;
      try {
        answer = coreOf(state).answer(coreRequest(req, body));
      } catch (e) {
        answer = defect(e);
      }
      if (answer instanceof Promise)
        void answer.then(
          (a) => finish(req, res, state, true, a, started),
          (e: unknown) => finish(req, res, state, true, defect(e), started),
        );
      else finish(req, res, state, true, answer, started);
    };
    if (!mayHaveBody(req.method)) return answerWith();
    void readBody(req).then((body) => {
      if (body === undefined) {
        // RequestDataTooBig: Django's 400 page; the rest of the body is never read.
        res.setHeader('connection', 'close');
        finish(req, res, state, false, djangoPage(DJANGO_ERRORS.BAD_REQUEST), started);
        return;
      }
      answerWith(body);
    });
  };

  /** A request Node's parser refused: answered as Django would where its bytes allow, then closed. */
  const clientError = (error: Error, socket: Socket): void => {
    const err = error as Error & { code?: string; rawPacket?: unknown };
    if (!socket.writable) {
      socket.destroy();
      return;
    }
    // A method Node does not know, or raw non-ASCII bytes in the target: still requests a WSGI
    // server hands to Django, read from their bytes and answered by the core.
    const raw =
      (err.code === 'HPE_INVALID_METHOD' || err.code === 'HPE_INVALID_URL') && Buffer.isBuffer(err.rawPacket)
        ? parseRawRequest(err.rawPacket)
        : undefined;
    let answer: CoreAnswer | Promise<CoreAnswer>;
    let method = 'GET';
    if (raw) {
      method = raw.method;
      answer = coreOf(holder.current).answer({ method: raw.method, url: raw.url, header: (n) => raw.headers.get(n) });
    } else if (err.code === 'HPE_HEADER_OVERFLOW') {
      answer = {
        status: 431,
        headers: { 'content-type': 'text/html' },
        body: '<h1>Request Header Fields Too Large (431)</h1>',
      };
    } else {
      answer = djangoPage(DJANGO_ERRORS.BAD_REQUEST);
    }
    void Promise.resolve(answer).then((a) => socket.end(rawAnswer(a, method)));
  };

  const app = Fastify({
    serverFactory: (fastifyHandler) => {
      // Django answers a request without Host too (its SERVER_NAME:SERVER_PORT stands in).
      const server = createServer({ requireHostHeader: false }, (req, res) => {
        if (isMetaPath(req.url)) fastifyHandler(req, res);
        else serveService(req, res);
      });
      // Node hands CONNECT to this event, not to the handler: the core answers it (Django would).
      server.on('connect', (req: IncomingMessage, socket: Socket) => {
        void Promise.resolve(coreOf(holder.current).answer(coreRequest(req))).then((a) =>
          socket.end(rawAnswer(a, 'CONNECT')),
        );
      });
      return server;
    },
    logger: false,
    exposeHeadRoutes: true,
    return503OnClosing: false,
    clientErrorHandler: clientError,
    // A url the router cannot decode goes to the service's own handling, as any other.
    frameworkErrors: (_err, req, reply) => {
      reply.hijack();
      serveService(req.raw, reply.raw);
    },
  });
  app.decorate('answerCache', cache);
  app.decorate('requestLog', log);
  app.decorate('coreOf', coreOf);
  // Bodies are the core's to read: no parser consumes them before it.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_req, _payload, done) => done(null, undefined));
  await registerMetaRoutes(app, holder, coreOf, serveService);
  // Whatever reaches Fastify and is not one of its pages (inject() in tests) is the service's.
  app.setNotFoundHandler((request, reply) => {
    reply.hijack();
    serveService(request.raw, reply.raw);
  });
  if (log) {
    app.addHook('onResponse', async (req, reply) => {
      log.request({
        method: req.method,
        url: req.url,
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 10) / 10,
      });
    });
  }
  return app;
}
