import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readOperations } from '../../../src/openapi/operations.js';
import { loadState } from '../../../src/load/state.js';
import { ask, coreOf } from '../../helpers.js';
import { listEnvelope, schemaRef, thingListSpec } from '../../spec-parts.js';

const ROOM = {
  type: 'object',
  required: ['pk', 'name'],
  properties: { pk: { type: 'integer' }, name: { type: 'string' } },
  examples: [{ pk: 1, name: 'Boardroom' }],
};
const okList = {
  description: 'One page.',
  content: {
    'application/json': {
      schema: listEnvelope(schemaRef('Room')),
    },
  },
};

// OpenAPI 3.1 lets a Path Item be a `$ref` (components.pathItems): its operations are the target's.
const PATH_ITEM_SPEC = {
  openapi: '3.1.0',
  info: { title: 'Path Item refs', version: '1' },
  paths: {
    '/api/v1/room': { $ref: '#/components/pathItems/Rooms' },
    '/api/v1/room/{pk}': { $ref: '#/components/pathItems/Room' },
  },
  components: {
    schemas: { Room: ROOM },
    pathItems: {
      Rooms: {
        get: { operationId: 'listRooms', responses: { '200': okList } },
        post: {
          operationId: 'createRoom',
          requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Room' } } } },
          responses: {
            '201': {
              description: 'Created.',
              content: { 'application/json': { schema: { $ref: '#/components/schemas/Room' } } },
            },
          },
        },
      },
      Room: {
        parameters: [{ name: 'pk', in: 'path', required: true, schema: { type: 'integer' } }],
        get: {
          operationId: 'getRoom',
          responses: {
            '200': {
              description: 'One room.',
              content: { 'application/json': { schema: { $ref: '#/components/schemas/Room' } } },
            },
          },
        },
      },
    },
  },
};

describe('readOperations', () => {
  it('reads a Path Item that is a $ref from its target: the collection, its POST and its item path are served', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'path-item-ref-'));
    await mkdir(path.join(dir, 'fixtures'));
    await writeFile(path.join(dir, 'openapi.json'), JSON.stringify(PATH_ITEM_SPEC));
    const state = await loadState({
      specFile: path.join(dir, 'openapi.json'),
      fixturesDir: path.join(dir, 'fixtures'),
      seed: 1,
      defaultGenerateCount: 3,
    });
    const list = state.model.collections.get('/api/v1/room');
    expect(list?.list).toMatchObject({
      operationId: 'listRooms',
      pointer: '#/components/pathItems/Rooms/get',
      itemPointer: '#/components/schemas/Room',
    });
    const route = state.model.operations.routes.find((r) => r.path === '/api/v1/room');
    expect([...(route?.methods.keys() ?? [])]).toEqual(['GET', 'POST']);
    expect(state.model.operations.detailOf.get('/api/v1/room')).toMatchObject({
      operationId: 'getRoom',
      pkParam: 'pk',
      pkIsInteger: true,
    });
    const core = coreOf(state);
    expect(JSON.parse(ask(core, '/api/v1/room').body.toString())).toMatchObject({
      count: 1,
      results: [{ pk: 1, name: 'Boardroom' }],
    });
    expect(JSON.parse(ask(core, '/api/v1/room/1').body.toString())).toEqual({ pk: 1, name: 'Boardroom' });
  });

  it('an operation that is a dangling $ref is read with its defaults, not a crash (validation says why)', () => {
    const doc = structuredClone(PATH_ITEM_SPEC) as Record<string, unknown>;
    const room = (doc.components as { pathItems: { Room: Record<string, unknown> } }).pathItems.Room;
    room.put = { $ref: '#/components/nowhere' };
    const { operations } = readOperations(doc, 'openapi.json');
    expect(operations.writes.find((w) => w.method === 'PUT')).toMatchObject({
      operationId: 'put /api/v1/room/{pk}',
      summary: '',
      bodyPointer: undefined,
    });
  });

  it('a path with a lone `%` (not percent-encoding) is read as written, not a URIError', () => {
    const doc = structuredClone(PATH_ITEM_SPEC) as {
      paths: Record<string, unknown>;
      components: { pathItems: Record<string, unknown> };
    };
    doc.paths = { '/api/v1/100%': doc.components.pathItems.Rooms };
    const { operations, problems } = readOperations(doc, 'openapi.json');
    expect(problems).toEqual([]);
    expect(operations.lists.map((l) => [l.path, l.pointer, l.itemPointer])).toEqual([
      ['/api/v1/100%', '#/paths/~1api~1v1~1100%/get', '#/components/schemas/Room'],
    ]);
  });
});

