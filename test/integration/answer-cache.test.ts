import { type IncomingMessage, request } from 'node:http';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app.js';
import { AnswerCache } from '../../src/server/answer-cache.js';
import { loadState } from '../../src/load/state.js';
import { stateOptions } from '../../src/server/config.js';
import { listen, testConfig } from '../helpers.js';

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function raw(base: string, url: string, method = 'GET', headers: Record<string, string> = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${url}`, { method, headers }, (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => {
        const { date: _date, ...rest } = res.headers;
        resolve({ status: res.statusCode ?? 0, headers: rest, body });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the answer cache: everything the answer depends on, no two requests alike', () => {
  type Ask = [method: string, url: string, headers: Record<string, string | undefined>];
  const headersOf = (h: Ask[2]) => Object.fromEntries(Object.entries(h).filter(([, v]) => v !== undefined));
  const answer = (state: object, body: string) => ({
    state,
    status: 200,
    headers: {},
    body: Buffer.from(body),
    answer: { status: 200, headers: {}, body },
  });
  it.each<[string, Ask, Ask]>([
    ['an empty Host and no Host', ['GET', '/a', { host: '' }], ['GET', '/a', {}]],
    [
      'an empty X-Forwarded-Host and none',
      ['GET', '/a', { host: 'h', 'x-forwarded-host': '' }],
      ['GET', '/a', { host: 'h' }],
    ],
    ['an empty Origin and none', ['GET', '/a', { host: 'h', origin: '' }], ['GET', '/a', { host: 'h' }]],
    ['an empty Accept and none', ['GET', '/a', { host: 'h', accept: '' }], ['GET', '/a', { host: 'h' }]],
    ['GET and HEAD', ['GET', '/a', { host: 'h' }], ['HEAD', '/a', { host: 'h' }]],
    [
      'a value that looks like the next header',
      ['GET', '/a', { host: 'h -', accept: undefined }],
      ['GET', '/a', { host: 'h', 'x-forwarded-host': undefined }],
    ],
    ['a url that looks like a header', ['GET', '/a 1:h', {}], ['GET', '/a', { host: 'h' }]],
    [
      'two values moved between headers',
      ['GET', '/a', { host: 'a', accept: 'b' }],
      ['GET', '/a', { host: 'a b', accept: undefined }],
    ],
    [
      'the last keyed header',
      ['GET', '/a', { host: 'h', 'access-control-request-headers': 'x' }],
      ['GET', '/a', { host: 'h' }],
    ],
    ['two targets', ['GET', '/a?x=1', { host: 'h' }], ['GET', '/a?x=2', { host: 'h' }]],
  ])('%s differ', (_n, a, b) => {
    const cache = new AnswerCache();
    const state = {};
    cache.set(a[0], a[1], headersOf(a[2]), answer(state, 'a'));
    // What is kept answers its own request, and never the other one.
    expect(cache.get(a[0], a[1], headersOf(a[2]), state)?.body.toString()).toBe('a');
    expect(cache.get(b[0], b[1], headersOf(b[2]), state)).toBeUndefined();
    // Both kept side by side, each answers its own (a HEAD's is never kept).
    cache.set(b[0], b[1], headersOf(b[2]), answer(state, 'b'));
    expect(cache.get(a[0], a[1], headersOf(a[2]), state)?.body.toString()).toBe('a');
    expect(cache.get(b[0], b[1], headersOf(b[2]), state)?.body.toString()).toBe(b[0] === 'GET' ? 'b' : undefined);
  });
  it('nothing is kept for another method, with Prefer (even empty), or with a keyed header given as a list', () => {
    const cache = new AnswerCache();
    const state = {};
    cache.set('POST', '/a', { host: 'h' }, answer(state, 'x'));
    cache.set('HEAD', '/a', { host: 'h' }, answer(state, 'x'));
    cache.set('GET', '/a', { host: 'h', prefer: '' }, answer(state, 'x'));
    cache.set('GET', '/a', { host: 'h', accept: ['a', 'b'] as unknown as string }, answer(state, 'x'));
    expect(cache.size).toBe(0);
    expect(cache.get('GET', '/a', { host: 'h' }, state)).toBeUndefined();
  });
  it('an answer counts for its state only, and a new one for the same request replaces it', () => {
    const cache = new AnswerCache();
    const [s1, s2] = [{}, {}];
    cache.set('GET', '/a', { host: 'h' }, answer(s1, '1'));
    expect(cache.get('GET', '/a', { host: 'h' }, s2)).toBeUndefined();
    cache.set('GET', '/a', { host: 'h' }, answer(s2, '2'));
    expect(cache.size).toBe(1);
    expect(cache.get('GET', '/a', { host: 'h' }, s2)?.body.toString()).toBe('2');
    expect(cache.get('GET', '/a', { host: 'h' }, s1)).toBeUndefined();
  });
  it('counts an answer replaced no more against its bound', () => {
    const cache = new AnswerCache(4096);
    const [s1, s2] = [{}, {}];
    // The same request answered again (a new state): one entry, counted once (~1.5 KB of 4 KB).
    cache.set('GET', '/a', {}, answer(s1, 'x'.repeat(1000)));
    cache.set('GET', '/a', {}, answer(s2, 'x'.repeat(1000)));
    cache.set('GET', '/b', {}, answer(s2, 'y'.repeat(1000)));
    cache.set('GET', '/c', {}, answer(s2, 'z'));
    expect(cache.size).toBe(3);
    expect(cache.get('GET', '/a', {}, s2)?.body.length).toBe(1000);
  });

  it('starts again empty when full', () => {
    const cache = new AnswerCache(4096);
    const state = {};
    for (let i = 0; i < 10; i++) cache.set('GET', `/a${i}`, {}, answer(state, 'x'.repeat(1000)));
    expect(cache.size).toBeLessThan(4);
    expect(cache.get('GET', '/a9', {}, state)?.body.length).toBe(1000);
  });
});

describe('the answer cache writes exactly what Fastify wrote', () => {
  it.each([
    ['the desk list', '/api/v1/desk?format=api', {}],
    ['a desk', '/api/v1/desk/3?format=json', {}],
    ['a page', '/api/v1/desk?page=2', {}],
    ['an invalid page', '/api/v1/desk?page=99', {}],
    ['an unknown path', '/api/v1/nosuch', {}],
    ['an unknown format', '/api/v1/desk?format=xml', {}],
    ['a CORS request', '/api/v1/desk', { origin: 'http://localhost:5173' }],
    ['another host', '/api/v1/desk', { host: 'staging.example.org' }],
  ])('%s: the second answer equals the first, headers and bytes', async (_n, url, headers) => {
    const config = testConfig({ pageSize: 10 });
    const app = await buildApp(config, { current: await loadState(stateOptions(config)) });
    const base = await listen(app);
    const first = await raw(base, url, 'GET', headers);
    const second = await raw(base, url, 'GET', headers);
    const head = await raw(base, url, 'HEAD', headers);
    expect(second).toEqual(first);
    expect(head.status).toBe(first.status);
    expect(head.body).toBe('');
    expect(head.headers['content-length']).toBe(first.headers['content-length']);
    await app.close();
  });

  it('keeps answers to declared parameters only, and serves them from the cache', async () => {
    const config = testConfig({ pageSize: 10 });
    const holder = { current: await loadState(stateOptions(config)) };
    const app = await buildApp(config, holder);
    const base = await listen(app);
    await raw(base, '/api/v1/desk?format=api&page=2');
    expect(app.answerCache.size).toBe(1);
    await raw(base, '/api/v1/desk?format=api&page=2&cachebuster=1');
    await raw(base, '/api/v1/desk?__dynamic=true');
    await raw(base, '/api/v1/desk', 'GET', { prefer: 'dynamic=true' });
    await raw(base, '/api/v1/nosuch');
    expect(app.answerCache.size).toBe(1);
    // What the cache holds for a request's key and the current state (its core's generation) is what goes out.
    const fake = {
      method: 'GET',
      url: '/api/v1/desk?format=json',
      headers: { host: new URL(base).host },
    } as unknown as IncomingMessage;
    app.answerCache.set(fake.method, fake.url, fake.headers, {
      state: app.coreOf(holder.current).generation,
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: Buffer.from('{"from":"cache"}'),
      answer: { status: 200, headers: {}, body: '' },
    });
    expect((await raw(base, '/api/v1/desk?format=json')).body).toBe('{"from":"cache"}');
    await app.close();
  });

  it('never answers for another host, origin or scenario, and goes stale with the state', async () => {
    const config = testConfig({ pageSize: 10 });
    const holder = { current: await loadState(stateOptions(config)) };
    const app = await buildApp(config, holder);
    const base = await listen(app);
    const a = await raw(base, '/api/v1/desk', 'GET', { host: 'a.example' });
    const b = await raw(base, '/api/v1/desk', 'GET', { host: 'b.example' });
    expect(a.body).toContain('http://a.example/');
    expect(b.body).toContain('http://b.example/');
    expect((await raw(base, '/api/v1/desk', 'GET', { prefer: 'empty=true' })).body).toContain('"count":0');
    expect((await raw(base, '/api/v1/desk?__empty=true')).body).toContain('"count":0');

    const dir = await mkdtemp(path.join(tmpdir(), 'cache-'));
    await writeFile(
      path.join(dir, 'desk.json'),
      JSON.stringify([
        { pk: 1, building: 'P', floor: 1, number: '999z', active: true, lead: true, ergonomic: true, held_today: true },
      ]),
    );
    holder.current = await loadState({ ...stateOptions(config), fixturesDir: dir });
    const fresh = (await raw(base, '/api/v1/desk', 'GET', { host: 'a.example' })).body;
    expect(fresh).toContain('"count":1,');
    expect(fresh).toContain('"number":"999z"');
    await app.close();
  });
});
