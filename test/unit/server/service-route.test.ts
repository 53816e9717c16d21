import type { FastifyReply, FastifyRequest } from 'fastify';
import { describe, expect, it, vi } from 'vitest';
import type { CoreAnswer, CoreRequest, StubCore } from '../../../src/core/answer.js';
import type { StubState } from '../../../src/load/state.js';
import { AnswerCache } from '../../../src/server/answer-cache.js';
import type { RequestLog } from '../../../src/server/log.js';
import type { Send, Sent } from '../../../src/server/send.js';
import { BODYLESS_METHODS, bodyAsBytes, bodyUnread, serviceHandler } from '../../../src/server/service-route.js';

const PAGE = { status: 200, headers: { 'content-type': 'application/json' }, body: '{"count":0}', cacheable: true };

/** The route over a core that answers `answer` (a value, a promise or a throw), noting what it did. */
function route(answer: () => CoreAnswer | Promise<CoreAnswer>) {
  const asked: CoreRequest[] = [];
  const recorded: string[] = [];
  const logged: string[] = [];
  const sent: Sent[] = [];
  const core = {
    generation: {},
    answer: (r: CoreRequest) => (asked.push(r), answer()),
    record: (r: CoreRequest, a: CoreAnswer, started: number, ended: number) =>
      void recorded.push(`${r.url} ${a.status} ${ended - started}ms`),
  } as unknown as StubCore;
  const cache = new AnswerCache();
  // The clock's reading a send answers ends the journal's duration of a cached answer.
  const send: Send = (_req, _reply, s, started) => (sent.push(s), started + 7);
  const handle = serviceHandler({
    state: () => ({}) as StubState,
    coreOf: () => core,
    cache,
    send,
    log: { message: (m: string) => void logged.push(m) } as unknown as RequestLog,
  });
  const hijacked: string[] = [];
  const call = (method: string, url: string, body?: Buffer) =>
    handle(
      {
        raw: { method, headers: { host: 'stub.test' }, rawHeaders: ['Host', 'stub.test'] },
        originalUrl: url,
        body,
      } as unknown as FastifyRequest,
      { hijack: () => void hijacked.push(url) } as unknown as FastifyReply,
    );
  return { call, asked, recorded, logged, sent, cache, hijacked };
}
const settle = () => new Promise((r) => setImmediate(r));

describe('serviceHandler: the service’s route', () => {
  it('asks the core with the target as sent and the body as bytes; sends its answer with its length', async () => {
    const r = route(() => ({ ...PAGE, cacheable: false }));
    const body = Buffer.from('{"a":1}');
    r.call('POST', '/api/v1/d%65sk?x=1', body);
    expect(r.asked.map((a) => [a.method, a.url, a.body, a.header('host')])).toEqual([
      ['POST', '/api/v1/d%65sk?x=1', body, 'stub.test'],
    ]);
    expect(r.sent).toEqual([
      { status: 200, headers: { 'content-type': 'application/json', 'content-length': '11' }, body: '{"count":0}' },
    ]);
    expect([r.cache.size, r.hijacked]).toEqual([0, ['/api/v1/d%65sk?x=1']]);
  });

  it('a cacheable answer to a GET is kept; the same request again is answered from it and journaled', () => {
    const r = route(() => PAGE);
    r.call('GET', '/api/v1/desk');
    r.call('GET', '/api/v1/desk');
    expect(r.asked).toHaveLength(1);
    expect(r.sent.map((s) => Buffer.from(s.body).toString())).toEqual(['{"count":0}', '{"count":0}']);
    expect(r.recorded).toEqual(['/api/v1/desk 200 7ms']);
    expect(r.cache.size).toBe(1);
  });

  it('an answer that is not cacheable, or to a request that may not be kept, is not kept', () => {
    const r = route(() => ({ ...PAGE, cacheable: false }));
    r.call('GET', '/a');
    const head = route(() => PAGE);
    head.call('HEAD', '/a');
    expect([r.cache.size, head.cache.size]).toEqual([0, 0]);
  });

  it('a handler answering later is awaited; Prefer: delay holds the answer', async () => {
    vi.useFakeTimers();
    try {
      const r = route(() => Promise.resolve({ ...PAGE, cacheable: false, delayMs: 500 }));
      r.call('GET', '/a');
      await vi.advanceTimersByTimeAsync(499);
      expect(r.sent).toEqual([]);
      await vi.advanceTimersByTimeAsync(1);
      expect(r.sent.map((s) => s.status)).toEqual([200]);
    } finally {
      vi.useRealTimers();
    }
  });

  it.each<[string, () => CoreAnswer | Promise<CoreAnswer>]>([
    [
      'a core that throws',
      () => {
        throw new Error('defect');
      },
    ],
    ['a handler that rejects', () => Promise.reject(new Error('defect'))],
  ])("%s: Django's 500 page, and the defect logged", async (_name, answer) => {
    const r = route(answer);
    r.call('GET', '/api/v1/desk');
    await settle();
    expect(r.sent.map((s) => [s.status, s.headers['content-type']])).toEqual([[500, 'text/html; charset=utf-8']]);
    expect(r.logged[0]).toMatch(/^error: a defect of the stub answering GET \/api\/v1\/desk: Error: defect/);
  });
});

describe('the methods and bodies of the route', () => {
  it('GET, HEAD and OPTIONS are the methods whose body DRF never reads', () => {
    expect([...BODYLESS_METHODS].sort()).toEqual(['GET', 'HEAD', 'OPTIONS']);
  });

  it('bodyAsBytes: Fastify is shown one type for every body; the payload passes as it is', () => {
    const request = { headers: { 'content-type': 'text/plain' } } as unknown as FastifyRequest;
    const payload = {};
    const done = vi.fn();
    bodyAsBytes.call({} as never, request, {} as FastifyReply, payload as never, done);
    expect(request.headers).toEqual({ 'content-type': 'application/octet-stream' });
    expect(done).toHaveBeenCalledWith(null, payload);
  });

  it("bodyUnread: Django's 400 page, and the connection closed", () => {
    const sent: Sent[] = [];
    bodyUnread((_q, _r, s) => (sent.push(s), 0))(new Error('too large'), {} as FastifyRequest, {} as FastifyReply);
    expect(sent[0]?.status).toBe(400);
    expect(sent[0]?.headers).toMatchObject({
      connection: 'close',
      'content-type': 'text/html; charset=utf-8',
      'content-length': String(Buffer.byteLength(String(sent[0]?.body))),
    });
  });
});
