import { describe, expect, it } from 'vitest';
import { Router } from '../../../../src/core/drf/routers.js';
import { readOperations } from '../../../../src/openapi/operations.js';
import { recordedTable } from '../recorded/recording.js';

const envelope = (item: string) => ({
  responses: {
    '200': {
      description: 'a page',
      content: {
        'application/json': {
          schema: {
            type: 'object',
            properties: { results: { type: 'array', items: { $ref: `#/components/schemas/${item}` } } },
          },
        },
      },
    },
  },
});
const ok = { responses: { '200': { description: 'ok' } } };

// A spec with what DRF's router and Django's URL patterns make of a viewset and its @actions.
const doc = {
  openapi: '3.1.0',
  paths: {
    '/api/': { get: { operationId: 'root', 'x-api-root': true, ...ok } },
    '/api/v1/employee': {
      get: { operationId: 'listEmployees', ...envelope('Employee') },
      post: { operationId: 'createEmployee', ...ok },
    },
    '/api/v1/employee/{pk}': {
      get: { operationId: 'getEmployee', ...ok },
      delete: { operationId: 'destroyEmployee', ...ok },
    },
    '/api/v1/employee/{pk}/direct_reports': { get: { operationId: 'directReports', ...ok } },
    '/api/v1/employee/simple_list': { get: { operationId: 'simpleList', ...ok } },
    '/api/v1/expense-month-lock': { get: { operationId: 'listLocks', ...envelope('Lock') } },
    '/api/v1/expense-month-lock/unlock': { delete: { operationId: 'unlock', ...ok } },
    '/api/v1/deskreservation': { get: { operationId: 'listReservations', ...envelope('Reservation') } },
    '/api/v1/deskreservation/{pk}': { get: { operationId: 'getReservation', ...ok } },
    '/api/v1/deskreservation/{pk}/cancel-reservation': { put: { operationId: 'cancel', ...ok } },
    '/api/v1/current-user/': { get: { operationId: 'currentUser', ...ok } },
    '/api/v1/things/{kind}/count': { get: { operationId: 'thingCount', ...ok } },
  },
  components: { schemas: { Employee: { type: 'object' }, Lock: { type: 'object' }, Reservation: { type: 'object' } } },
};

const { operations, problems } = readOperations(doc, 'spec.yaml');
const router = new Router(operations.routes, operations.root);

/** What the router resolves a path to: `root`, or the route's kind, its path and its parameters. */
function resolve(path: string): string {
  const m = router.match(path);
  if (m === undefined) return 'no match';
  const suffix = m.suffix === undefined ? '' : ` .${m.suffix}`;
  if (m.kind === 'root') return `root ${m.root.prefix}${suffix}`;
  return `${m.route.kind} ${m.route.path} [${m.params.join(', ')}]${suffix}`;
}

describe("the router resolves as Django resolves DefaultRouter's patterns", () => {
  it('reads the spec without a problem', () => {
    expect(problems).toEqual([]);
  });

  it.each([
    ['/api/', 'root /api/'],
    ['/api/.json', 'root /api/ .json'],
    ['/api/v1/', 'no match'],
    ['/api/v1/employee', 'list /api/v1/employee []'],
    ['/api/v1/employee.json', 'list /api/v1/employee [] .json'],
    ['/api/v1/employee.json/', 'list /api/v1/employee [] .json'],
    ['/api/v1/employee/', 'no match'],
    ['/api/v1/employee/7', 'detail /api/v1/employee/{pk} [7]'],
    ['/api/v1/employee/7.json', 'detail /api/v1/employee/{pk} [7] .json'],
    ['/api/v1/employee/abc', 'detail /api/v1/employee/{pk} [abc]'],
    // A list action is tried before the detail route: `simple_list` is never a pk.
    ['/api/v1/employee/simple_list', 'list-action /api/v1/employee/simple_list []'],
    ['/api/v1/employee/simple_list.json', 'list-action /api/v1/employee/simple_list [] .json'],
    ['/api/v1/employee/7/direct_reports', 'detail-action /api/v1/employee/{pk}/direct_reports [7]'],
    ['/api/v1/employee/7/direct_reports.json', 'detail-action /api/v1/employee/{pk}/direct_reports [7] .json'],
    ['/api/v1/employee/7/nosuch', 'no match'],
    // The suffix pattern reads `.b` as a format (which negotiation then refuses: 404).
    ['/api/v1/employee/a.b', 'detail /api/v1/employee/{pk} [a] .b'],
    ['/api/v1/expense-month-lock/unlock', 'list-action /api/v1/expense-month-lock/unlock []'],
    ['/api/v1/expense-month-lock/9', 'no match'],
    [
      '/api/v1/deskreservation/3/cancel-reservation',
      'detail-action /api/v1/deskreservation/{pk}/cancel-reservation [3]',
    ],
    ['/api/v1/current-user/', 'view /api/v1/current-user/ []'],
    // A view has no format-suffix pattern.
    ['/api/v1/current-user.json', 'no match'],
    ['/api/v1/current-user', 'no match'],
    ['/api/v1/things/a.b/count', 'view /api/v1/things/{kind}/count [a.b]'],
  ])('%s → %s', (path, want) => {
    expect(resolve(path)).toBe(want);
  });

  it('without a declared root, a root per folder of collections', () => {
    const bare = { ...doc, paths: Object.fromEntries(Object.entries(doc.paths).filter(([p]) => p !== '/api/')) };
    const r = readOperations(bare, 'spec.yaml').operations;
    const folders = new Router(r.routes, r.root);
    expect(folders.match('/api/v1/')?.kind).toBe('root');
    expect(folders.match('/api/')).toBeUndefined();
  });

  it("what DRF's router cannot route is a problem of the spec", () => {
    const bad = {
      ...doc,
      paths: {
        ...doc.paths,
        '/api/v1/deskreservation': {
          ...doc.paths['/api/v1/deskreservation'],
          put: { operationId: 'replaceAll', ...ok },
        },
        '/api/v1/deskreservation/{pk}': {
          ...doc.paths['/api/v1/deskreservation/{pk}'],
          post: { operationId: 'postItem', ...ok },
        },
      },
    };
    expect(readOperations(bad, 'spec.yaml').problems.map((p) => p.reason)).toEqual([
      "PUT on a collection path: DRF's router routes PUT to the item path (/api/v1/deskreservation/{pk})",
      "POST on an item path: DRF's router routes POST to the collection (/api/v1/deskreservation)",
    ]);
  });
});

const { cases, replay } = recordedTable('drf/routers.json');

describe('the router, as the reference deployment answers (recorded in ../recorded/drf/routers.json)', () => {
  it.each(cases)('%s', async (_name, given, want) => expect(await replay(given)).toEqual(want));
});