/** A document with one collection `/api/v1/thing` (its list operation `list` merged in) and the paths given. */
function thingSpec(
  list: Record<string, unknown> = {},
  paths: Record<string, unknown> = {},
  top: Record<string, unknown> = {},
) {
  const thing: Record<string, unknown> = { type: 'object', properties: { pk: { type: 'integer' } } };
  return {
    ...thingListSpec(
      { type: 'object', properties: { results: { type: 'array', items: schemaRef('Thing') } } },
      {
        list,
        paths,
        top,
      },
    ),
    components: { schemas: { Thing: thing } },
  };
}
const LIST = '/paths/~1api~1v1~1thing/get';
const problemsOf = (doc: Record<string, unknown>) =>
  readOperations(doc, 'openapi.yaml').problems.map((p) => `${p.file} ${p.pointer}: ${p.reason}`);

describe('readOperations: what the spec says that the stub cannot take is a problem, placed', () => {
  it.each<[string, Record<string, unknown>, Record<string, unknown>, string[]]>([
    ['a valid spec', {}, {}, []],
    [
      'x-queryset that is no object',
      { 'x-queryset': [] },
      {},
      [`openapi.yaml ${LIST}/x-queryset: must be an object with filter, ordering and anonymous`],
    ],
    [
      'every member of x-queryset wrong',
      { 'x-queryset': { filter: 1, ordering: ['-'], anonymous: 'some', anonymousModel: '', limit: 3 } },
      {},
      [
        `openapi.yaml ${LIST}/x-queryset/filter: must be an object of item members and the value each must have`,
        `openapi.yaml ${LIST}/x-queryset/ordering: must be a list of item fields, each "-field" for descending`,
        `openapi.yaml ${LIST}/x-queryset/anonymous: must be "none" (an anonymous client sees no item) or "all"`,
        `openapi.yaml ${LIST}/x-queryset/anonymousModel: must name a model, such as "Expense"`,
        `openapi.yaml ${LIST}/x-queryset/limit: unknown member: x-queryset has filter, ordering, anonymous and anonymousModel`,
      ],
    ],
    [
      'x-stub-fixture that leaves the folder',
      { 'x-stub-fixture': '../secret' },
      {},
      [
        `openapi.yaml ${LIST}/x-stub-fixture: must name a fixture file of the fixtures folder, such as "desk" or "desk.json" (letters, digits, ".", "_", "-")`,
      ],
    ],
    ['a path that declares no operation: not routed, no problem', {}, { '/api/v1/other': { summary: 's' } }, []],
  ])('%s', (_name, list, paths, want) => {
    expect(problemsOf(thingSpec(list, paths))).toEqual(want);
  });

  it.each<[string, unknown, string[]]>([
    ['0', 0, []],
    ['100000', 100_000, []],
    ['-1', -1, ['openapi.yaml /components/schemas/Thing/x-stub-count: must be an integer from 0 to 100000']],
    ['1.5', 1.5, ['openapi.yaml /components/schemas/Thing/x-stub-count: must be an integer from 0 to 100000']],
    ['100001', 100_001, ['openapi.yaml /components/schemas/Thing/x-stub-count: must be an integer from 0 to 100000']],
    ['"5"', '5', ['openapi.yaml /components/schemas/Thing/x-stub-count: must be an integer from 0 to 100000']],
  ])('x-stub-count %s', (_name, count, want) => {
    const doc = thingSpec();
    (doc.components.schemas.Thing as Record<string, unknown>)['x-stub-count'] = count;
    expect(problemsOf(doc)).toEqual(want);
    const list = readOperations(doc, 'openapi.yaml').operations.lists[0];
    expect(list?.generateCount).toBe(want.length === 0 ? count : typeof count === 'number' ? count : undefined);
  });

  it.each<[string, string, string]>([
    ['PUT', '/api/v1/thing', "PUT on a collection path: DRF's router routes PUT to the item path (/api/v1/thing/{pk})"],
    [
      'DELETE',
      '/api/v1/thing',
      "DELETE on a collection path: DRF's router routes DELETE to the item path (/api/v1/thing/{pk})",
    ],
    ['POST', '/api/v1/thing/{pk}', "POST on an item path: DRF's router routes POST to the collection (/api/v1/thing)"],
  ])('%s on %s: a problem where the operation stands', (method, p, reason) => {
    const doc = thingSpec();
    const item = (doc.paths as Record<string, Record<string, unknown>>)[p] ?? {};
    item[method.toLowerCase()] = { responses: { '200': { description: 'ok' } } };
    (doc.paths as Record<string, unknown>)[p] = item;
    const pointer = `/paths/${p.replaceAll('/', '~1')}/${method.toLowerCase()}`;
    expect(problemsOf(doc)).toEqual([`openapi.yaml ${pointer}: ${reason}`]);
  });
});

