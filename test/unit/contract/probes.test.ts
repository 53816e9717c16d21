import { describe, expect, it } from 'vitest';
import { type CheckSettings, CollectionCheck } from '../../../src/contract/collection-check.js';
import type { Fetched, HttpClient } from '../../../src/contract/http.js';
import { runProbes } from '../../../src/contract/probes.js';
import { Redactor } from '../../../src/contract/redact.js';
import { PROBE_RULES } from '../../../src/contract/rules.js';
import { ContractAjv } from '../../../src/openapi/ajv.js';
import { BaseScope } from '../../../src/contract/scope.js';
import {
  answer,
  type Asked,
  BASE,
  bundledContract,
  desk,
  DESKS,
  failure,
  FakeClient,
  honest,
  type Route,
} from './fake-deployment.js';

const contract = await bundledContract();
const list = contract.operations.lists.find((l) => l.path === DESKS);
if (!list) throw new Error('the bundled spec has the desk collection');
const detail = contract.operations.detailOf.get(DESKS);

async function probe(route: Route, over: Partial<CheckSettings> = {}) {
  const scope = new BaseScope(BASE);
  const client = new FakeClient({ scope, headers: {} }, route);
  const s: CheckSettings = {
    contract,
    scope,
    client: client as unknown as HttpClient,
    redactor: new Redactor([]),
    maxPages: 10,
    itemUrls: 0,
    concurrency: 1,
    format: 'api',
    allowTruncated: false,
    probes: true,
    ...over,
  };
  const result = await new CollectionCheck(s, list as NonNullable<typeof list>, detail).run(runProbes);
  const probes = result.violations.filter((v) => v.rule.startsWith('probe.'));
  return {
    result,
    probes: probes.map((v) => [v.rule, v.pointer, v.found]),
    asked: client.asked.map((a) => `${a.method} ${a.url.href}`),
  };
}

/** The deployment answering `give` where `match` holds. */
const when =
  (match: (req: Asked) => boolean, give: (real: Fetched) => Fetched) =>
  (route: Route): Route =>
  (req) =>
    match(req) ? give(route(req)) : route(req);
const query = (name: string, value: string) => (req: Asked) => req.url.searchParams.get(name) === value;
const method = (m: string) => (req: Asked) => req.method === m;
const items = [1, 2, 3].map((pk) => desk(pk));
const emptyPage = { count: 0, next: null, previous: null, results: [] };

