import { describe, expect, it } from 'vitest';
import { type CheckSettings, CollectionCheck, type CrawlObserver } from '../../../src/contract/collection-check.js';
import type { HttpClient } from '../../../src/contract/http.js';
import { Redactor } from '../../../src/contract/redact.js';
import { CRAWL_RULES, PROBE_RULES } from '../../../src/contract/rules.js';
import { BaseScope } from '../../../src/contract/scope.js';
import { answer, BASE, bundledContract, desk, DESKS, FakeClient, honest, type Route } from './fake-deployment.js';

const contract = await bundledContract();
const list = contract.operations.lists.find((l) => l.path === DESKS);
if (!list) throw new Error('the bundled spec has the desk collection');
const detail = contract.operations.detailOf.get(DESKS);
const DESK_ITEMS = [1, 2, 3, 4, 5].map((pk) => desk(pk));

function settings(route: Route, over: Partial<CheckSettings> = {}): CheckSettings & { client: HttpClient } {
  const scope = new BaseScope(BASE);
  return {
    contract,
    scope,
    client: new FakeClient({ scope, headers: {} }, route) as unknown as HttpClient,
    redactor: new Redactor([]),
    maxPages: 10,
    itemUrls: Number.POSITIVE_INFINITY,
    concurrency: 2,
    format: 'api',
    allowTruncated: false,
    probes: false,
    ...over,
  };
}

async function crawl(route: Route, over: Partial<CheckSettings> = {}) {
  const s = settings(route, over);
  const result = await new CollectionCheck(s, list as NonNullable<typeof list>, detail).run();
  return { result, asked: (s.client as unknown as FakeClient).asked.map((a) => `${a.method} ${a.url.href}`) };
}

type Body = Record<string, unknown>;
/** The deployment with page `n` of the list (or an item at its url) changed. */
const onPage =
  (n: number, change: (body: Body) => unknown) =>
  (route: Route): Route =>
  (req) => {
    const a = route(req);
    const page = req.url.searchParams.get('page') ?? '1';
    if (!a.ok || req.url.pathname !== DESKS || page !== String(n)) return a;
    return answer(a.status, change(JSON.parse(a.text) as Body), a.headers);
  };
const onItem =
  (pk: number, change: (item: Body) => unknown, status = 200) =>
  (route: Route): Route =>
  (req) => {
    const a = route(req);
    if (!a.ok || req.url.pathname !== `${DESKS}/${pk}`) return a;
    return answer(status, change(JSON.parse(a.text) as Body), a.headers);
  };
const page1 = `${BASE}${DESKS}?format=api`;