describe('readOperations: a collection as the spec declares it', () => {
  const list = (extra: Record<string, unknown>, top: Record<string, unknown> = {}) =>
    readOperations(thingSpec(extra, {}, top), 'openapi.yaml').operations.lists[0];

  it.each<[string, Record<string, unknown>, Record<string, unknown>]>([
    [
      'defaults',
      {},
      {
        operationId: 'listThings',
        resource: 'thing',
        itemName: 'Thing',
        modelName: 'Thing',
        viewName: undefined,
        viewDescription: '',
        fixtureName: undefined,
        formats: undefined,
        renderers: undefined,
        anonymous: true,
        djangoView: false,
        queryset: { filter: undefined, ordering: [], anonymous: 'all', anonymousModel: undefined },
      },
    ],
    ['no operationId: method and path', { operationId: undefined }, { operationId: 'get /api/v1/thing' }],
    [
      'x-queryset',
      {
        'x-queryset': {
          filter: { active: true },
          ordering: ['-floor', 'number'],
          anonymous: 'none',
          anonymousModel: 'Expense',
        },
      },
      {
        queryset: {
          filter: { active: true },
          ordering: [
            { field: 'floor', desc: true },
            { field: 'number', desc: false },
          ],
          anonymous: 'none',
          anonymousModel: 'Expense',
        },
      },
    ],
    [
      'x-stub-fixture, x-model-name, x-view-name, x-view-description',
      { 'x-stub-fixture': 'things.json', 'x-model-name': 'Item', 'x-view-name': 'Stuff', 'x-view-description': 'Doc.' },
      { fixtureName: 'things', modelName: 'Item', viewName: 'Stuff', viewDescription: 'Doc.' },
    ],
    [
      'a format parameter with its media types',
      {
        parameters: [
          {
            name: 'format',
            in: 'query',
            schema: { enum: ['json', 'api', 'csv'], 'x-media-types': { api: 'text/html' } },
          },
          { name: 'page', in: 'query', schema: { type: 'integer' } },
          { name: 'X-Trace', in: 'header', schema: { type: 'string' } },
        ],
      },
      {
        formats: ['json', 'api', 'csv'],
        renderers: [
          { format: 'json', mediaType: 'application/json' },
          { format: 'api', mediaType: 'text/html' },
          { format: 'csv', mediaType: 'application/json' },
        ],
        queryParams: {
          format: `#${LIST}/parameters/0/schema`,
          page: `#${LIST}/parameters/1/schema`,
        },
      },
    ],
    ['security of its own: a token', { security: [{ token: [] }] }, { anonymous: false }],
    ['security with {} among them (AllowAny)', { security: [{ token: [] }, {}] }, { anonymous: true }],
    ['security empty', { security: [] }, { anonymous: true }],
    ['x-django-view', { 'x-django-view': true }, { djangoView: true }],
  ])('%s', (_name, extra, want) => {
    expect(list(extra)).toMatchObject(want);
  });

  it("the document's security, where the operation has none of its own", () => {
    expect(list({}, { security: [{ token: [] }] })?.anonymous).toBe(false);
    expect(list({ security: [{}] }, { security: [{ token: [] }] })?.anonymous).toBe(true);
  });
});

