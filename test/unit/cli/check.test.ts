import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { type CheckFlags, check } from '../../../src/cli/check.js';
import { DEFAULTS } from '../../../src/server/config.js';
import { answer, BASE, deployed, desk, DESKS, failure, honest, type Route } from '../contract/fake-deployment.js';
import { catchOutput, io } from './io.js';

// The checker's HTTP client asks a deployment made in process (test/unit/contract/fake-deployment.ts).
vi.mock('../../../src/contract/http.js', async (real) =>
  (await import('../contract/fake-deployment.js')).deployedHttp(real),
);
vi.mock('../../../src/contract/load.js', async (real) => (await import('../contract/load-once.js')).loadedOnce(real));

const dir = await mkdtemp(path.join(tmpdir(), 'cli-check-'));
afterAll(() => rm(dir, { recursive: true, force: true }));
catchOutput();
beforeEach(() => {
  deployed.route = honest([1, 2, 3].map((pk) => desk(pk)));
});

const flags = (over: Partial<CheckFlags> = {}): CheckFlags => ({
  baseUrl: BASE,
  failOnDrift: false,
  spec: DEFAULTS.specFile,
  timeout: 1000,
  concurrency: 2,
  maxPages: 10,
  maxBody: 2 ** 20,
  allowTruncated: false,
  only: ['desk'],
  itemUrls: undefined,
  format: 'api',
  probes: false,
  json: false,
  ...over,
});
const broken: Route = (req) => {
  const r = honest([desk(1)])(req);
  return r.ok && req.url.pathname === DESKS ? answer(200, { ...JSON.parse(r.text), previous: `${BASE}${DESKS}` }) : r;
};

describe('workplace-stub check: the exit code and the reports', () => {
  it('0: the text report on stdout', async () => {
    expect(await check(flags())).toBe(0);
    expect(io.out).toMatch(/^Contract check of https:\/\/staging\.test against /);
    expect(io.out).toContain(`✓ GET ${DESKS} 2 pages, 3 items`);
    expect(io.err).toBe('');
  });

  it('1: violations; --json the report as JSON; --junit written too', async () => {
    deployed.route = broken;
    const junit = path.join(dir, 'reports', 'junit.xml');
    expect(await check(flags({ json: true, junit }))).toBe(1);
    const report = JSON.parse(io.out) as { ok: boolean; violations: { rule: string }[] };
    expect([report.ok, report.violations.map((v) => v.rule)]).toEqual([false, ['envelope.first-previous']]);
    expect(await readFile(junit, 'utf8')).toContain('type="envelope.first-previous"');
  });

  it('format none: no format parameter', async () => {
    await check(flags({ format: 'none' }));
    expect(io.out).toContain('item-url.shape');
  });

  it('--compare: both reports, then the drift; --fail-on-drift makes it fail', async () => {
    const staging = honest([1, 2, 3].map((pk) => desk(pk)));
    const prod = honest(
      [1, 2].map((pk) => desk(pk, 'https://prod.test')),
      2,
      'https://prod.test',
    );
    deployed.route = (req) => (req.url.host === 'prod.test' ? prod(req) : staging(req));
    expect(await check(flags({ compare: 'https://prod.test', failOnDrift: true }))).toBe(1);
    expect(io.out).toContain('Contract check of https://prod.test against');
    expect(io.out).toContain('Drift between https://staging.test and https://prod.test');
    expect(io.out).toContain('drift.count');
  });

  it.each<[string, Partial<CheckFlags>, Route | undefined, RegExp]>([
    ['--junit names a folder', { junit: dir }, undefined, /^error: --junit: .* is a folder\n$/],
    [
      '--only names no collection',
      { only: ['desk', 'nosuch'] },
      undefined,
      /^error: --only names no collection of the spec: nosuch\n$/,
    ],
    ['the spec cannot be loaded', { spec: path.join(dir, 'missing.yaml') }, undefined, /missing\.yaml/],
    ['nothing reachable', {}, () => failure('ECONNREFUSED', 'connect ECONNREFUSED'), /^$/],
  ])('2: %s', async (_name, over, route, err) => {
    if (route) deployed.route = route;
    expect(await check(flags(over))).toBe(2);
    expect(io.err).toMatch(err);
    if (route) expect(io.out).toMatch(/cannot be reached: connect ECONNREFUSED/);
  });

  it('3: the checker failed; the report of what was done, then one line saying why', async () => {
    deployed.route = () => {
      throw new Error('a defect\nwith a second line');
    };
    const junit = path.join(dir, 'aborted.xml');
    expect(await check(flags({ junit }))).toBe(3);
    expect(io.out).toContain('error: the checker failed before the end: a defect');
    expect(io.err).toBe('error: the checker failed: a defect\n');
    expect(await readFile(junit, 'utf8')).toContain(
      '<failure message="the checker failed" type="checker">a defect</failure>',
    );
  });

  it('3: the JUnit report cannot be written at the end', async () => {
    const junit = path.join(dir, 'late', 'junit.xml');
    deployed.route = (req) => {
      void mkdir(junit, { recursive: true });
      return honest([desk(1)])(req);
    };
    expect(await check(flags({ junit }))).toBe(3);
    expect(io.err).toMatch(/^error: the checker failed: cannot write the JUnit report to .*junit\.xml: /);
  });
});
