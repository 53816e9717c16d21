import type { IncomingHttpHeaders } from 'node:http';
import { describe, expect, it } from 'vitest';
import { CACHE_KEY_HEADERS } from '../../../src/core/request.js';
import { AnswerCache, type CachedAnswer } from '../../../src/server/answer-cache.js';

const STATE = {};
const cached = (body = '{}', state: object = STATE): CachedAnswer => ({
  state,
  status: 200,
  headers: { 'content-length': String(body.length) },
  body: Buffer.from(body),
  answer: { status: 200, headers: {}, body },
});
const H: IncomingHttpHeaders = { host: 'stub.test', accept: 'application/json' };

describe('AnswerCache.keeps: which requests may be kept', () => {
  it.each<[string, string | undefined, string | undefined, IncomingHttpHeaders, boolean]>([
    ['a GET', 'GET', '/api/v1/desk', H, true],
    ['a HEAD', 'HEAD', '/api/v1/desk', H, false],
    ['no target', 'GET', undefined, H, false],
    ['a Prefer header', 'GET', '/x', { ...H, prefer: 'code=500' }, false],
    ['a keyed header repeated (an array)', 'GET', '/x', { ...H, cookie: ['a', 'b'] as unknown as string }, false],
    ['an unkeyed header repeated', 'GET', '/x', { ...H, 'set-cookie': ['a', 'b'] }, true],
  ])('%s: %s', (_name, method, url, headers, want) => {
    expect(AnswerCache.keeps(method, url, headers)).toBe(want);
  });
});

describe('AnswerCache: an answer met again only by the very same request and state', () => {
  it.each<[string, string | undefined, string, IncomingHttpHeaders, object, boolean]>([
    ['the same request', 'GET', '/x', H, STATE, true],
    ['another state', 'GET', '/x', H, {}, false],
    ['another target', 'GET', '/x?', H, STATE, false],
    ['a keyed header changed', 'GET', '/x', { ...H, accept: 'text/html' }, STATE, false],
    ['a keyed header added', 'GET', '/x', { ...H, origin: 'http://localhost' }, STATE, false],
    ['a keyed header empty instead of absent', 'GET', '/x', { ...H, cookie: '' }, STATE, false],
    ['a keyed header dropped', 'GET', '/x', { accept: H.accept }, STATE, false],
    ['an unkeyed header changed', 'GET', '/x', { ...H, 'user-agent': 'x' }, STATE, true],
    ['a HEAD of the same target', 'HEAD', '/x', H, STATE, false],
  ])('%s: %s', (_name, method, url, headers, state, hit) => {
    const c = new AnswerCache();
    const a = cached();
    c.set('GET', '/x', H, a);
    expect(c.get(method, url, headers, state)).toBe(hit ? c.get('GET', '/x', H, STATE) : undefined);
    if (hit) expect(c.get(method, url, headers, state)?.body).toBe(a.body);
  });

  // A request with Prefer is never kept (keeps): an entry's Prefer is always absent.
  it.each(CACHE_KEY_HEADERS)(
    'every keyed header counts: %s changed, added or dropped, the entry is not met',
    (name) => {
      const all = Object.fromEntries(
        CACHE_KEY_HEADERS.filter((n) => n !== 'prefer').map((n) => [n, `v-${n}`]),
      ) as IncomingHttpHeaders;
      const without = { ...all };
      delete without[name];
      const c = new AnswerCache();
      c.set('GET', '/x', all, cached());
      c.set('GET', '/y', without, cached());
      expect(c.get('GET', '/x', { ...all }, STATE)).toBeDefined();
      expect(c.get('GET', '/y', { ...without }, STATE)).toBeDefined();
      expect(c.get('GET', '/x', { ...all, [name]: 'other' }, STATE)).toBeUndefined();
      expect(c.get('GET', '/y', { ...without, [name]: 'added' }, STATE)).toBeUndefined();
      if (name !== 'prefer') expect(c.get('GET', '/x', without, STATE)).toBeUndefined();
    },
  );

  it('one entry per request: the same one replaced, another kept beside it, an older state’s dropped', () => {
    const c = new AnswerCache();
    c.set('GET', '/x', H, cached('1'));
    c.set('GET', '/x', H, cached('2'));
    expect([c.size, c.get('GET', '/x', H, STATE)?.body.toString()]).toEqual([1, '2']);
    c.set('GET', '/x', { ...H, accept: 'text/html' }, cached('3'));
    expect(c.size).toBe(2);
    const next = {};
    c.set('GET', '/x', H, cached('4', next));
    expect(c.size).toBe(1);
    expect(c.get('GET', '/x', H, next)?.body.toString()).toBe('4');
  });

  it('keeps nothing it may not keep, nor larger than its bound; starts again empty when full', () => {
    const c = new AnswerCache(2048);
    c.set('HEAD', '/x', H, cached());
    c.set('GET', '/x', { ...H, prefer: 'x' }, cached());
    c.set('GET', '/big', H, cached('x'.repeat(2048)));
    expect(c.size).toBe(0);
    c.set('GET', '/a', H, cached('x'.repeat(700)));
    c.set('GET', '/b', H, cached('x'.repeat(700)));
    expect(c.size).toBe(1);
    expect(c.get('GET', '/a', H, STATE)).toBeUndefined();
    expect(c.get('GET', '/b', H, STATE)).toBeDefined();
    c.clear();
    expect([c.size, c.get('GET', '/b', H, STATE)]).toEqual([0, undefined]);
  });
});
