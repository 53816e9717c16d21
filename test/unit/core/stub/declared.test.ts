import { describe, expect, it } from 'vitest';
import { DJANGO_HEADERS, DJANGO_PAGES } from '../../../../src/core/django/http.js';
import type { View } from '../../../../src/core/drf/views.js';
import { gatewayPage } from '../../../../src/core/errors.js';
import type { Model } from '../../../../src/core/model.js';
import type { CoreAnswer } from '../../../../src/core/request.js';
import {
  declaredAnswer,
  operationSources,
  renderAnswer,
  successAnswer,
  successSource,
} from '../../../../src/core/stub/declared.js';
import { NO_SCENARIO, type Scenario } from '../../../../src/core/stub/scenarios.js';
import type { AnyOperation, CustomOperation } from '../../../../src/openapi/operations.js';
import { TINY_SPEC, tinyModel } from '../tiny-model.js';

const model = tinyModel({}, { generatedBodies: { '#/paths/~1api~1v1~1thing~1{pk}/get 200': { pk: 1, name: 'made' } } });
const noToken = tinyModel({}, { spec: { ...TINY_SPEC, components: { ...TINY_SPEC.components, securitySchemes: {} } } });
const op = (m: Model, id: string) =>
  m.operations.routes.flatMap((r) => [...r.methods.values()]).find((o) => o.operationId === id) as AnyOperation;
const custom = (id: string) => op(model, id) as CustomOperation;
const view = (v: Partial<View> = {}): View => ({
  allow: 'GET, PUT, DELETE, HEAD, OPTIONS',
  sessionRead: false,
  user: false,
  indent: undefined,
  authenticateHeader: 'Token',
  ...v,
});
const json = (status: number, body: string, extra: Record<string, string> = {}, v = view()): CoreAnswer => ({
  status,
  headers: { ...DJANGO_HEADERS, 'content-type': 'application/json', vary: 'Accept', allow: v.allow, ...extra },
  body,
});
const impossible = (detail: string, available: unknown): CoreAnswer => ({
  status: 400,
  headers: { ...DJANGO_HEADERS, 'content-type': 'application/problem+json' },
  body: JSON.stringify({ type: 'about:blank', title: 'Impossible scenario', status: 400, detail, available }),
});

describe('Prefer: code=N, the declared response', () => {
  it.each<[string, Partial<Scenario>, CoreAnswer, Model?, View?]>([
    ['its first example', { code: 404 }, json(404, '{"detail":"Not found."}')],
    ['the example named', { code: 404, example: 'gone' }, json(404, '{"detail":"Gone."}')],
    [
      'an example it does not have',
      { code: 404, example: 'nope' },
      impossible('the 404 response of getThing has no example "nope"', { examples: ['notFound', 'gone'] }),
    ],
    [
      'with the headers it declares a value for',
      { code: 401 },
      json(401, '{"detail":"Authentication credentials were not provided."}', { 'www-authenticate': 'Token' }),
    ],
    ['its body generated from its schema', { code: 200 }, json(200, '{"pk":1,"name":"made"}')],
    ['no example, none generated: no body', { code: 409 }, json(409, '')],
    [
      'indented as negotiated',
      { code: 404, example: 'gone' },
      json(404, '{\n  "detail": "Gone."\n}'),
      model,
      view({ indent: 2 }),
    ],
  ])('%s', (_name, s, want, m = model, v = view()) => {
    expect(declaredAnswer(v, op(m, 'getThing'), { ...NO_SCENARIO, ...s }, m)).toEqual(want);
  });

  it.each<[string, number, CoreAnswer, Model?, View?]>([
    ["401: TokenAuthentication's", 401, json(401, '{"detail":"Invalid token."}', { 'www-authenticate': 'Token' })],
    [
      '401 where the first authentication class sends no challenge: 403',
      401,
      json(403, '{"detail":"Authentication credentials were not provided."}'),
      noToken,
      view({ authenticateHeader: undefined }),
    ],
    ['403: a permission refused', 403, json(403, '{"detail":"You do not have permission to perform this action."}')],
    [
      "500: Django's page",
      500,
      {
        status: 500,
        headers: { ...DJANGO_HEADERS, 'content-type': 'text/html; charset=utf-8' },
        body: DJANGO_PAGES[500],
      },
    ],
    ["502: the gateway's page", 502, gatewayPage(502)],
    ["503: the gateway's page", 503, gatewayPage(503)],
    ["504: the gateway's page", 504, gatewayPage(504)],
    [
      'any other: impossible, naming the codes there are, each once',
      418,
      impossible('getThing declares no 418 response', {
        codes: ['200', '401', '404', '409', '403', '500', '502', '503', '504'],
      }),
    ],
  ])('undeclared %s', (_name, code, want, m = model, v = view()) => {
    const id = code === 418 ? 'getThing' : 'pingThing';
    expect(declaredAnswer(v, op(m, id), { ...NO_SCENARIO, code }, m)).toEqual(want);
  });
});