describe('readOperations: declared responses', () => {
  const responses = (r: Record<string, unknown>) =>
    readOperations(thingSpec({}, { '/api/v1/view': { get: { operationId: 'view', responses: r } } }), 'f').operations
      .customs[0]?.responses;
  const P = '#/paths/~1api~1v1~1view/get/responses';

  it.each<[string, Record<string, unknown>, Record<string, unknown>]>([
    [
      'JSON preferred among the media types, its schema and named examples',
      {
        '200': {
          description: 'ok',
          content: {
            'text/html': { schema: { type: 'string' } },
            'application/json': {
              schema: { type: 'object' },
              examples: { one: { value: { a: 1 } }, bare: { summary: 's' } },
            },
          },
        },
      },
      {
        '200': {
          status: '200',
          mediaType: 'application/json',
          schemaPointer: `${P}/200/content/application~1json/schema`,
          examples: { one: { a: 1 } },
          headers: {},
        },
      },
    ],
    [
      'a +json type, with a single example',
      {
        '400': {
          description: 'bad',
          content: { 'application/problem+json': { schema: { type: 'object' }, example: { title: 'x' } } },
        },
      },
      {
        '400': {
          status: '400',
          mediaType: 'application/problem+json',
          schemaPointer: `${P}/400/content/application~1problem+json/schema`,
          examples: { default: { title: 'x' } },
          headers: {},
        },
      },
    ],
    [
      'no JSON: the first type, no schema pointer',
      { '200': { description: 'ok', content: { 'text/csv': { schema: { type: 'string' } } } } },
      { '200': { status: '200', mediaType: 'text/csv', schemaPointer: undefined, examples: {}, headers: {} } },
    ],
    [
      'no content',
      { '204': { description: 'gone' } },
      { '204': { status: '204', mediaType: undefined, schemaPointer: undefined, examples: {}, headers: {} } },
    ],
    [
      'headers that name their value: example, const, default, first of examples; lower-case names',
      {
        '302': {
          description: 'moved',
          headers: {
            Location: { example: '/api/' },
            'X-Const': { schema: { const: 'c' } },
            'X-Default': { schema: { default: 7 } },
            'X-Examples': { schema: { examples: ['e1', 'e2'] } },
            'X-None': { schema: { type: 'string' } },
            'X-Object': { example: { a: 1 } },
          },
        },
      },
      {
        '302': {
          status: '302',
          mediaType: undefined,
          schemaPointer: undefined,
          examples: {},
          headers: { location: '/api/', 'x-const': 'c', 'x-default': '7', 'x-examples': 'e1' },
        },
      },
    ],
  ])('%s', (_name, given, want) => {
    expect(responses(given)).toEqual(want);
  });
});