describe('runProbes: the error contract the spec declares', () => {
  it('an honest deployment keeps every probe; each is asked once', async () => {
    const { result, probes, asked } = await probe(honest(items));
    expect(probes).toEqual([]);
    for (const rule of PROBE_RULES) expect(result.skipped[rule]).toBeUndefined();
    expect(asked.slice(2)).toEqual([
      `GET ${BASE}${DESKS}?format=api&page=0`,
      `GET ${BASE}${DESKS}?format=api&page=abc`,
      `GET ${BASE}${DESKS}?format=api&page=3`,
      `GET ${BASE}${DESKS}?format=no-such-format`,
      `GET ${BASE}${DESKS}/4?format=api`,
      `PUT ${BASE}${DESKS}?format=api`,
      `HEAD ${BASE}${DESKS}?format=api`,
    ]);
  });

  it.each<[string, (r: Route) => Route, unknown[][]]>([
    [
      'page=0 answers a page',
      when(query('page', '0'), () => answer(200, emptyPage)),
      [['probe.invalid-page', '', expect.stringMatching(/^200: /)]],
    ],
    [
      'the page past the end answers a page',
      when(query('page', '3'), () => answer(200, emptyPage)),
      [['probe.page-past-end', '', expect.stringMatching(/^200/)]],
    ],
    [
      'an unknown format answers a page',
      when(query('format', 'no-such-format'), () => answer(200, emptyPage)),
      [['probe.unknown-format', '', expect.stringMatching(/^200/)]],
    ],
    [
      'an unknown pk answers an item',
      when(
        (r) => r.url.pathname === `${DESKS}/4`,
        () => answer(200, desk(4)),
      ),
      [['probe.unknown-pk', '', expect.stringMatching(/^200/)]],
    ],
    [
      'an error that is not JSON',
      when(query('page', 'abc'), () => answer(404, '<h1>x</h1>', { 'content-type': 'text/html' })),
      [['probe.invalid-page', '', 'text/html: <h1>x</h1>']],
    ],
    [
      'an error body that is no JSON',
      when(query('page', 'abc'), () => answer(404, '{')),
      [['probe.invalid-page', '', expect.stringMatching(/: \{$/)]],
    ],
    [
      'an error body in another shape',
      when(query('page', 'abc'), () => answer(404, { detail: 1 })),
      [['probe.invalid-page', '/detail', '1']],
    ],
    [
      'an error body missing its member',
      when(query('page', 'abc'), () => answer(404, {})),
      [['probe.invalid-page', '/detail', 'missing']],
    ],
    [
      'an error status not declared',
      when(query('page', 'abc'), () => answer(400, { detail: 'x' })),
      [['probe.invalid-page', '', '400: {"detail":"x"}']],
    ],
    [
      'no answer to a probe',
      when(query('page', 'abc'), () => failure('ECONNRESET', 'reset')),
      [['probe.invalid-page', '', 'reset']],
    ],
    [
      'a write method accepted',
      when(method('PUT'), () => answer(200, {})),
      [['probe.method-not-allowed', '', '200: {}']],
    ],
    [
      '405 without Allow',
      when(method('PUT'), () => answer(405, { detail: 'x' })),
      [['probe.method-not-allowed', 'Allow', 'no Allow header']],
    ],
    [
      'Allow naming the method refused',
      when(method('PUT'), () => answer(405, { detail: 'x' }, { allow: 'GET, POST, PUT' })),
      [['probe.method-not-allowed', 'Allow', 'GET, POST, PUT']],
    ],
    [
      'Allow missing a declared method',
      when(method('PUT'), () => answer(405, { detail: 'x' }, { allow: 'GET' })),
      [['probe.method-not-allowed', 'Allow', 'GET']],
    ],
    [
      'HEAD with a body',
      when(method('HEAD'), (r) => answer(200, 'x', r.ok ? r.headers : {})),
      [['probe.head', '', '1 byte']],
    ],
    [
      'HEAD with another status',
      when(method('HEAD'), (r) => answer(204, '', r.ok ? r.headers : {})),
      [['probe.head', '', '204']],
    ],
    [
      'HEAD without a header GET sends',
      when(method('HEAD'), () => answer(200, '', { allow: 'GET, POST, HEAD, OPTIONS' })),
      [['probe.head', 'vary', 'none']],
    ],
    [
      'HEAD with another length',
      when(method('HEAD'), (r) => answer(200, '', { ...(r.ok ? r.headers : {}), 'content-length': '3' })),
      [['probe.head', 'content-length', '3']],
    ],
    ['no answer to HEAD', when(method('HEAD'), () => failure('ECONNRESET', 'reset')), [['probe.head', '', 'reset']]],
  ])('%s', async (_name, breakIt, want) => {
    expect((await probe(breakIt(honest(items)))).probes).toEqual(want);
  });

  it('a 405 body is held to components/responses/MethodNotAllowed where the spec has one', async () => {
    const doc = contract.spec.doc as { components: { responses: Record<string, unknown> } };
    const withResponse = {
      ...doc,
      components: {
        ...doc.components,
        responses: {
          ...doc.components.responses,
          MethodNotAllowed: {
            description: '405',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
          },
        },
      },
    };
    const other = { ...contract, spec: { ...contract.spec, doc: withResponse }, ajv: new ContractAjv(withResponse) };
    const broken = when(method('PUT'), () => answer(405, { detail: [] }, { allow: 'GET, POST' }))(honest(items));
    expect((await probe(broken, { contract: other })).probes).toEqual([['probe.method-not-allowed', '/detail', '[]']]);
    expect((await probe(broken)).probes).toEqual([]);
  });

  it('past a crawl cut short, or with an item of no integer pk, the unknown pk is the largest 32-bit one', async () => {
    const cut = await probe(honest(items), { maxPages: 1 });
    expect(cut.asked).toContain(`GET ${BASE}${DESKS}/2147483647?format=api`);
    expect(cut.result.skipped['probe.page-past-end']).toBe('not run: the crawl did not reach the last page');
    const noPk = await probe(honest([{ ...desk(1), pk: 'a' }, desk(2)]));
    expect(noPk.asked).toContain(`GET ${BASE}${DESKS}/2147483647?format=api`);
  });

  it('without a first page to compare with, HEAD is not probed', async () => {
    const { result } = await probe(
      when(
        (r) => r.url.search === '?format=api' && r.method === 'GET',
        () => failure('ECONNRESET'),
      )(honest(items)),
    );
    expect(result.skipped['probe.head']).toBe('not run: the first page gave no answer to compare with');
  });
});
