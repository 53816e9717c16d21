// Every rule of the catalogue, caught: one row per rule, each a deployment broken for that rule
// (the stub's own answers with one thing changed, or a small server of the row's own), run by the
// checker, and the violation the row expects. A rule no row breaks fails the first test.
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CheckOptions, runCheck } from '../../src/contract/checker.js';
import { runCompare } from '../../src/contract/compare.js';
import { type Contract, loadContract } from '../../src/contract/load.js';
import {
  ANSWER_RULES,
  CRAWL_RULES,
  DRIFT_RULES,
  ITEM_RULES,
  ITEM_URL_RULES,
  PROBE_RULES,
  RULES,
  type RuleId,
  type Violation,
} from '../../src/contract/rules.js';
import { FIXTURES, makeApp, SPEC } from '../helpers.js';
import { deployment, type Handler, sendJson, stubAnswer, stubbed } from './deployments.js';

const ids = Object.keys(RULES) as RuleId[];

// fixtures/desk.json: the deployment lists its active desks, 190 of 192.
const LISTED = (JSON.parse(readFileSync(`${FIXTURES}/desk.json`, 'utf8')) as { active: boolean }[]).filter(
  (d) => d.active,
).length;
const PAGE_SIZE = 25;
const PAGES = Math.ceil(LISTED / PAGE_SIZE);

let contract: Contract;
let stub: FastifyInstance;
/** The pk of the first desk listed (the deployment orders desks by building, floor, number). */
let firstPk: number;
beforeAll(async () => {
  contract = await loadContract(SPEC);
  // 190 desks on pages of 25: eight pages, the last of 15.
  stub = await makeApp({ pageSize: PAGE_SIZE });
  const first = (await stub.inject('/api/v1/desk')).json<{ results: { pk: number }[] }>();
  firstPk = first.results[0]?.pk ?? NaN;
});
afterAll(async () => {
  await stub.close();
});

type Answer = { status: number; headers: Record<string, string>; body: string };
type Page = { count: number; next: string | null; previous: string | null; results: Record<string, unknown>[] };

const urlOf = (req: IncomingMessage) => new URL(req.url ?? '/', 'http://x');
const isList = (req: IncomingMessage) => urlOf(req).pathname === '/api/v1/desk';
const pageOf = (req: IncomingMessage) => (isList(req) ? (urlOf(req).searchParams.get('page') ?? '1') : undefined);

/** The stub's answers, with `edit` applied to those it picks. */
const edited =
  (edit: (a: Answer, req: IncomingMessage) => void): (() => Handler) =>
  () =>
    stubbed(stub, edit);

/** The stub's answers, a list page's body changed by `change` (`page`: which one, all when absent). */
const pageEdited = (page: string | undefined, change: (body: Page, req: IncomingMessage) => void) =>
  edited((a, req) => {
    if (pageOf(req) === undefined || (page !== undefined && pageOf(req) !== page)) return;
    const body = JSON.parse(a.body) as Page;
    change(body, req);
    a.body = JSON.stringify(body);
  });

/** The stub answering, for each request, the one `map` makes of its url (a 404 answered as a 200). */
const answeredAs =
  (map: (url: URL) => string | undefined): (() => Handler) =>
  () =>
  async (req: IncomingMessage, res: ServerResponse) => {
    const a = await stubAnswer(stub, req, map(urlOf(req)) ?? req.url);
    res.writeHead(a.status, a.headers).end(req.method === 'HEAD' ? undefined : a.body);
  };

/** A handler of the row's own, the stub's answers otherwise. */
const own =
  (special: (req: IncomingMessage, res: ServerResponse) => boolean): (() => Handler) =>
  () =>
  (req, res, ctx) => {
    if (!special(req, res)) return stubbed(stub)(req, res, ctx);
  };

interface Row {
  readonly rule: RuleId;
  /** What the deployment does wrong. */
  readonly broken: string;
  readonly deployment: () => Handler;
  /** The violation's JSON pointer. */
  readonly pointer: string;
  readonly options?: Partial<CheckOptions>;
  /** Drift: the deployment is the second of two, the first the stub as it is. */
  readonly drift?: true;
}

