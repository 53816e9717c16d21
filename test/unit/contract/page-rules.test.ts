import { describe, expect, it } from 'vitest';
import { Findings } from '../../../src/contract/findings.js';
import { parseExact } from '../../../src/contract/json.js';
import {
  asEnvelope,
  type Envelope,
  itemUrlRules,
  type PageContext,
  pageRules,
} from '../../../src/contract/page-rules.js';
import { Redactor } from '../../../src/contract/redact.js';
import { BaseScope } from '../../../src/contract/scope.js';
import { BASE, bundledContract, desk, DESKS } from './fake-deployment.js';

const contract = await bundledContract();
const list = contract.operations.lists.find((l) => l.path === DESKS);
if (!list) throw new Error('the bundled spec has the desk collection');

function context(over: Partial<PageContext> = {}): PageContext {
  return {
    contract,
    findings: new Findings(new Redactor([]), list as NonNullable<typeof list>),
    op: list as NonNullable<typeof list>,
    itemFieldsRule: true,
    scope: new BaseScope(BASE),
    detail: contract.operations.detailOf.get(DESKS),
    withUrls: true,
    pkField: 'pk',
    formatQuery: '?format=api',
    ...over,
  };
}
const found = (ctx: PageContext) => ctx.findings.violations.map((v) => [v.rule, v.pointer]);

describe('asEnvelope', () => {
  it.each<[string, unknown, boolean]>([
    ['an envelope', { count: 0, next: null, previous: null, results: [] }, true],
    ['results not a list', { count: 0, results: {} }, false],
    ['count not a number', { count: '0', results: [] }, false],
    ['a list', [], false],
    ['null', null, false],
  ])('%s', (_name, body, want) => {
    expect(asEnvelope(body) !== undefined).toBe(want);
  });
});

describe('pageRules: what one page shows by itself', () => {
  const env = (over: Partial<Envelope>): Envelope => ({
    count: 1,
    next: null,
    previous: null,
    results: [desk(1)],
    ...over,
  });
  it.each<[string, Partial<Envelope>, boolean, string[][]]>([
    ['a single page that keeps the rules', {}, true, []],
    [
      'a first page with a previous link',
      { previous: `${BASE}${DESKS}` },
      true,
      [['envelope.first-previous', '/previous']],
    ],
    [
      'an empty collection with a next link',
      { count: 0, results: [], next: `${BASE}${DESKS}?page=2` },
      true,
      [['envelope.empty', '/next']],
    ],
    [
      'count 0 with items',
      { count: 0 },
      true,
      [
        ['envelope.empty', '/results'],
        ['envelope.single-page', '/results'],
      ],
    ],
    ['one page whose count is not its items', { count: 3 }, true, [['envelope.single-page', '/results']]],
    [
      'a next link off the base',
      { count: 3, next: 'https://elsewhere/api/v1/desk?page=2' },
      true,
      [['urls.base', '/next']],
    ],
    ['a relative next link', { count: 3, next: '/api/v1/desk?page=2' }, true, [['urls.base', '/next']]],
    ['a later page: its previous is expected', { count: 3, previous: `${BASE}${DESKS}` }, false, []],
    [
      'a later page: previous off the base',
      { count: 3, previous: 'http://staging.test/api/v1/desk' },
      false,
      [['urls.base', '/previous']],
    ],
  ])('%s', (_name, over, isFirst, want) => {
    const ctx = context();
    pageRules(ctx, `${BASE}${DESKS}`, env(over), isFirst);
    expect(found(ctx)).toEqual(want);
  });
});

describe('itemUrlRules: an item’s url', () => {
  const BIG = '9007199254740993';
  it.each<[string, Partial<PageContext>, Record<string, unknown>, string[][], string | undefined]>([
    ['a url of the right shape', {}, desk(7), [], `${BASE}${DESKS}/7?format=api`],
    ['items without urls', { withUrls: false }, desk(7), [], undefined],
    ['no url member', {}, { pk: 7 }, [], undefined],
    [
      'a url off the base',
      {},
      { ...desk(7), url: `https://evil${DESKS}/7?format=api` },
      [['urls.base', '/results/0/url']],
      undefined,
    ],
    [
      'a url whose last segment is not the pk',
      {},
      { ...desk(7), url: `${BASE}${DESKS}/8?format=api` },
      [['item-url.pk', '/results/0/url']],
      `${BASE}${DESKS}/8?format=api`,
    ],
    [
      'a url without the format asked for',
      {},
      { ...desk(7), url: `${BASE}${DESKS}/7` },
      [['item-url.shape', '/results/0/url']],
      `${BASE}${DESKS}/7`,
    ],
    [
      'a url for a format not asked for',
      { formatQuery: '' },
      desk(7),
      [['item-url.shape', '/results/0/url']],
      `${BASE}${DESKS}/7?format=api`,
    ],
    [
      'a pk past 2^53 compared by its text',
      {},
      parseExact(`{"url":"${BASE}${DESKS}/${BIG}?format=api","pk":${BIG}}`) as Record<string, unknown>,
      [],
      `${BASE}${DESKS}/${BIG}?format=api`,
    ],
    [
      'a percent-encoded segment decoded',
      { pkField: 'number' },
      { url: `${BASE}${DESKS}/1%20a?format=api`, number: '1 a' },
      [],
      `${BASE}${DESKS}/1%20a?format=api`,
    ],
  ])('%s', (_name, over, item, want, url) => {
    const ctx = context(over);
    expect(itemUrlRules(ctx, `${BASE}${DESKS}`, '/results/0', item)).toBe(url);
    expect(found(ctx)).toEqual(want);
  });
});
