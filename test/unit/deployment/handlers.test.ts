import { describe, expect, it } from 'vitest';
import type {
  CollectionAccess,
  HandlerAnswer,
  HandlerContext,
  HandlerRequest,
} from '../../../src/core/stub/handler-types.js';
import { pythonInt } from '../../../src/core/python/int.js';
import { deploymentHandlers } from '../../../src/deployment/handlers.js';

/** A request for `pk`, by a logged-in client (`user`) or an anonymous one. */
const request = (user: boolean, pk: string): HandlerRequest =>
  ({
    method: 'GET',
    path: `/x/${pk}`,
    operationId: 'x',
    params: { pk },
    query: {},
    queryAll: {},
    body: undefined,
    header: () => undefined,
    user,
  }) as HandlerRequest;

/** A context over collections of the items given (looked up by pk as text, as the stub's own does). */
function context(items: Record<string, readonly { pk: number }[]>): HandlerContext {
  const collection = (name: string): CollectionAccess => {
    const of = items[name];
    if (!of) throw new Error(`no collection ${name}`);
    const access: Pick<CollectionAccess, 'get' | 'lookup' | 'represent'> = {
      get: (pk) => of.find((i) => String(i.pk) === String(pk)),
      // The core's reading of an integer pk (test/unit/core/stub/handlers.test.ts).
      lookup: (text) => pythonInt(text)?.toString(),
      represent: (item) => ({ url: `http://stub/${name}/${String(item.pk)}`, ...item }),
    };
    return access as CollectionAccess;
  };
  return {
    collection,
    ok: (body, status = 200) => ({ status, body }),
    notFound: (detail = 'Not found.') => ({ status: 404, body: { detail } }),
    error: (status, detail) => ({ status, body: { detail } }),
  } as HandlerContext;
}

const DENIED = { status: 403, body: { detail: 'You do not have permission to perform this action.' } };
const ctx = context({ mealstop: [{ pk: 1 }, { pk: 2 }], teleworkapplication: [{ pk: 7 }] });
const answer = async (name: string, user: boolean, pk: string): Promise<HandlerAnswer | undefined> => {
  const handler = deploymentHandlers[name];
  if (!handler) throw new Error(`no handler ${name}`);
  return handler(request(user, pk), ctx);
};

describe("the deployment's own viewsets: what the bundled spec cannot say", () => {
  it('handles exactly these operations', () => {
    expect(Object.keys(deploymentHandlers).sort()).toEqual([
      'destroyMealStop',
      'getMealStop',
      'getReview',
      'getTeleworkApplication',
      'partialUpdateMealStop',
      'updateMealStop',
    ]);
  });

  it.each<[string, boolean, string, HandlerAnswer | undefined]>([
    // PerformanceReviewViewSet.retrieve: an anonymous client gets a bare 403, whatever the pk.
    ['getReview', false, '1', { status: 403 }],
    ['getReview', false, 'none', { status: 403 }],
    ['getReview', true, '1', undefined],
    // MealStopViewSet: every detail action on a stop a logged-in client sees is 403.
    ...(['getMealStop', 'updateMealStop', 'partialUpdateMealStop', 'destroyMealStop'] as const).flatMap(
      (name): [string, boolean, string, HandlerAnswer | undefined][] => [
        [name, true, '2', DENIED],
        // The AutoField reads the pk with int(): `02` and `٢` (U+0662) are stop 2.
        [name, true, '02', DENIED],
        [name, true, '\u0662', DENIED],
        [name, true, ' +2_0 ', undefined],
        [name, true, '9', undefined],
        [name, false, '2', undefined],
      ],
    ),
    // TeleworkApplicationViewSet: an anonymous retrieve looks in every application.
    ['getTeleworkApplication', true, '7', undefined],
    ['getTeleworkApplication', false, '7', { status: 200, body: { url: 'http://stub/teleworkapplication/7', pk: 7 } }],
    ['getTeleworkApplication', false, '07', { status: 200, body: { url: 'http://stub/teleworkapplication/7', pk: 7 } }],
    [
      'getTeleworkApplication',
      false,
      '\t7 ',
      { status: 200, body: { url: 'http://stub/teleworkapplication/7', pk: 7 } },
    ],
    [
      'getTeleworkApplication',
      false,
      '8',
      { status: 404, body: { detail: 'No TeleworkApplication matches the given query.' } },
    ],
    // Not a number Python's int() takes: Django's ValueError, "Not found.".
    ['getTeleworkApplication', false, 'abc', { status: 404, body: { detail: 'Not found.' } }],
    ['getTeleworkApplication', false, '7.0', { status: 404, body: { detail: 'Not found.' } }],
    ['getTeleworkApplication', false, '', { status: 404, body: { detail: 'Not found.' } }],
  ])('%s, logged in %j, pk %j', async (name, user, pk, want) => {
    expect(await answer(name, user, pk)).toEqual(want);
  });
});
