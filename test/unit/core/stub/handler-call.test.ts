import { describe, expect, it, vi } from 'vitest';
import type { View } from '../../../../src/core/drf/views.js';
import { initial } from '../../../../src/core/drf/views.js';
import { LiveCollection } from '../../../../src/core/live.js';
import type { CoreAnswer, CoreOptions, RequestContext } from '../../../../src/core/request.js';
import { callHandler, canFetch, type HandlerScope, requestBody } from '../../../../src/core/stub/handler-call.js';
import type { Handler } from '../../../../src/core/stub/handler-types.js';
import { parseQuery } from '../../../../src/core/python/query.js';
import type { AnyOperation, PathRoute } from '../../../../src/openapi/operations.js';
import { coreOptions } from '../../../../src/server/app.js';
import { settled, stateFor, testConfig } from '../../../helpers.js';

const config = testConfig();
const state = await stateFor(config);
const { model } = state;
const example = testConfig({
  specFile: 'examples/desk-reservation/openapi.yaml',
  fixturesDir: 'examples/desk-reservation/fixtures',
});
const exampleState = await stateFor(example);

function scopeOf(options: Partial<CoreOptions> = {}, m = model, base = coreOptions(config, state)): HandlerScope {
  const live = new Map<string, LiveCollection>();
  return {
    model: m,
    options: { ...base, ...options },
    viewSet: (collection) => {
      let l = live.get(collection.list.path);
      if (!l) live.set(collection.list.path, (l = new LiveCollection(collection)));
      return { model: m, collection, live: l, pageSize: 100 };
    },
    changed: vi.fn(),
  };
}

function request(method: string, url: string, body?: unknown, m = model) {
  const match = m.router.match(url);
  if (match?.kind !== 'route') throw new Error(`no route for ${url}`);
  const bytes = body === undefined ? undefined : new TextEncoder().encode(JSON.stringify(body));
  const headers: Record<string, string> = bytes ? { 'content-type': 'application/json' } : {};
  const ctx: RequestContext = {
    method,
    baseUrl: 'http://stub.test',
    path: url,
    query: parseQuery(''),
    rawQuery: '',
    suffix: match.suffix,
    params: match.params,
    header: (n) => headers[n],
    body: bytes,
  };
  const view = initial(ctx, {
    allow: 'GET, POST',
    renderers: [{ mediaType: 'application/json', format: 'json' }],
    authenticators: [],
    tokens: [],
    sessions: [],
    anonymous: true,
  } as never) as View;
  const route: PathRoute = match.route;
  const op = route.methods.get(method as never) as AnyOperation;
  return { ctx, view, route, op };
}

const standard = (): CoreAnswer => ({ status: 299, headers: { location: 'http://stub.test/x' }, body: '{"std":1}' });

function call(handler: Handler, options: Partial<CoreOptions> = {}, url = '/api/v1/desk/1') {
  const scope = scopeOf(options);
  const r = request('GET', url);
  return {
    scope,
    answer: callHandler(scope, r.ctx, r.view, r.route, r.op, handler, { values: undefined, data: undefined }, standard),
  };
}

