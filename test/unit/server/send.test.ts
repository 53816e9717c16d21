import type { FastifyReply, FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import type { RequestLine, RequestLog } from '../../../src/server/log.js';
import { sender } from '../../../src/server/send.js';
import { wallTime } from '../../../src/core/clock.js';

function exchange(method: string) {
  const calls: unknown[][] = [];
  const request = { method, originalUrl: '/api/v1/d%65sk?x', raw: { method } } as unknown as FastifyRequest;
  const reply = {
    hijack: () => calls.push(['hijack']),
    raw: { writeHead: (...a: unknown[]) => calls.push(['head', ...a]), end: (b: unknown) => calls.push(['end', b]) },
  } as unknown as FastifyReply;
  return { calls, request, reply };
}

describe('sender: the one way out of every routed request', () => {
  it('takes the reply from Fastify, writes the answer as it is, then logs its line', () => {
    const lines: RequestLine[] = [];
    const send = sender({ request: (l: RequestLine) => lines.push(l) } as unknown as RequestLog);
    const { calls, request, reply } = exchange('GET');
    const started = performance.now() - 12.345;
    const before = Date.now();
    const ended = send(request, reply, { status: 404, headers: { 'content-length': '2' }, body: 'no' }, started);
    expect(calls).toEqual([['hijack'], ['head', 404, { 'content-length': '2' }], ['end', 'no']]);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ method: 'GET', url: '/api/v1/d%65sk?x', status: 404 });
    // Milliseconds to one decimal.
    expect(lines[0]?.ms).toBeGreaterThanOrEqual(12.3);
    expect(Math.round((lines[0]?.ms ?? 0) * 10)).toBe((lines[0]?.ms ?? 0) * 10);
    // The same reading of the clock, unrounded, for the journal; the line's time is the wall clock's then.
    expect(Math.round((ended - started) * 10) / 10).toBe(lines[0]?.ms);
    expect(lines[0]?.time).toBe(wallTime(ended));
    expect(Math.abs((lines[0]?.time ?? 0) - before)).toBeLessThan(1000);
  });

  it('HEAD goes out without its body; without a log nothing is logged', () => {
    const { calls, request, reply } = exchange('HEAD');
    sender(undefined)(request, reply, { status: 200, headers: {}, body: 'body' }, performance.now());
    expect(calls).toEqual([['hijack'], ['head', 200, {}], ['end', undefined]]);
  });
});
