import { compileSnapshot, type Model } from '../../../src/core/model.js';
import { SNAPSHOT_FORMAT, type SnapshotCollection } from '../../../src/core/snapshot.js';
import { listEnvelope, schemaRef } from '../../spec-parts.js';

/*
 * A spec of the unit tests' own, as small as each step of the core needs, compiled in-process
 * (no file read, no loader): `thing`, a collection with urls, a writeOnly field, examples and
 * actions; `sorted`, a queryset with a filter and an ordering; `row`, items without a pk field;
 * `export` and `home`, views of their own.
 */

const json = (schema: unknown, examples?: Record<string, unknown>) => ({
  'application/json': {
    schema,
    ...(examples ? { examples: Object.fromEntries(Object.entries(examples).map(([k, v]) => [k, { value: v }])) } : {}),
  },
});
const ref = schemaRef;
const page = (item: string) => listEnvelope(ref(item));
const pk = [{ name: 'pk', in: 'path', required: true, schema: { type: 'integer' } }];
const ok = (schema: unknown) => ({ '200': { description: 'ok', content: json(schema) } });
const EXAMPLE_TWO = [
  { pk: 7, name: 'seven' },
  { pk: 8, name: 'eight' },
];
const envelope = (results: unknown[]) => ({ count: results.length, next: null, previous: null, results });

export const TINY_SPEC = {
  openapi: '3.1.0',
  info: { title: 'tiny', version: '1' },
  paths: {
    '/api/v1/thing': {
      get: {
        operationId: 'listThings',
        responses: {
          '200': {
            description: 'a page',
            content: json(ref('ThingList'), { two: envelope(EXAMPLE_TWO), none: envelope([]) }),
          },
        },
      },
      post: {
        operationId: 'createThing',
        requestBody: { content: json(ref('Thing')) },
        responses: { '201': { description: 'made', content: json(ref('Thing')) } },
      },
    },
    '/api/v1/thing/{pk}': {
      parameters: pk,
      get: {
        operationId: 'getThing',
        responses: {
          ...ok(ref('Thing')),
          '404': {
            description: 'none',
            content: json({ type: 'object' }, { notFound: { detail: 'Not found.' }, gone: { detail: 'Gone.' } }),
          },
          '409': { description: 'no example', content: json({ type: 'object' }) },
          '401': {
            description: 'no credentials',
            headers: { 'WWW-Authenticate': { schema: { type: 'string', const: 'Token' } } },
            content: json({ type: 'object' }, { missing: { detail: 'Authentication credentials were not provided.' } }),
          },
        },
      },
      put: { operationId: 'updateThing', requestBody: { content: json(ref('Thing')) }, responses: ok(ref('Thing')) },
      delete: { operationId: 'destroyThing', responses: { '204': { description: 'gone' } } },
    },
    '/api/v1/thing/{pk}/ping': {
      parameters: pk,
      post: {
        operationId: 'pingThing',
        responses: {
          '200': {
            description: 'pong',
            content: json({ type: 'object' }, { first: { pong: 1 }, second: { pong: 2 } }),
          },
        },
      },
    },
    '/api/v1/thing/{pk}/audit': {
      parameters: pk,
      get: {
        operationId: 'auditThing',
        responses: { '404': { description: 'none', content: json({ type: 'object' }) } },
      },
    },
    '/api/v1/thing/report': {
      get: {
        operationId: 'thingReport',
        responses: ok({ type: 'object', properties: { total: { type: 'integer' } } }),
      },
    },
    '/api/v1/thing/clear': { delete: { operationId: 'clearThings', responses: { '204': { description: 'done' } } } },
    '/api/v1/export': {
      get: {
        operationId: 'exportThings',
        'x-stub-fixture': 'things-export',
        responses: { '200': { description: 'a file', content: { 'text/csv': { schema: { type: 'string' } } } } },
      },
    },
    '/home': {
      get: {
        operationId: 'home',
        'x-django-view': true,
        responses: {
          '302': { description: 'away', headers: { Location: { schema: { type: 'string', const: '/api/v1/thing' } } } },
        },
      },
    },
    '/api/v1/sorted': {
      get: {
        operationId: 'listSorted',
        'x-queryset': { filter: { active: true }, ordering: ['-rank'] },
        responses: ok(page('Sorted')),
      },
      post: {
        operationId: 'createSorted',
        requestBody: { content: json(ref('Sorted')) },
        responses: ok(ref('Sorted')),
      },
    },
    '/api/v1/sorted/{pk}': { parameters: pk, get: { operationId: 'getSorted', responses: ok(ref('Sorted')) } },
    '/api/v1/row': { get: { operationId: 'listRows', responses: ok(page('Row')) } },
    '/api/v1/row/{pk}': { parameters: pk, get: { operationId: 'getRow', responses: ok(ref('Row')) } },
  },
  components: {
    securitySchemes: { token: { type: 'apiKey', in: 'header', name: 'Authorization' } },
    schemas: {
      ThingList: page('Thing'),
      Thing: {
        type: 'object',
        properties: {
          url: { type: 'string', readOnly: true },
          pk: { type: 'integer', readOnly: true },
          name: { type: 'string' },
          secret: { type: 'string', writeOnly: true },
          size: { type: 'integer', default: 3 },
        },
      },
      Sorted: {
        type: 'object',
        properties: { pk: { type: 'integer' }, rank: { type: 'integer' }, active: { type: 'boolean' } },
      },
      Row: { type: 'object', properties: { name: { type: 'string' } } },
    },
  },
};

export const THINGS = [
  { pk: 1, name: 'one', size: 1 },
  { pk: 2, name: 'two', secret: 'hush', size: 2 },
  { pk: 10, name: 'ten', size: 10 },
];
export const SORTED = [
  { pk: 1, rank: 1, active: true },
  { pk: 2, rank: 3, active: true },
  { pk: 3, rank: 2, active: false },
  { pk: 4, rank: 3, active: true },
];
export const ROWS = [{ name: 'a' }, { name: 'b' }];

const collection = (items: readonly unknown[], extra: Partial<SnapshotCollection> = {}): SnapshotCollection => ({
  source: 'fixture',
  from: 'test',
  items,
  examples: {},
  ...extra,
});

/** The tiny spec compiled with its collections' items (each replaceable) and bodies. */
export function tinyModel(
  collections: Record<string, SnapshotCollection> = {},
  extra: { spec?: Record<string, unknown>; generatedBodies?: Record<string, unknown> } = {},
): Model {
  return compileSnapshot({
    format: SNAPSHOT_FORMAT,
    spec: extra.spec ?? TINY_SPEC,
    collections: {
      '/api/v1/thing': collection(THINGS, {
        examples: { two: EXAMPLE_TWO, none: [] },
        dynamic: [{ pk: 100, name: 'made up', size: 5 }],
      }),
      '/api/v1/sorted': collection(SORTED),
      '/api/v1/row': collection(ROWS),
      ...collections,
    },
    generatedBodies: { '#/paths/~1api~1v1~1thing~1report/get 200': { total: 3 }, ...extra.generatedBodies },
    fixtureBodies: { '#/paths/~1api~1v1~1export/get': 'pk,name\n1,one\n' },
  });
}
