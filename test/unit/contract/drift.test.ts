import { describe, expect, it } from 'vitest';
import { DriftCollector } from '../../../src/contract/drift.js';
import { parseExact } from '../../../src/contract/json.js';
import { Redactor } from '../../../src/contract/redact.js';
import type { EndpointResult } from '../../../src/contract/report.js';
import { BaseScope } from '../../../src/contract/scope.js';
import type { ListOperation } from '../../../src/openapi/operations.js';
import { bundledContract, desk, DESKS } from './fake-deployment.js';
import { endpointResult } from './results.js';

const contract = await bundledContract();
const desks = contract.operations.lists.find((l) => l.path === DESKS) as ListOperation;
const employees = contract.operations.lists.find((l) => l.resource === 'employee') as ListOperation;
const A = 'https://prod.test';
const B = 'https://staging.test/workplace';

interface Side {
  items: unknown[];
  result?: Partial<EndpointResult>;
}

/** Both deployments' desks seen page by page (A first, then B), and the drift reported. */
async function drift(a: Side, b: Side, lists: ListOperation[] = [desks], failOnDrift = false) {
  const c = new DriftCollector(contract, new BaseScope(A), new BaseScope(B), new Redactor([]));
  await c.observerA.items?.(desks, a.items, { number: 1, hasNext: false });
  await c.observerB.items?.(desks, b.items, { number: 1, hasNext: false });
  const result = (side: Side) => endpointResult({ count: side.items.length, ...side.result });
  const report = c.report([result(a)], [result(b)], lists, failOnDrift);
  return { report, found: report.violations.map((v) => [v.rule, v.url, v.pointer, v.expected, v.found]) };
}

const at = (base: string, pks: number[]) => pks.map((pk) => desk(pk, base));

describe('DriftCollector: what differs between two deployments', () => {
  it('the same items under other bases do not differ (urls compared without their base)', async () => {
    const { report, found } = await drift({ items: at(A, [1, 2]) }, { items: at(B, [2, 1]) });
    expect(found).toEqual([]);
    expect(report).toMatchObject({ baseA: A, baseB: B, omitted: 0, failOnDrift: false });
    expect(report.collections).toEqual([{ endpoint: `GET ${DESKS}`, operationId: desks.operationId, path: DESKS }]);
  });

  it.each<[string, Side, Side, unknown[][]]>([
    [
      'a field that differs',
      { items: at(A, [1]) },
      { items: [{ ...desk(1, B), floor: 7 }] },
      [['drift.items', `${DESKS} (pk=1)`, '/floor', '1', '7']],
    ],
    [
      'an item on one side only, both crawled to the end',
      { items: at(A, [1, 2]) },
      { items: at(B, [1, 3]) },
      [
        ['drift.items', `${DESKS} (pk=2)`, '', 'present', 'absent'],
        ['drift.items', `${DESKS} (pk=3)`, '', 'absent', 'present'],
      ],
    ],
    [
      'one side not crawled to the end: nothing is missing',
      { items: at(A, [1, 2]) },
      { items: at(B, [1]), result: { reachedEnd: false } },
      [['drift.count', DESKS, '/count', '2', '1']],
    ],
    [
      'a field on one side only',
      { items: at(A, [1]) },
      { items: [{ ...desk(1, B), extra: true }] },
      [
        ['drift.items', `${DESKS} (pk=1)`, '/extra', 'nothing', 'true'],
        ['drift.fields', DESKS, '/results/*/extra', 'absent', 'present'],
      ],
    ],
    [
      'counts that differ',
      { items: at(A, [1]), result: { count: 9 } },
      { items: at(B, [1]) },
      [['drift.count', DESKS, '/count', '9', '1']],
    ],
    [
      'a collection served on one side only',
      { items: [] },
      { items: at(B, [1]), result: { pages: 0 } },
      [['drift.collections', DESKS, '', 'served', 'not served']],
    ],
    [
      'big pks compared by their text',
      { items: [parseExact('{"pk":9007199254740993,"floor":1}')] },
      { items: [parseExact('{"pk":9007199254740992,"floor":1}')] },
      [
        ['drift.items', `${DESKS} (pk=9007199254740993)`, '', 'present', 'absent'],
        ['drift.items', `${DESKS} (pk=9007199254740992)`, '', 'absent', 'present'],
      ],
    ],
    [
      'items without a pk: a multiset of their JSON',
      { items: [{ a: 1 }, { a: 1 }] },
      { items: [{ a: 1 }] },
      [
        ['drift.count', DESKS, '/count', '2', '1'],
        ['drift.items', `${DESKS} (json {"a":1} #2)`, '', 'present', 'absent'],
      ],
    ],
    [
      'what is not an item is passed over',
      { items: [null, 1, [desk(1, A)], desk(1, A)] },
      { items: [desk(1, B), 'x'] },
      [['drift.count', DESKS, '/count', '4', '2']],
    ],
  ])('%s', async (_name, a, b, want) => {
    expect((await drift(a, b)).found).toEqual(want);
  });

  it('a base counts only where it ends: a longer host is a value that differs', async () => {
    const { found } = await drift(
      { items: [{ ...desk(1, A), link: `${A}x/1` }] },
      { items: [{ ...desk(1, B), link: `${B}x/1` }] },
    );
    expect(found).toEqual([['drift.items', `${DESKS} (pk=1)`, '/link', `"${A}x/1"`, `"${B}x/1"`]]);
  });

  it('every collection asked for is in the report, seen or not; failOnDrift is carried', async () => {
    const { report } = await drift({ items: at(A, [1]) }, { items: at(B, [1]) }, [desks, employees], true);
    expect(report.collections.map((c) => c.path)).toEqual([DESKS, employees.path]);
    expect(report.failOnDrift).toBe(true);
  });
});
