import { METHODS } from 'node:http';
import Fastify, { type FastifyInstance } from 'fastify';
import { type CoreOptions, StubCore } from '../core/answer.js';
import type { HandlerProblem } from '../core/request.js';
import { answerChecker, describeHandlerProblem } from './handler-checks.js';
import type { StubState } from '../load/state.js';
import { AnswerCache } from './answer-cache.js';
import { DEFAULTS, type StubConfig } from './config.js';
import { deploymentHandlers } from '../deployment/handlers.js';
import type { Handlers } from '../core/stub/handler-types.js';
import { RequestLog } from './log.js';
import { MAX_BODY_BYTES } from './node-adapter.js';
import { isStubPage, registerPages } from './pages.js';
import { sender } from './send.js';
import { answerConnect, answerRefused } from './refused.js';
import { BODYLESS_METHODS, bodyAsBytes, bodyUnread, serviceHandler } from './service-route.js';
import { queryValidator } from './request-validation.js';

/** Holds the state being served; a reload replaces `current` whole, never mutates it. */
export interface StateHolder {
  current: StubState;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The answers kept for the service's route (for inspection). */
    answerCache: AnswerCache;
    /** The request log (undefined with --quiet). */
    requestLog: RequestLog | undefined;
    /** The core answering for a state (one per state: a reload starts from the snapshot again). */
    coreOf(state: StubState): StubCore;
  }
}

/** The handlers answering: `--handlers`, else the deployment's own with the bundled spec. */
export function handlersOf(config: StubConfig, state: StubState | undefined): Handlers | undefined {
  return state?.handlers ?? (config.specFile === DEFAULTS.specFile ? deploymentHandlers : undefined);
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
    sessions: state?.sessions,
    // The bundled spec comes with what the deployment's viewsets do that it cannot say.
    handlers: handlersOf(config, state),
    strictHandlers: config.strictHandlers,
    checkAnswer: state ? answerChecker(state) : undefined,
    onHandlerProblem,
    now: config.now === undefined ? undefined : () => new Date(config.now as string),
    journal: config.journal,
    maxSessions: config.maxSessions,
  };
}

/**
 * The path Fastify's router sees for every request that is not one of the stub's pages: the
 * service's route. The core routes those from the target as sent (`request.originalUrl`).
 */
const SERVICE_PATH = '/*';

/**
 * Builds the stub's HTTP server, Fastify, the one entrance of every request: the stub's own pages
 * (`/docs`, `/openapi.json`, …) are routes; one route hands every other request, whatever its
 * method and target, to the answer cache and the core; every answer goes out, and is logged, one
 * way (`send.ts`). Never listens: the CLI does, tests use `inject()` or listen themselves.
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
  const state = () => holder.current;
  const current = () => coreOf(holder.current);

  const app = Fastify({
    logger: false,
    // Fastify's request ids are for its logger, which the stub does not use (its request log is
    // its own): an id made for every request (a number in base 36, joined to a prefix) is a cost
    // nothing reads (docs/performance.md).
    genReqId: () => '',
    // Django answers a request without Host too (its SERVER_NAME:SERVER_PORT stands in).
    http: { requireHostHeader: false },
    // Node's own defaults, which the server had before Fastify made it (`Keep-Alive: timeout=5`).
    keepAliveTimeout: 5_000,
    requestTimeout: 300_000,
    return503OnClosing: false,
    // Fastify's router sees a page's target as it came, and the service's path for any other.
    rewriteUrl: (req) => (isStubPage(req.method, req.url) ? (req.url ?? '/') : SERVICE_PATH),
    clientErrorHandler: answerRefused(current),
  });
  app.server.on('connect', answerConnect(current));
  app.decorate('answerCache', cache);
  app.decorate('requestLog', log);
  app.decorate('coreOf', coreOf);

  // Every method Node's parser reads is routed (CONNECT never is: see answerConnect).
  for (const method of METHODS)
    if (method !== 'CONNECT')
      app.addHttpMethod(method, { hasBody: !BODYLESS_METHODS.has(method), overrideExisting: true });
  // A body is the core's to read, as bytes, up to Django's DATA_UPLOAD_MAX_MEMORY_SIZE.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: MAX_BODY_BYTES }, (_req, body, done) =>
    done(null, body),
  );

  const send = sender(log);
  const service = serviceHandler({ state, coreOf, cache, send, log });
  registerPages(app, { state, coreOf, send, service });
  // The service's route, declared for the methods whose body is never read and for the others
  // apart: only these pay for the hook that shows Fastify their body's type.
  app.route({ method: [...BODYLESS_METHODS], url: SERVICE_PATH, handler: service });
  app.route({
    method: app.supportedMethods.filter((m) => !BODYLESS_METHODS.has(m)),
    url: SERVICE_PATH,
    preParsing: bodyAsBytes,
    errorHandler: bodyUnread(send),
    handler: service,
  });
  return app;
}