describe('callHandler', () => {
  it('answers the standard answer when the handler answers undefined', () => {
    expect(settled(call(() => undefined).answer)).toEqual(standard());
  });

  it('renders a handler answer as DRF renders a Response', () => {
    const a = settled(call(() => ({ status: 200, body: { pk: 1, é: '\u2028' } })).answer);
    expect(a.status).toBe(200);
    expect(a.headers['content-type']).toBe('application/json');
    expect(a.body).toBe('{"pk":1,"\u00e9":"\\u2028"}');
  });

  it.each([
    ['a status out of range', () => ({ status: 42 })],
    ['not an object', () => 'ok' as never],
    [
      'a throw',
      () => {
        throw new Error('boom');
      },
    ],
    [
      'an unknown collection',
      (_r: unknown, c: { collection: (n: string) => unknown }) => {
        c.collection('nothing-here');
        return undefined;
      },
    ],
  ] as [string, Handler][])("%s is Django's 500 page, and the problem is told", (_n, handler) => {
    const told = vi.fn();
    const a = settled(call(handler, { onHandlerProblem: told }).answer);
    expect(a.status).toBe(500);
    expect(a.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(told).toHaveBeenCalledWith(expect.objectContaining({ operationId: 'getDesk', error: expect.any(Error) }));
  });

  it('a rejected promise is the 500 page too', async () => {
    const told = vi.fn();
    const a = await call(() => Promise.reject(new Error('late')), { onHandlerProblem: told }).answer;
    expect(a.status).toBe(500);
    expect(told).toHaveBeenCalledOnce();
  });

  it('tells violations, and answers them as a 500 problem under --strict-handlers', () => {
    const violations = [{ rule: 'body', pointer: '/pk', message: 'must be integer' }];
    const told = vi.fn();
    const loose = settled(
      call(() => ({ status: 200, body: {} }), { checkAnswer: () => violations, onHandlerProblem: told }).answer,
    );
    expect(loose.status).toBe(200);
    expect(told).toHaveBeenCalledWith({ operationId: 'getDesk', violations });
    const strict = settled(
      call(() => ({ status: 200, body: {} }), { checkAnswer: () => violations, strictHandlers: true }).answer,
    );
    expect(strict.status).toBe(500);
    expect(strict.headers['content-type']).toBe('application/problem+json');
    expect(JSON.parse(strict.body)).toEqual({
      type: 'about:blank',
      title: 'Handler answer breaks the spec',
      status: 500,
      detail: "getDesk's handler answered what its declaration refuses",
      violations,
    });
  });

  it('gives the context: declared() is the standard answer parsed, created() a Location, changes told', () => {
    let declared: unknown;
    const { scope, answer } = call((_r, c) => {
      declared = c.declared();
      const made = c.collection('desk').create({ building: 'S', floor: 2, number: '999' });
      return c.created(made, 'desk');
    });
    const a = settled(answer);
    expect(declared).toEqual({ status: 299, body: { std: 1 }, headers: { location: 'http://stub.test/x' } });
    expect(a.status).toBe(201);
    const body = JSON.parse(a.body) as { pk: number; url: string };
    expect(a.headers.location).toBe(`http://stub.test/api/v1/desk/${body.pk}`);
    expect(body.url).toBe(a.headers.location);
    expect(scope.changed).toHaveBeenCalled();
  });
});

describe('requestBody', () => {
  it('a write: the serializer refuses what DRF refuses, before any handler', () => {
    const scope = scopeOf();
    const r = request('PUT', '/api/v1/desk/1', { building: 'Q' });
    const vs = scope.viewSet(model.collections.get('/api/v1/desk') as never);
    const b = requestBody(model, r.ctx, r.view, vs, r.op) as CoreAnswer;
    expect(b.status).toBe(400);
    expect(Object.keys(JSON.parse(b.body))).toContain('building');
  });

  it('an action: validated against its declared request schema', () => {
    const m = exampleState.model;
    const url = '/api/v1/deskreservation/desk-summary-report';
    const good = request('POST', url, { startDateTime: '', endDateTime: '', desks: [1] }, m);
    expect(requestBody(m, good.ctx, good.view, undefined, good.op)).toEqual({
      values: undefined,
      data: { startDateTime: '', endDateTime: '', desks: [1] },
    });
    const bad = request('POST', url, { startDateTime: '' }, m);
    const refused = requestBody(m, bad.ctx, bad.view, undefined, bad.op) as CoreAnswer;
    expect(refused.status).toBe(400);
    expect(JSON.parse(refused.body)).toEqual({ endDateTime: ['This field is required.'] });
  });
});

describe('canFetch (SimpleMetadata shows PUT only for an item it can get)', () => {
  const at = (url: string, handlers?: Record<string, Handler>) => {
    const scope = scopeOf(handlers ? { handlers } : {});
    const r = request('GET', url);
    const vs = scope.viewSet(model.collections.get('/api/v1/desk') as never);
    return canFetch(scope, r.ctx, r.view, vs, r.route);
  };
  it.each([
    ['an item that exists', '/api/v1/desk/1', undefined, true],
    ['an unknown pk', '/api/v1/desk/987654', undefined, false],
    ['a GET handler that refuses', '/api/v1/desk/1', { getDesk: () => ({ status: 403 }) }, false],
    ['a GET handler that answers', '/api/v1/desk/1', { getDesk: () => ({ status: 200, body: {} }) }, true],
    [
      'a GET handler that throws',
      '/api/v1/desk/1',
      {
        getDesk: () => {
          throw new Error('x');
        },
      },
      true,
    ],
  ] as [string, string, Record<string, Handler> | undefined, boolean][])('%s', (_n, url, handlers, want) =>
    expect(at(url, handlers)).toBe(want),
  );
});
