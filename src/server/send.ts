import type { OutgoingHttpHeaders } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RequestLog } from './log.js';
import { writeAnswer } from './node-adapter.js';

/** An answer as it goes out: its status, its headers (Content-Length included), its bytes. */
export interface Sent {
  readonly status: number;
  readonly headers: OutgoingHttpHeaders;
  readonly body: Buffer | string;
}

/**
 * Sends `answer` for a request whose route started at `started` (`performance.now()`); answers the
 * milliseconds since then, read once for the log line and the journal.
 */
export type Send = (request: FastifyRequest, reply: FastifyReply, answer: Sent, started: number) => number;

/**
 * The one way out of every request Fastify routes: the answer written, then its log line. The
 * stub's answers are final (the core's, the pages'), so they are written as they are; Fastify's
 * reply would add a Content-Type where the core sends none. The line is logged here, not from an
 * `onResponse` hook: the listeners and closures such a hook costs on every response weigh as much
 * as the rest of the route (docs/performance.md).
 */
export function sender(log: RequestLog | undefined): Send {
  return (request, reply, answer, started) => {
    reply.hijack();
    writeAnswer(reply.raw, request.raw.method, answer.status, answer.headers, answer.body);
    const ms = performance.now() - started;
    log?.request({
      method: request.method,
      url: request.originalUrl,
      status: answer.status,
      ms: Math.round(ms * 10) / 10,
    });
    return ms;
  };
}
