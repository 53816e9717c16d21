import { describe, expect, it, vi } from 'vitest';
import type { CheckOptions } from '../../../src/contract/checker.js';
import { type CompareResult, compareExitCode, runCompare } from '../../../src/contract/compare.js';
import type { DriftReport } from '../../../src/contract/drift.js';
import { bundledContract, deployed, desk, failure, honest, type Route } from './fake-deployment.js';
import { checkReport, endpointResult, violation } from './results.js';

// The checker's HTTP client asks deployments made in process (fake-deployment.ts), not the network.
vi.mock('../../../src/contract/http.js', async (real) => (await import('./fake-deployment.js')).deployedHttp(real));

const contract = await bundledContract();
const PROD = 'https://prod.test';
const STAGING = 'https://staging.test/workplace';
const options = (baseUrl: string, headers: Record<string, string>): CheckOptions => ({
  baseUrl,
  headers,
  timeoutMs: 1000,
  concurrency: 2,
  maxPages: 10,
  only: ['desk'],
});

/** Production and staging, each with its own desks; every request's host and credentials noted. */
function twoDeployments(prod: Route, staging: Route) {
  const asked: string[] = [];
  deployed.route = (req) => {
    asked.push(`${req.url.host} ${req.headers.authorization ?? '-'}`);
    return req.url.host === 'prod.test' ? prod(req) : staging(req);
  };
  return asked;
}
const desks = (base: string, pks: number[], change: (d: Record<string, unknown>) => object = (d) => d) =>
  honest(
    pks.map((pk) => change(desk(pk, base)) as Record<string, unknown>),
    2,
    base,
  );

describe('runCompare: two deployments checked one after the other, then what differs', () => {
  it('the same desks under two bases: no drift; each deployment gets only its own credentials', async () => {
    const asked = twoDeployments(desks(PROD, [1, 2, 3]), desks(STAGING, [1, 2, 3]));
    const r = await runCompare(
      contract,
      options(PROD, { authorization: 'Token prod' }),
      options(STAGING, { authorization: 'Token staging' }),
      false,
    );
    expect([r.a.violations, r.b.violations, r.drift?.violations]).toEqual([[], [], []]);
    expect([r.drift?.baseA, r.drift?.baseB]).toEqual([PROD, STAGING]);
    expect(new Set(asked)).toEqual(new Set(['prod.test Token prod', 'staging.test Token staging']));
    expect(compareExitCode(r)).toBe(0);
  });

  it.each<[boolean, number]>([
    [false, 0],
    [true, 1],
  ])('a desk that differs is drift; --fail-on-drift %s: exit %d', async (failOnDrift, code) => {
    twoDeployments(
      desks(PROD, [1, 2]),
      desks(STAGING, [1, 2], (d) => (d.pk === 2 ? { ...d, floor: 3 } : d)),
    );
    const r = await runCompare(contract, options(PROD, {}), options(STAGING, {}), failOnDrift);
    expect(r.drift?.violations.map((v) => [v.rule, v.pointer, v.expected, v.found])).toEqual([
      ['drift.items', '/floor', '1', '3'],
    ]);
    expect(compareExitCode(r)).toBe(code);
  });

  it.each<[string, Route, Route]>([
    ['the first unreachable: the second is checked all the same', () => failure('ECONNREFUSED'), desks(STAGING, [1])],
    ['the second unreachable', desks(PROD, [1]), () => failure('ENOTFOUND')],
  ])('%s; no drift, exit 2', async (_name, prod, staging) => {
    twoDeployments(prod, staging);
    const r = await runCompare(contract, options(PROD, {}), options(STAGING, {}), true);
    expect(r.drift).toBeUndefined();
    expect([r.a.baseUrl, r.b.baseUrl]).toEqual([PROD, STAGING]);
    expect(compareExitCode(r)).toBe(2);
  });

  it('a token of one deployment echoed by the other is redacted from the drift', async () => {
    twoDeployments(
      desks(PROD, [1]),
      desks(STAGING, [1], (d) => ({ ...d, number: 'prod-s3cret' })),
    );
    const r = await runCompare(
      contract,
      options(PROD, { authorization: 'Token prod-s3cret' }),
      options(STAGING, {}),
      false,
    );
    expect(r.drift?.violations.map((v) => [v.pointer, v.found])).toEqual([['/number', '"[redacted]"']]);
    expect(JSON.stringify(r.drift)).not.toContain('prod-s3cret');
  });
});

describe('compareExitCode', () => {
  const drift = (n: number, failOnDrift: boolean): DriftReport => ({
    baseA: 'a',
    baseB: 'b',
    collections: [],
    violations: Array(n).fill(violation()),
    omitted: 0,
    failOnDrift,
  });
  const broken = checkReport({ endpoints: [endpointResult({ violations: [violation()] })] });
  it.each<[string, Partial<CompareResult>, number]>([
    ['both hold, no drift', {}, 0],
    ['drift reported only', { drift: drift(1, false) }, 0],
    ['drift with --fail-on-drift', { drift: drift(1, true) }, 1],
    ['omitted drift with --fail-on-drift', { drift: { ...drift(0, true), omitted: 1 } }, 1],
    ['a violation in either', { b: broken }, 1],
    ['the worse of the two', { a: broken, b: checkReport({ aborted: 'x' }) }, 3],
    ['unreachable beats drift', { a: checkReport({ unreachable: 'x' }), drift: drift(2, true) }, 2],
  ])('%s: %d', (_name, over, want) => {
    expect(compareExitCode({ a: checkReport(), b: checkReport(), drift: undefined, ...over })).toBe(want);
  });
});
