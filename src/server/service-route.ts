import type { FastifyReply, FastifyRequest, preParsingHookHandler } from 'fastify';
import { type CoreAnswer, djangoPage, type StubCore } from '../core/answer.js';
import { DJANGO_ERRORS } from '../core/errors.js';
import { withMembers } from '../core/members.js';
import type { StubState } from '../load/state.js';
import { AnswerCache } from './answer-cache.js';
import type { RequestLog } from './log.js';
import { coreRequest, outgoingHeaders } from './node-adapter.js';
import type { Send } from './send.js';

/**
 * Methods whose body DRF never reads (it parses lazily, and no view of these reads one): Fastify
 * reads a body for every other method Node's parser knows.
 */
export const BODYLESS_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);

export interface ServiceOptions {
  readonly state: () => StubState;
  readonly coreOf: (state: StubState) => StubCore;
  readonly cache: AnswerCache;
  readonly send: Send;
  /** Where a defect of the stub is told (undefined with --quiet). */
  readonly log: RequestLog | undefined;
}

/**
 * The service's route: every request that is not one of the stub's pages, answered from the
 * answer cache, else by the core from the target as sent (`request.originalUrl`) and the body as
 * bytes.
 */
export function serviceHandler(opts: ServiceOptions): (request: FastifyRequest, reply: FastifyReply) => void {
  const { state, coreOf, cache, send, log } = opts;
  return (request, reply) => {
    const started = performance.now();
    const req = request.raw;
    const url = request.originalUrl;
    const core = coreOf(state());
    const hit = cache.get(req.method, url, req.headers, core.generation);
    if (hit !== undefined) {
      const ended = send(request, reply, hit, started);
      // The journal sees an answer from the cache as one from the core.
      core.record(coreRequest(req, url, undefined), hit.answer, started, ended);
      return;
    }
    // The answer goes out later (Prefer: delay): Fastify leaves the response to this route now.
    reply.hijack();
    const defect = (e: unknown): CoreAnswer => {
      log?.message(`error: a defect of the stub answering ${req.method} ${url}: ${(e as Error).stack ?? String(e)}`);
      return djangoPage(DJANGO_ERRORS.SERVER_ERROR);
    };
    const reply_ = (answer: CoreAnswer) => {
      // An answer kept is kept as bytes, for the state and the writes that produced it (the core's
      // generation); any other is written as its text (UTF-8, the same bytes), without a copy.
      const kept = answer.cacheable === true && AnswerCache.keeps(req.method, url, req.headers);
      const body = kept ? Buffer.from(answer.body) : answer.body;
      const sent = { status: answer.status, headers: outgoingHeaders(answer, body), body };
      if (kept)
        cache.set(
          req.method,
          url,
          req.headers,
          withMembers(sent, { state: core.generation, body: body as Buffer, answer }),
        );
      if (answer.delayMs) setTimeout(() => send(request, reply, sent, started), answer.delayMs);
      else send(request, reply, sent, started);
    };
    let answer: CoreAnswer | Promise<CoreAnswer>;
    try {
      answer = core.answer(coreRequest(req, url, request.body as Buffer | undefined));
    } catch (e) {
      answer = defect(e);
    }
    // A handler may answer later: the route waits for it.
    if (answer instanceof Promise) void answer.then(reply_, (e: unknown) => reply_(defect(e)));
    else reply_(answer);
  };
}

/**
 * Fastify refuses, before any content-type parser runs, a body whose Content-Type it cannot parse
 * (415) and a QUERY without one (400). Django reads both, and DRF answers by the type as sent
 * (`Unsupported media type "text" in request.`). So Fastify's parsing is shown one type for every
 * body (`request.headers` adds to the request's headers; the core reads `request.raw.headers`),
 * and its one parser hands the bytes over.
 */
export const bodyAsBytes: preParsingHookHandler = (request, _reply, payload, done) => {
  request.headers = { 'content-type': 'application/octet-stream' };
  done(null, payload);
};

/**
 * Fastify could not read the body: larger than Django's DATA_UPLOAD_MAX_MEMORY_SIZE (the parser's
 * bodyLimit), or cut short. Django's RequestDataTooBig: its 400 page, and the connection closed
 * (the rest of the body is never read).
 */
export function bodyUnread(send: Send): (error: Error, request: FastifyRequest, reply: FastifyReply) => void {
  return (_error, request, reply) => {
    const started = performance.now();
    const page = djangoPage(DJANGO_ERRORS.BAD_REQUEST);
    send(
      request,
      reply,
      { status: page.status, headers: { connection: 'close', ...outgoingHeaders(page, page.body) }, body: page.body },
      started,
    );
  };
}
