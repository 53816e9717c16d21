// check --compare: staging and production (§9.2: each with its own base in its urls), each checked
// on its own, then what differs between them.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareExitCode, runCompare } from '../../src/contract/compare.js';
import { type Contract, loadContract } from '../../src/contract/load.js';
import { junitReport, textReport } from '../../src/contract/reporters.js';
import { runCli } from '../cli-helpers.js';
import { FIXTURES, listen, makeApp, SPEC } from '../helpers.js';
import { deployment, type Deployment, stubbed } from './deployments.js';

type Desk = Record<string, unknown> & { pk: number };

let dirs: string[] = [];
let production: FastifyInstance;
let staging: FastifyInstance;
let same: FastifyInstance;
let prodUrl: string;
let stagingUrl: string;
let sameUrl: string;
let contract: Contract;

async function fixtures(desks: Desk[], employees: unknown[]): Promise<string> {
  const dir = await mkdtemp(`${tmpdir()}/drift-`);
  dirs.push(dir);
  await writeFile(`${dir}/desk.json`, JSON.stringify(desks));
  await writeFile(`${dir}/employee.json`, JSON.stringify(employees));
  return dir;
}

beforeAll(async () => {
  const desks = JSON.parse(await readFile(`${FIXTURES}/desk.json`, 'utf8')) as Desk[];
  const employees = [
    { pk: 1, name: 'Ada', team: 'infra' },
    { pk: 2, name: 'Grace', team: 'compilers' },
  ];
  const changed = desks
    .filter((d) => d.pk !== 5)
    .map((d) => (d.pk === 3 ? { ...d, floor: 9 } : d.pk === 7 ? { ...d, zone: 'north' } : d));
  production = await makeApp({ pageSize: 7, fixturesDir: await fixtures(desks, employees) });
  staging = await makeApp({ pageSize: 10, fixturesDir: await fixtures(changed, [employees[0]]) });
  same = await makeApp({ pageSize: 5, fixturesDir: await fixtures(desks, employees) });
  [prodUrl, stagingUrl, sameUrl] = [await listen(production), await listen(staging), await listen(same)];
  contract = await loadContract(SPEC);
});
afterAll(async () => {
  await Promise.all([production.close(), staging.close(), same.close()]);
  for (const d of dirs) await rm(d, { recursive: true, force: true });
  dirs = [];
});

// The deployment shows employees to a user only (an anonymous client gets none): the stub, given
// no --tokens, takes any token as a user's.
const AUTH = 'Token 9944b09199c62bcf9418ad846dd0e4bbdfc6ee4b';
const opts = (baseUrl: string) => ({
  baseUrl,
  headers: { authorization: AUTH },
  timeoutMs: 5000,
  concurrency: 4,
  maxPages: 50,
  only: [] as string[],
});

describe('two deployments of the service', () => {
  it('the same data under different bases and page sizes: no drift', async () => {
    const r = await runCompare(contract, opts(prodUrl), opts(sameUrl), true);
    expect(r.a.violations).toEqual([]);
    expect(r.b.violations).toEqual([]);
    expect(r.drift?.violations).toEqual([]);
    expect(compareExitCode(r)).toBe(0);
  });

  it('reports counts, items field by field, missing items and fields; each deployment is checked with its own base', async () => {
    const r = await runCompare(contract, opts(prodUrl), opts(stagingUrl), false);
    expect(r.a.violations).toEqual([]);
    expect(r.b.violations).toEqual([]);
    const drift = (r.drift?.violations ?? []).map((v) => [
      v.endpoint,
      v.rule,
      v.url.replace(/^.*\(/, '('),
      v.pointer,
      v.expected,
      v.found,
    ]);
    expect(drift).toEqual([
      ['GET /api/v1/employee', 'drift.count', '/api/v1/employee', '/count', '2', '1'],
      ['GET /api/v1/employee', 'drift.items', '(pk=2)', '', 'present', 'absent'],
      // In the deployment's order (building, floor, number): desk 7 is listed before desk 3.
      ['GET /api/v1/desk', 'drift.items', '(pk=7)', '/zone', 'nothing', '"north"'],
      ['GET /api/v1/desk', 'drift.items', '(pk=3)', '/floor', '1', '9'],
      ['GET /api/v1/desk', 'drift.count', '/api/v1/desk', '/count', '190', '189'],
      ['GET /api/v1/desk', 'drift.fields', '/api/v1/desk', '/results/*/zone', 'absent', 'present'],
      ['GET /api/v1/desk', 'drift.items', '(pk=5)', '', 'present', 'absent'],
    ]);
    expect(compareExitCode(r)).toBe(0);
    expect(compareExitCode({ ...r, drift: r.drift && { ...r.drift, failOnDrift: true } })).toBe(1);
    const text = textReport(r.b, r.drift);
    expect(text).toMatch(/Drift between http:\/\/127\.0\.0\.1:\d+ and http:\/\/127\.0\.0\.1:\d+/);
    expect(text).toMatch(/7 differences \(reported only; --fail-on-drift fails the run\)/);
    expect(junitReport([r.a, r.b], r.drift)).toMatch(
      /<testcase classname="GET \/api\/v1\/desk" name="listDesks: drift.count" time="0.000">\s*<system-out>drift \(reported only/,
    );
  });

  it('a collection one deployment does not serve', async () => {
    const broken: Deployment = await deployment(
      stubbed(staging, (a, req) => {
        if (req.url?.startsWith('/api/v1/workflow')) {
          a.status = 404;
          a.headers['content-type'] = 'text/html';
          a.body = '<h1>Not Found</h1>';
        }
      }),
    );
    try {
      const r = await runCompare(
        contract,
        { ...opts(prodUrl), only: ['workflow', 'jobtitle'] },
        { ...opts(broken.base), only: ['workflow', 'jobtitle'] },
        false,
      );
      expect(r.drift?.violations.map((v) => [v.rule, v.endpoint, v.expected, v.found])).toEqual([
        ['drift.collections', 'GET /api/v1/workflow', 'served', 'not served'],
      ]);
      expect(compareExitCode(r)).toBe(1); // the second deployment's own check fails (status)
    } finally {
      await broken.close();
    }
  });

  it('the CLI: drift is reported, and fails the run only with --fail-on-drift', async () => {
    const report = await runCli([
      'check',
      '--base-url',
      prodUrl,
      '--compare',
      stagingUrl,
      '--only',
      'desk,employee',
      '--item-urls',
      '3',
      '--header',
      `Authorization: ${AUTH}`,
      '--compare-header',
      `Authorization: ${AUTH}`,
    ]);
    expect(report.code).toBe(0);
    expect(report.stdout).toMatch(/Drift between/);
    expect(report.stdout).toMatch(/drift\.items/);
    const failing = await runCli([
      'check',
      '--base-url',
      prodUrl,
      '--compare',
      stagingUrl,
      '--only',
      'desk,employee',
      '--item-urls',
      '3',
      '--fail-on-drift',
      '--json',
      '--header',
      `Authorization: ${AUTH}`,
      '--compare-header',
      `Authorization: ${AUTH}`,
    ]);
    expect(failing.code).toBe(1);
    const json = JSON.parse(failing.stdout) as {
      exitCode: number;
      deployments: { ok: boolean }[];
      drift: { differences: number; failOnDrift: boolean };
    };
    expect(json).toMatchObject({
      exitCode: 1,
      deployments: [{ ok: true }, { ok: true }],
      drift: { differences: 7, failOnDrift: true },
    });
  });
});