describe("an action's or a view's success, without a handler", () => {
  it.each<[string, string, ReturnType<typeof successSource>, ReturnType<typeof successAnswer>]>([
    ['the fixture it names', 'exportThings', 'fixture', { status: 200, body: 'pk,name\n1,one\n', headers: {} }],
    ['its first example', 'pingThing', 'example', { status: 200, body: { pong: 1 }, headers: {} }],
    ['generated from its schema', 'thingReport', 'generated', { status: 200, body: { total: 3 }, headers: {} }],
    ['none: its status alone', 'clearThings', 'none', { status: 204, headers: {} }],
    ['a redirect: its declared Location', 'home', 'none', { status: 302, headers: { location: '/api/v1/thing' } }],
    ['no success declared: 200', 'auditThing', 'none', { status: 200, headers: {} }],
  ])('%s', (_name, id, source, answer) => {
    expect(successSource(custom(id), model)).toBe(source);
    expect(successAnswer(custom(id), model)).toEqual(answer);
  });
});

describe('where each operation answers from', () => {
  it('every route and method, a handler first, what answers without it said', () => {
    const handled = () => undefined;
    const sources = operationSources(model, { getThing: handled, pingThing: handled });
    expect(sources.map((s) => [s.method, s.path, s.kind, s.source, s.otherwise ?? '-', s.fixture ?? '-'])).toEqual([
      ['GET', '/api/v1/thing', 'list', 'collection', '-', '-'],
      ['POST', '/api/v1/thing', 'write', 'collection', '-', '-'],
      ['GET', '/api/v1/thing/report', 'custom', 'generated', '-', '-'],
      ['DELETE', '/api/v1/thing/clear', 'custom', 'none', '-', '-'],
      ['GET', '/api/v1/thing/{pk}', 'detail', 'handler', 'collection', '-'],
      ['PUT', '/api/v1/thing/{pk}', 'write', 'collection', '-', '-'],
      ['DELETE', '/api/v1/thing/{pk}', 'write', 'collection', '-', '-'],
      ['POST', '/api/v1/thing/{pk}/ping', 'custom', 'handler', 'example', '-'],
      ['GET', '/api/v1/thing/{pk}/audit', 'custom', 'none', '-', '-'],
      ['GET', '/api/v1/sorted', 'list', 'collection', '-', '-'],
      ['POST', '/api/v1/sorted', 'write', 'collection', '-', '-'],
      ['GET', '/api/v1/sorted/{pk}', 'detail', 'collection', '-', '-'],
      ['GET', '/api/v1/row', 'list', 'collection', '-', '-'],
      ['GET', '/api/v1/row/{pk}', 'detail', 'collection', '-', '-'],
      ['GET', '/api/v1/export', 'custom', 'fixture', '-', 'things-export'],
      ['GET', '/home', 'custom', 'declared', '-', '-'],
    ]);
    expect(sources[4]).toEqual({
      operationId: 'getThing',
      method: 'GET',
      path: '/api/v1/thing/{pk}',
      kind: 'detail',
      source: 'handler',
      otherwise: 'collection',
      responses: ['200', '401', '404', '409'],
    });
    expect(operationSources(model, undefined).filter((s) => s.source === 'handler')).toEqual([]);
  });
});

describe("a handler's answer, rendered as DRF renders a Response", () => {
  it.each<[string, string, Parameters<typeof renderAnswer>[2], CoreAnswer, View?]>([
    [
      'a JSON body, with its headers',
      'pingThing',
      { status: 201, body: { a: '\u2028' }, headers: { location: '/x' } },
      json(201, '{"a":"\\u2028"}', { location: '/x' }),
    ],
    [
      'indented, Vary with Cookie where the session was read',
      'pingThing',
      { status: 200, body: [1] },
      json(200, '[\n    1\n]', { vary: 'Accept, Cookie' }, view({ indent: 4, sessionRead: true })),
      view({ indent: 4, sessionRead: true }),
    ],
    [
      'no body: no Content-Type',
      'clearThings',
      { status: 204, headers: { 'x-done': '1' } },
      { status: 204, headers: { ...DJANGO_HEADERS, vary: 'Accept', allow: view().allow, 'x-done': '1' }, body: '' },
    ],
    [
      'a text of a declared media type other than JSON, as it is',
      'exportThings',
      { status: 200, body: 'pk\n1\n' },
      {
        status: 200,
        headers: { ...DJANGO_HEADERS, 'content-type': 'text/csv', vary: 'Accept, Cookie', allow: view().allow },
        body: 'pk\n1\n',
      },
    ],
    [
      'a value that is not text, for that media type: JSON',
      'exportThings',
      { status: 200, body: { n: 1 } },
      json(200, '{"n":1}'),
    ],
    ['a text where JSON is declared: a JSON string', 'pingThing', { status: 200, body: 'pong' }, json(200, '"pong"')],
  ])('%s', (_name, id, answer, want, v = view()) => {
    expect(renderAnswer(v, op(model, id), answer)).toEqual(want);
  });
});