describe('readOperations: every path, routed as DRF and Django route it', () => {
  const ok = { responses: { '200': { description: 'ok' }, '302': { description: 'moved' } } };
  const doc = thingSpec(
    {},
    {
      '/api/v1/thing/{pk}': {
        parameters: [{ name: 'pk', in: 'path', required: true, schema: { type: 'integer' } }],
        get: { operationId: 'getThing', responses: {} },
        patch: {
          operationId: 'patchThing',
          requestBody: {
            content: {
              'multipart/form-data': {},
              'application/json': { schema: { $ref: '#/components/schemas/Thing' } },
            },
          },
          responses: { '200': { description: 'ok' } },
        },
      },
      '/api/v1/thing/{pk}/archive': {
        post: {
          operationId: 'archive',
          responses: { '302': { description: 'moved' }, '202': { description: 'later' } },
        },
      },
      '/api/v1/thing/recent': { get: { operationId: 'recent', ...ok } },
      '/api/': { get: { operationId: 'root', 'x-api-root': true, ...ok } },
      '/': { get: { operationId: 'home', 'x-django-view': true, responses: { '302': { description: 'moved' } } } },
      '/api/v1/nothing-declared': { parameters: [] },
    },
  );
  const { operations, problems } = readOperations(doc, 'openapi.yaml');

  it('no problem; the routes in DefaultRouter’s order: list, list actions, detail, detail actions, then views', () => {
    expect(problems).toEqual([]);
    expect(operations.routes.map((r) => [r.kind, r.path, r.urlPath, [...r.methods.keys()].join()])).toEqual([
      ['list', '/api/v1/thing', '', 'GET'],
      ['list-action', '/api/v1/thing/recent', 'recent', 'GET'],
      ['detail', '/api/v1/thing/{pk}', '', 'GET,PATCH'],
      ['detail-action', '/api/v1/thing/{pk}/archive', 'archive', 'POST'],
      ['view', '/', '', 'GET'],
    ]);
    expect(operations.root).toMatchObject({ path: '/api/', operationId: 'root' });
  });

  it('a path belongs to the longest collection path it continues (a collection registered under another)', () => {
    const list = (operationId: string) => ({
      get: {
        operationId,
        responses: {
          '200': {
            description: 'ok',
            content: {
              'application/json': {
                schema: { properties: { results: { type: 'array', items: { $ref: '#/components/schemas/Thing' } } } },
              },
            },
          },
        },
      },
    });
    const pk = { parameters: [{ name: 'pk', in: 'path', required: true, schema: { type: 'integer' } }] };
    const nested = readOperations(
      thingSpec(
        {},
        {
          '/api/v1/thing/part': list('listParts'),
          '/api/v1/thing/part/{pk}': { ...pk, get: { operationId: 'getPart', responses: {} } },
          '/api/v1/thing/{pk}': { ...pk, get: { operationId: 'getThing', responses: {} } },
          '/api/v1/thing/part/{pk}/fit': { ...pk, post: { operationId: 'fit', ...ok } },
        },
      ),
      'openapi.yaml',
    ).operations;
    expect(nested.routes.map((r) => [r.kind, r.path, r.collectionPath])).toEqual(
      expect.arrayContaining([
        ['detail', '/api/v1/thing/part/{pk}', '/api/v1/thing/part'],
        ['detail', '/api/v1/thing/{pk}', '/api/v1/thing'],
        ['detail-action', '/api/v1/thing/part/{pk}/fit', '/api/v1/thing/part'],
      ]),
    );
  });

  it('the detail: its pk parameter, an integer; without a 200 schema of its own, the collection’s item', () => {
    expect(operations.detailOf.get('/api/v1/thing')).toMatchObject({
      kind: 'detail',
      pkParam: 'pk',
      pkIsInteger: true,
      itemPointer: '#/components/schemas/Thing',
    });
    expect(operations.all.map((o) => o.operationId)).toEqual(['listThings', 'getThing']);
  });

  it('a write: its body, JSON preferred, and every media type declared', () => {
    expect(
      operations.writes.map((w) => [w.operationId, w.target, w.collectionPath, w.bodyPointer, w.bodyTypes]),
    ).toEqual([
      [
        'patchThing',
        'detail',
        '/api/v1/thing',
        '#/components/schemas/Thing',
        ['multipart/form-data', 'application/json'],
      ],
    ]);
  });

  it('actions and views: their scope, collection and declared success (the first 2xx, else the first 3xx)', () => {
    expect(
      operations.customs.map((c) => [
        c.operationId,
        c.scope,
        c.collectionPath,
        c.resource,
        c.success?.status,
        c.djangoView,
      ]),
    ).toEqual([
      ['archive', 'detail-action', '/api/v1/thing', 'thing', '202', false],
      ['recent', 'list-action', '/api/v1/thing', 'thing', '200', false],
      ['home', 'view', undefined, 'root', '302', true],
    ]);
  });
});