const ROWS: readonly Row[] = [
  // Every answer.
  {
    rule: 'transport',
    broken: 'page 2 resets the connection',
    deployment: own((req, res) => pageOf(req) === '2' && (res.destroy(), true)),
    pointer: '',
  },
  {
    rule: 'answer.size',
    broken: 'page 2 is larger than --max-body',
    deployment: edited((a, req) => {
      if (pageOf(req) === '2') a.body += ' '.repeat(70_000);
    }),
    options: { maxBody: 64 * 1024 },
    pointer: '',
  },
  {
    rule: 'status',
    broken: 'page 2 answers 500',
    deployment: edited((a, req) => {
      if (pageOf(req) === '2') a.status = 500;
    }),
    pointer: '',
  },
  {
    rule: 'content-type',
    broken: 'the first page is text/html',
    deployment: edited((a, req) => {
      if (pageOf(req) === '1') a.headers['content-type'] = 'text/html; charset=utf-8';
    }),
    pointer: '',
  },
  {
    rule: 'json',
    broken: 'page 2 stops half way',
    deployment: edited((a, req) => {
      if (pageOf(req) === '2') a.body = a.body.slice(0, 20);
    }),
    pointer: '',
  },
  {
    rule: 'schema',
    broken: 'a desk in building "AB"',
    deployment: pageEdited('1', (b) => {
      (b.results[0] as Record<string, unknown>).building = 'AB';
    }),
    pointer: '/results/0/building',
  },
  // The crawl of a collection.
  {
    rule: 'crawl.truncated',
    broken: 'eight pages, --max-pages 2',
    deployment: edited(() => undefined),
    options: { maxPages: 2 },
    pointer: '/next',
  },
  {
    rule: 'envelope.empty',
    broken: 'count 0 with an item',
    deployment: pageEdited('1', (b) => {
      Object.assign(b, { count: 0, next: null, results: b.results.slice(0, 1) });
    }),
    pointer: '/results',
  },
  {
    rule: 'envelope.single-page',
    broken: 'one page, count 3, two items',
    deployment: pageEdited('1', (b) => {
      Object.assign(b, { count: 3, next: null, results: b.results.slice(0, 2) });
    }),
    pointer: '/results',
  },
  {
    rule: 'envelope.first-previous',
    broken: "the first page's previous leads to page 2",
    deployment: pageEdited('1', (b) => {
      b.previous = b.next;
    }),
    pointer: '/previous',
  },
  {
    rule: 'envelope.count-stable',
    broken: 'page 2 counts one more',
    deployment: pageEdited('2', (b) => {
      b.count += 1;
    }),
    pointer: '/count',
  },
  {
    rule: 'envelope.count-reached',
    broken: `every page counts ${LISTED + 1} of ${LISTED} desks`,
    deployment: pageEdited(undefined, (b) => {
      b.count = LISTED + 1;
    }),
    pointer: '/count',
  },
  {
    rule: 'envelope.duplicate-item',
    broken: "page 2's second desk is its first again",
    deployment: pageEdited('2', (b) => {
      b.results[1] = b.results[0] as Record<string, unknown>;
    }),
    pointer: '/results/1',
  },
  {
    rule: 'envelope.previous-back',
    broken: "page 3's previous leads to page 1",
    deployment: pageEdited('3', (b) => {
      b.previous = (b.previous ?? '').replace(/&page=2$/, '');
    }),
    pointer: '/previous',
  },
  {
    rule: 'envelope.next-loop',
    broken: "page 2's next leads back to page 1",
    deployment: pageEdited('2', (b) => {
      b.next = b.previous;
    }),
    pointer: '/next',
  },
  {
    rule: 'urls.base',
    broken: "the first page's next leads to another host",
    deployment: pageEdited('1', (b) => {
      b.next = 'http://elsewhere.invalid/api/v1/desk?format=api&page=2';
    }),
    pointer: '/next',
  },
  // Items.
  {
    rule: 'item.fields',
    broken: 'a desk without floor',
    deployment: pageEdited('1', (b) => {
      delete (b.results[0] as Record<string, unknown>).floor;
    }),
    pointer: '/results/0/floor',
  },
  {
    rule: 'item-url.shape',
    broken: "a desk's url without ?format=api",
    deployment: pageEdited('1', (b) => {
      const d = b.results[0] as Record<string, string>;
      d.url = (d.url ?? '').replace('?format=api', '');
    }),
    pointer: '/results/0/url',
  },
  {
    rule: 'item-url.pk',
    broken: "the first desk's url is the second's",
    deployment: pageEdited('1', (b) => {
      (b.results[0] as Record<string, unknown>).url = (b.results[1] as Record<string, unknown>).url;
    }),
    pointer: '/results/0/url',
  },
  {
    rule: 'item-url.addressable',
    broken: "the first desk's url answers 404",
    deployment: edited((a, req) => {
      if (urlOf(req).pathname === `/api/v1/desk/${firstPk}`) a.status = 404;
    }),
    pointer: '',
  },
  {
    rule: 'item-url.detail-equals',
    broken: 'the first desk at its url has another number',
    deployment: edited((a, req) => {
      if (urlOf(req).pathname === `/api/v1/desk/${firstPk}`)
        a.body = a.body.replace(/"number":"[^"]*"/, '"number":"999"');
    }),
    pointer: '/number',
  },
  // --probes: the error contract.
  {
    rule: 'probe.invalid-page',
    broken: 'page=0 answers the first page',
    deployment: answeredAs((u) => (u.searchParams.get('page') === '0' ? '/api/v1/desk?format=api' : undefined)),
    options: { probes: true },
    pointer: '',
  },
  {
    rule: 'probe.page-past-end',
    broken: `page ${PAGES + 1} of ${PAGES} answers the first page`,
    deployment: answeredAs((u) =>
      u.searchParams.get('page') === String(PAGES + 1) ? '/api/v1/desk?format=api' : undefined,
    ),
    options: { probes: true },
    pointer: '',
  },
  {
    rule: 'probe.unknown-format',
    broken: 'an unknown format answers as format=api',
    deployment: answeredAs((u) =>
      u.searchParams.get('format') === 'no-such-format' ? `${u.pathname}?format=api` : undefined,
    ),
    options: { probes: true },
    pointer: '',
  },
  {
    rule: 'probe.unknown-pk',
    broken: 'a desk that does not exist answers the first desk',
    deployment: () => async (req, res) => {
      let a = await stubAnswer(stub, req);
      if (a.status === 404 && /^\/api\/v1\/desk\/\d+$/.test(urlOf(req).pathname))
        a = await stubAnswer(stub, req, `/api/v1/desk/${firstPk}?format=api`);
      res.writeHead(a.status, a.headers).end(a.body);
    },
    options: { probes: true },
    pointer: '',
  },
  {
    rule: 'probe.method-not-allowed',
    broken: 'a write the spec does not declare answers 200',
    deployment: own((req, res) => !['GET', 'HEAD'].includes(req.method ?? '') && (sendJson(res, 200, {}), true)),
    options: { probes: true },
    pointer: '',
  },
  {
    rule: 'probe.head',
    broken: 'HEAD answers text/plain',
    deployment: own(
      (req, res) => req.method === 'HEAD' && (res.writeHead(200, { 'content-type': 'text/plain' }).end(), true),
    ),
    options: { probes: true },
    pointer: 'content-type',
  },
  // --compare: the second deployment differs from the first (the stub as it is).
  {
    rule: 'drift.collections',
    broken: 'the desks are not served',
    deployment: own((req, res) => isList(req) && (sendJson(res, 404, { detail: 'Not found.' }), true)),
    drift: true,
    pointer: '',
  },
  {
    rule: 'drift.count',
    broken: 'one desk less',
    deployment: pageEdited(undefined, (b) => {
      b.count -= 1;
      if (b.next === null) b.results.pop();
    }),
    drift: true,
    pointer: '/count',
  },
  {
    rule: 'drift.items',
    broken: 'the first desk has another number',
    deployment: pageEdited('1', (b) => {
      (b.results[0] as Record<string, unknown>).number = '999';
    }),
    drift: true,
    pointer: '/number',
  },
  {
    rule: 'drift.fields',
    broken: 'the desks carry one more field',
    deployment: pageEdited(undefined, (b) => {
      for (const d of b.results) d.colour = 'red';
    }),
    drift: true,
    pointer: '/results/*/colour',
  },
];

