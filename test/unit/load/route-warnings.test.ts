import { describe, expect, it } from 'vitest';
import { compileModel } from '../../../src/core/model.js';
import type { Handlers } from '../../../src/core/stub/handler-types.js';
import { generatedBodies } from '../../../src/load/declared.js';
import { routeWarnings } from '../../../src/load/route-warnings.js';
import { readOperations } from '../../../src/openapi/operations.js';
import { smallSpec } from './helpers.js';

const answer = (extra: Record<string, unknown> = {}) => ({
  '200': { description: 'ok', content: { 'application/json': { schema: { type: 'object' }, ...extra } } },
});

/** The warnings of a spec of a `thing` collection and the paths given, as `pointer: reason`. */
function warningsOf(paths: Record<string, unknown>, handlers?: Handlers, fixtureBodies: Record<string, unknown> = {}) {
  const doc = smallSpec({ thing: { item: { type: 'object', properties: { pk: { type: 'integer' } } } } }, { paths });
  const { operations, problems } = readOperations(doc, 'openapi.yaml');
  expect(problems).toEqual([]);
  const model = compileModel(doc, operations, {}, generatedBodies(doc, operations, 1), fixtureBodies);
  return routeWarnings(model, handlers, 'openapi.yaml').map((w) => `${w.file} ${w.pointer}: ${w.reason}`);
}

describe('routeWarnings: what a designer should know of the declared routes', () => {
  it.each<[string, Record<string, unknown>, Handlers | undefined, string[]]>([
    ['collections only: nothing', {}, undefined, []],
    [
      'a view answered with generated data only',
      { '/api/v1/me': { get: { operationId: 'me', responses: answer() } } },
      undefined,
      [
        'openapi.yaml /paths/~1api~1v1~1me/get: me (GET /api/v1/me) is answered with data generated from its schema: give it a handler, an x-stub-fixture or an example for a realistic answer',
      ],
    ],
    [
      'an example: nothing',
      { '/api/v1/me': { get: { operationId: 'me', responses: answer({ example: {} }) } } },
      undefined,
      [],
    ],
    [
      'a handler: nothing',
      { '/api/v1/me': { get: { operationId: 'me', responses: answer() } } },
      { me: () => undefined },
      [],
    ],
    [
      'a Django view: its declared answer, nothing',
      { '/': { get: { operationId: 'home', 'x-django-view': true, responses: answer() } } },
      undefined,
      [],
    ],
    [
      'no success declared: nothing generated, nothing to say',
      { '/api/v1/gone': { delete: { operationId: 'gone', responses: { '204': { description: 'gone' } } } } },
      undefined,
      [],
    ],
    [
      'a path no request reaches: a pattern declared before matches its URLs',
      {
        '/api/v1/{kind}/count': { get: { operationId: 'count', responses: answer({ example: 1 }) } },
        '/api/v1/desk/count': { get: { operationId: 'deskCount', responses: answer({ example: 2 }) } },
      },
      undefined,
      [
        'openapi.yaml /paths/~1api~1v1~1desk~1count: /api/v1/desk/count is never reached: /api/v1/{kind}/count, declared before it, matches the same URLs (Django tries the first pattern that matches)',
      ],
    ],
  ])('%s', (_name, paths, handlers, want) => {
    expect(warningsOf(paths, handlers)).toEqual(want);
  });

  it('a fixture of its own (x-stub-fixture): nothing', () => {
    const paths = { '/api/v1/me': { get: { operationId: 'me', responses: answer() } } };
    expect(warningsOf(paths, undefined, { '#/paths/~1api~1v1~1me/get': {} })).toEqual([]);
  });
});
