import { beforeEach, describe, expect, it, vi } from 'vitest';
import { type CheckOptions, exitCode, runCheck } from '../../../src/contract/checker.js';
import { REDACTED } from '../../../src/contract/redact.js';
import {
  answer,
  BASE,
  bundledContract,
  CRAWL,
  DeployedClient,
  deployed,
  desk,
  DESKS,
  EMPLOYEES,
  failure,
  honest,
  type Route,
} from './fake-deployment.js';

// The checker's HTTP client asks a deployment made in process (fake-deployment.ts), not the network.
vi.mock('../../../src/contract/http.js', async (real) => (await import('./fake-deployment.js')).deployedHttp(real));

const contract = await bundledContract();
const options = (over: Partial<CheckOptions> = {}): CheckOptions => ({ ...CRAWL, ...over });
/** Each collection answered `status` with DRF's detail, the desks honestly. */
const desksAnd = (others: number): Route => {
  const desks = honest([1, 2, 3].map((pk) => desk(pk)));
  return (req) => (req.url.pathname.startsWith(DESKS) ? desks(req) : answer(others, { detail: 'x' }));
};
const client = () => DeployedClient.made.at(-1) as DeployedClient;

beforeEach(() => {
  deployed.route = desksAnd(404);
});

describe('runCheck: every collection asked for, crawled and held to the rules', () => {
  it('an honest deployment: one endpoint, no violation, exit 0; every request counted', async () => {
    const report = await runCheck(contract, options());
    expect(report.endpoints.map((e) => e.endpoint)).toEqual([`GET ${DESKS}`]);
    expect([report.violations, report.unreachable, report.refused, report.hints, exitCode(report)]).toEqual([
      [],
      undefined,
      false,
      [],
      0,
    ]);
    expect(report.baseUrl).toBe(BASE);
    expect(report.specFile).toBe(contract.spec.rootFile);
    // The probe of the first collection, its 2 pages and 3 items.
    expect(report.requests).toBe(client().requests);
    expect(client().asked.map((a) => a.url.href)[0]).toBe(`${BASE}${DESKS}`);
    expect(client().asked[1]?.url.href).toBe(`${BASE}${DESKS}?format=api`);
  });

  it('nothing at the address: unreachable (exit 2), every collection named, none run', async () => {
    deployed.route = () => failure('ECONNREFUSED', 'connect ECONNREFUSED 10.0.0.1:443');
    const seen: string[] = [];
    const report = await runCheck(
      contract,
      options({ only: ['desk', 'employee'], onEndpoint: (e) => seen.push(e.endpoint) }),
    );
    expect(report.unreachable).toBe('connect ECONNREFUSED 10.0.0.1:443');
    expect(report.endpoints.map((e) => [e.endpoint, e.pages])).toEqual([
      [`GET ${EMPLOYEES}`, 0],
      [`GET ${DESKS}`, 0],
    ]);
    expect([report.durationMs, report.violations, seen, exitCode(report)]).toEqual([0, [], [], 2]);
  });

  it('an answer that is an error is no reason to stop: a deployment that answers is checked', async () => {
    deployed.route = () => failure('ECONNRESET');
    const report = await runCheck(contract, options());
    expect(report.unreachable).toBeUndefined();
    expect(report.violations.map((v) => v.rule)).toEqual(['transport']);
  });

  it.each<[string, Partial<CheckOptions>, string | undefined]>([
    [
      'user info of the base, as Basic',
      { baseUrl: 'https://qa:p%40ss@staging.test' },
      `Basic ${Buffer.from('qa:p@ss').toString('base64')}`,
    ],
    [
      'an Authorization header given wins',
      { baseUrl: 'https://qa:pw@staging.test', headers: { Authorization: 'Token t0k3n' } },
      'Token t0k3n',
    ],
    ['none', {}, undefined],
  ])('credentials: %s', async (_name, over, want) => {
    const report = await runCheck(contract, options(over));
    expect(client().opts.headers.authorization).toBe(want);
    expect(report.baseUrl).toBe(BASE);
  });

  it('a secret the deployment echoes is redacted from every violation', async () => {
    deployed.route = (req) => answer(500, { detail: `bad token ${req.headers['x-api-key']}` });
    const report = await runCheck(contract, options({ headers: { 'X-Api-Key': 'k3y-s3cret' } }));
    expect(report.violations[0]?.found).toBe(`500 (not declared by the spec): {"detail":"bad token ${REDACTED}"}`);
    expect(JSON.stringify(report)).not.toContain('k3y-s3cret');
  });

  it.each<[string, Route, Partial<CheckOptions>, RegExp[], boolean]>([
    [
      'every collection refused',
      () => answer(401, { detail: 'x' }),
      { only: ['desk', 'employee'] },
      [/^every collection answered 401\/403: does the deployment need credentials\?/],
      true,
    ],
    [
      'one of two refused',
      desksAnd(403),
      { only: ['desk', 'employee'] },
      [/^1 of 2 collections answered 401\/403/],
      false,
    ],
    [
      'a base that names /api/v1',
      desksAnd(404),
      { baseUrl: `${BASE}/api/v1` },
      [/^--base-url is the deployment's root, without \/api\/v1: try https:\/\/staging.test$/],
      false,
    ],
    [
      'every collection 404 under a prefix',
      () => answer(404, { detail: 'x' }),
      { baseUrl: `${BASE}/workplace` },
      [/^every collection answered 404: is https:\/\/staging.test\/workplace the deployment's root/],
      false,
    ],
    ['every collection 404 at the root: no hint', () => answer(404, { detail: 'x' }), {}, [], false],
  ])('hints: %s', async (_name, route, over, want, refused) => {
    deployed.route = route;
    const report = await runCheck(contract, options(over));
    expect(report.hints).toHaveLength(want.length);
    report.hints.forEach((h, i) => expect(h).toMatch(want[i] as RegExp));
    expect(report.refused).toBe(refused);
    if (refused) expect(exitCode(report)).toBe(2);
  });

  it('passes its options down: format, --item-urls, probes, observer and progress', async () => {
    const pages: number[] = [];
    const progress: string[] = [];
    const done: string[] = [];
    const report = await runCheck(
      contract,
      options({
        format: 'json',
        itemUrls: 1,
        probes: true,
        observer: { items: (_l, _i, p) => void pages.push(p.number) },
        onProgress: (m) => progress.push(m),
        onEndpoint: (e) => done.push(e.resource),
      }),
    );
    const [e] = report.endpoints;
    expect([e?.itemUrlsFetched, e?.itemUrlsSkipped, pages, done]).toEqual([1, 2, [1, 2], ['desk']]);
    expect(client().asked[1]?.url.href).toBe(`${BASE}${DESKS}?format=json`);
    expect(e?.skipped['probe.head']).toBeUndefined();
    expect(progress[0]).toBe(`${DESKS} page 1`);
    // Items listed with format=api where json was asked: the shape rule says so.
    expect(report.violations.map((v) => v.rule)).toContain('item-url.shape');
  });
});