const options = (baseUrl: string, more: Partial<CheckOptions> = {}): CheckOptions => ({
  baseUrl,
  headers: {},
  timeoutMs: 3000,
  concurrency: 2,
  maxPages: 20,
  only: ['desk'],
  itemUrls: 2,
  ...more,
});

/** The violations a row's deployment gives: of the check, or of the drift from the stub as it is. */
async function violationsOf(row: Row): Promise<readonly Violation[]> {
  const broken = await deployment(row.deployment());
  const honest = row.drift ? await deployment(stubbed(stub)) : undefined;
  try {
    if (!honest) return (await runCheck(contract, options(broken.base, row.options))).violations;
    const r = await runCompare(contract, options(honest.base), options(broken.base), true);
    return r.drift?.violations ?? [];
  } finally {
    await broken.close();
    await honest?.close();
  }
}

describe('the rule catalogue', () => {
  it('every rule is in exactly one group (so JUnit names a testcase for it on every run)', () => {
    const groups = [ANSWER_RULES, CRAWL_RULES, ITEM_RULES, ITEM_URL_RULES, PROBE_RULES, DRIFT_RULES].flat();
    expect([...groups].sort()).toEqual([...ids].sort());
  });

  it('every rule says where it comes from and what it means', () => {
    for (const id of ids) {
      expect(RULES[id].source, id).not.toBe('');
      expect(RULES[id].text.length, id).toBeGreaterThan(20);
    }
  });

  it('every rule has exactly one row below: a deployment broken for it', () => {
    expect(ROWS.map((r) => r.rule).sort()).toEqual([...ids].sort());
  });
});

// A check that was never seen to fail cannot be trusted.
describe('each rule caught by the checker, against a deployment broken for it', () => {
  it('the stub as it is breaks none of them', async () => {
    const honest = await deployment(stubbed(stub));
    try {
      const report = await runCheck(contract, options(honest.base, { probes: true }));
      expect(report.violations).toEqual([]);
    } finally {
      await honest.close();
    }
  });

  it.each(ROWS.map((r) => [r.rule, r.broken, r] as const))('%s: %s', async (rule, _broken, row) => {
    const found = await violationsOf(row);
    expect(
      found.map((v) => ({ rule: v.rule, pointer: v.pointer })),
      found.map((v) => `${v.rule} ${v.pointer}: ${v.found}`).join('\n'),
    ).toContainEqual({ rule, pointer: row.pointer });
  });
});
