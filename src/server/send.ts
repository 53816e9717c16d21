import type { OutgoingHttpHeaders } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { wallTime } from '../core/clock.js';
import type { RequestLog } from './log.js';
import { writeAnswer } from './node-adapter.js';

/** An answer as it goes out: its status, its headers (Content-Length included), its bytes. */
export interface Sent {
  readonly status: number;
  readonly headers: OutgoingHttpHeaders;
  readonly body: Buffer | string;
}

/**
 * Sends `answer` for a request whose route started at `started` (`performance.now()`); answers
 * the clock's reading once it is sent, the one the log line and the journal are told.
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
    const ended = performance.now();
    log?.request({
      method: request.method,
      url: request.originalUrl,
      status: answer.status,
      ms: Math.round((ended - started) * 10) / 10,
      time: wallTime(ended),
    });
    return ended;
  };
}