describe('CollectionCheck: the crawl of one collection and its rules', () => {
  it('an honest deployment keeps every rule: 3 pages, 5 items each fetched at its url', async () => {
    const { result, asked } = await crawl(honest(DESK_ITEMS));
    expect(result.violations).toEqual([]);
    expect(result).toMatchObject({
      endpoint: `GET ${DESKS}`,
      pages: 3,
      items: 5,
      count: 5,
      reachedEnd: true,
      truncated: false,
    });
    expect([result.itemUrlsFetched, result.itemUrlsSkipped, result.requests, result.firstStatus]).toEqual([
      5, 0, 8, 200,
    ]);
    expect(asked.filter((a) => !a.includes(`${DESKS}/`))).toEqual([
      `GET ${page1}`,
      `GET ${page1}&page=2`,
      `GET ${page1}&page=3`,
    ]);
    expect(asked.filter((a) => a.includes(`${DESKS}/`))).toEqual(DESK_ITEMS.map((d) => `GET ${String(d.url)}`));
    for (const rule of PROBE_RULES) expect(result.skipped[rule]).toBe('not run: --probes not given');
    expect(result.rules).toEqual(
      expect.arrayContaining([...CRAWL_RULES, 'item.fields', 'item-url.shape', 'item-url.detail-equals']),
    );
  });

  it.each<[string, (r: Route) => Route, Partial<CheckSettings>, string[]]>([
    ['count changes on page 2', onPage(2, (b) => ({ ...b, count: 6 })), {}, ['envelope.count-stable']],
    [
      'an item listed twice',
      onPage(2, (b) => ({ ...b, results: [desk(1), desk(4)] })),
      {},
      ['envelope.duplicate-item'],
    ],
    [
      'previous does not lead back',
      onPage(2, (b) => ({ ...b, previous: `${page1}&page=3` })),
      {},
      ['envelope.previous-back'],
    ],
    [
      'next leads to a page seen',
      onPage(2, (b) => ({ ...b, next: `${BASE}${DESKS}?page=1&format=api` })),
      {},
      ['envelope.next-loop'],
    ],
    [
      'count is not the items reached',
      (r) =>
        onPage(3, (b) => ({ ...b, count: 6 }))(
          onPage(2, (b) => ({ ...b, count: 6 }))(onPage(1, (b) => ({ ...b, count: 6 }))(r)),
        ),
      {},
      ['envelope.count-reached'],
    ],
    ['cut short by --max-pages', (r) => r, { maxPages: 2 }, ['crawl.truncated']],
    ['an item url that answers 404', onItem(3, () => ({ detail: 'x' }), 404), {}, ['item-url.addressable']],
    ['an item that differs at its url', onItem(3, (i) => ({ ...i, floor: 9 })), {}, ['item-url.detail-equals']],
    ['an item url that answers no item', onItem(3, () => [1]), {}, ['item-url.detail-equals', 'schema']],
    [
      'an item without a field',
      onPage(1, (b) => ({ ...b, results: [{ ...desk(1), lead: undefined }, desk(2)] })),
      {},
      ['item-url.detail-equals', 'item.fields'],
    ],
    [
      'a first page that is refused',
      () => () => answer(401, { detail: 'Authentication credentials were not provided.' }),
      {},
      ['status'],
    ],
    ['no format asked: every url keeps format=api', (r) => r, { format: '' }, ['item-url.shape']],
  ])('%s', async (_name, breakIt, over, want) => {
    const { result } = await crawl(breakIt(honest(DESK_ITEMS)), over);
    expect([...new Set(result.violations.map((v) => v.rule))].sort()).toEqual([...want].sort());
  });

  it('a link off the deployment is reported and never followed', async () => {
    const { result, asked } = await crawl(
      onPage(1, (b) => ({ ...b, next: 'https://evil.test/api/v1/desk?page=2' }))(honest(DESK_ITEMS)),
    );
    expect(result.violations.map((v) => [v.rule, v.pointer])).toEqual([['urls.base', '/next']]);
    expect(asked.some((a) => a.includes('evil'))).toBe(false);
    expect(result.skipped['envelope.count-reached']).toBe('not verified: the crawl stopped at page 2');
  });

  it('what was not verified says why', async () => {
    const refused = (await crawl(() => answer(401, { detail: 'x' }))).result;
    expect([refused.pages, refused.firstStatus]).toEqual([0, 401]);
    expect(refused.skipped['envelope.duplicate-item']).toBe('not verified: no page of the collection could be read');
    const allowed = (await crawl(honest(DESK_ITEMS), { maxPages: 2, allowTruncated: true })).result;
    expect(allowed.violations).toEqual([]);
    expect(allowed.skipped['crawl.truncated']).toBe('allowed by --allow-truncated: stopped at 2 pages');
    expect(allowed.skipped['envelope.count-reached']).toMatch(/--max-pages 2 before the last page/);
  });

  it.each<[number, number, number, string | undefined]>([
    [0, 0, 5, 'not run: --item-urls 0'],
    [2, 2, 3, undefined],
  ])('--item-urls %d: %d fetched, %d skipped', async (itemUrls, fetched, skipped, why) => {
    const { result } = await crawl(honest(DESK_ITEMS), { itemUrls });
    expect([result.itemUrlsFetched, result.itemUrlsSkipped, result.skipped['item-url.addressable']]).toEqual([
      fetched,
      skipped,
      why,
    ]);
  });

  it('an observer sees each page’s items while they are held, then the end; progress names the spec’s paths', async () => {
    const seen: string[] = [];
    const observer: CrawlObserver = {
      items: (_l, items, p) => void seen.push(`page ${p.number} ${items.length} next=${p.hasNext}`),
      done: (_l, r) => void seen.push(`done ${r.items}`),
    };
    const progress: string[] = [];
    await crawl(honest(DESK_ITEMS), { observer, onProgress: (m) => progress.push(m), itemUrls: 1 });
    expect(seen).toEqual(['page 1 2 next=true', 'page 2 2 next=true', 'page 3 1 next=false', 'done 5']);
    expect(progress).toEqual([
      `${DESKS} page 1`,
      `${detail?.path} /api/v1/desk/1?format=api`,
      `${DESKS} page 2`,
      `${DESKS} page 3`,
    ]);
  });
});
