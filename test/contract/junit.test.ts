// JUnit XML as CI systems read it. No XSD is shipped with GitLab, Jenkins or GitHub's reporters;
// this checks the document is well-formed and carries every attribute they read:
// - GitLab (junit report artifact): testsuites › testsuite › testcase, name, classname, time,
//   failure / error / skipped, system-out;
// - Jenkins (junit plugin): testsuite tests/failures/errors/skipped/time, testcase classname
//   (package.class) and name, time as a decimal number;
// - GitHub (mikepenz/action-junit-report, dorny/test-reporter java-junit): testsuite name, tests,
//   failures, time; testcase classname, name, time, failure message and type.
import type { FastifyInstance } from 'fastify';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCheck } from '../../src/contract/checker.js';
import { type Contract, loadContract } from '../../src/contract/load.js';
import { junitReport } from '../../src/contract/reporters.js';
import { makeApp, listen, SPEC } from '../helpers.js';
import { deployment, type Deployment, stubbed } from './deployments.js';

interface Testcase {
  '@_classname': string;
  '@_name': string;
  '@_time': string;
  failure?: { '@_message': string; '@_type': string; '#text'?: string };
  skipped?: { '@_message': string };
}
interface Testsuite {
  '@_name': string;
  '@_tests': string;
  '@_failures': string;
  '@_errors': string;
  '@_skipped': string;
  '@_time': string;
  '@_timestamp': string;
  testcase: Testcase[];
}

function parse(xml: string): { root: Record<string, string>; suites: Testsuite[] } {
  expect(XMLValidator.validate(xml)).toBe(true);
  const doc = new XMLParser({
    ignoreAttributes: false,
    isArray: (name) => name === 'testsuite' || name === 'testcase',
  }).parse(xml) as { testsuites: Record<string, string> & { testsuite: Testsuite[] } };
  return { root: doc.testsuites, suites: doc.testsuites.testsuite };
}

/** Every structural promise a CI reporter relies on. */
function expectWellFormed(xml: string): Testsuite[] {
  const { root, suites } = parse(xml);
  const all = suites.flatMap((s) => s.testcase);
  expect(Number(root['@_tests'])).toBe(all.length);
  expect(Number(root['@_failures'])).toBe(all.filter((c) => c.failure).length);
  expect(Number(root['@_skipped'])).toBe(all.filter((c) => c.skipped).length);
  expect(root['@_errors']).toBe('0');
  for (const s of suites) {
    expect(Number(s['@_tests'])).toBe(s.testcase.length);
    expect(Number(s['@_failures'])).toBe(s.testcase.filter((c) => c.failure).length);
    expect(Number(s['@_skipped'])).toBe(s.testcase.filter((c) => c.skipped).length);
    expect(s['@_time']).toMatch(/^\d+\.\d{3}$/);
    expect(s['@_timestamp']).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
    const ids = s.testcase.map((c) => `${c['@_classname']} › ${c['@_name']}`);
    expect(new Set(ids).size, 'no testcase twice in a suite').toBe(ids.length);
    for (const c of s.testcase) {
      expect(c['@_classname']).toMatch(/^(contract|GET \/api\/v1\/[a-z-]+)$/);
      expect(c['@_time']).toMatch(/^\d+\.\d{3}$/);
      expect(Number(c['@_time'])).toBeLessThanOrEqual(Number(s['@_time']) + 0.001);
      if (c.failure) expect(c.failure['@_message']).not.toBe('');
      if (c.failure) expect(c.failure['@_type']).not.toBe('');
      if (c.skipped) expect(c.skipped['@_message']).not.toBe('');
    }
  }
  return suites;
}

const names = (suites: Testsuite[]) =>
  suites.flatMap((s) => s.testcase.map((c) => `${c['@_classname']} › ${c['@_name']}`)).sort();

describe('JUnit: one testcase per endpoint and rule, on every run', () => {
  let stub: FastifyInstance;
  let good: string;
  let broken: Deployment;
  let contract: Contract;
  beforeAll(async () => {
    stub = await makeApp({ pageSize: 7 });
    good = await listen(stub);
    contract = await loadContract(SPEC);
    broken = await deployment(
      stubbed(stub, (a, req) => {
        if (req.url?.startsWith('/api/v1/desk?')) a.body = a.body.replace(/"building":"[SP]"/, '"building":"AB"');
        if (req.url?.startsWith('/api/v1/employee')) {
          a.status = 500;
          a.headers['content-type'] = 'text/html';
          a.body = '<h1>Server Error (500)</h1> & <![CDATA[ ]]> \u0001';
        }
      }),
    );
  });
  afterAll(async () => {
    await broken.close();
    await stub.close();
  });

  const only = ['desk', 'employee'];

  it('passing, failing and skipped runs have the same testcases, each with classname and time', async () => {
    const pass = await runCheck(contract, {
      baseUrl: good,
      headers: {},
      timeoutMs: 5000,
      concurrency: 4,
      maxPages: 50,
      only,
    });
    const fail = await runCheck(contract, {
      baseUrl: broken.base,
      headers: {},
      timeoutMs: 5000,
      concurrency: 4,
      maxPages: 50,
      only,
    });
    const passing = expectWellFormed(junitReport(pass));
    const failing = expectWellFormed(junitReport(fail));
    expect(names(failing)).toEqual(names(passing));
    const cases = passing[0]?.testcase ?? [];
    expect(cases.filter((c) => c.failure)).toEqual([]);
    expect(cases.map((c) => c['@_name'])).toEqual(
      expect.arrayContaining([
        'listDesks: schema',
        'listDesks: item.fields',
        'listDesks: item-url.detail-equals',
        'listEmployees: envelope.count-reached',
        'listDesks: probe.head',
      ]),
    );
    expect(cases.find((c) => c['@_name'] === 'listDesks: probe.head')?.skipped?.['@_message']).toBe(
      'not run: --probes not given',
    );
    const failed = (failing[0]?.testcase ?? [])
      .filter((c) => c.failure)
      .map((c) => [c['@_classname'], c['@_name'], c.failure?.['@_type']]);
    expect(failed).toEqual([
      ['GET /api/v1/employee', 'listEmployees: status', 'status'],
      ['GET /api/v1/desk', 'listDesks: schema', 'schema'],
      ['GET /api/v1/desk', 'listDesks: item-url.detail-equals', 'item-url.detail-equals'],
    ]);
    // The employee collection's page never came: its other rules are skipped, not passed.
    expect(
      failing[0]?.testcase.find((c) => c['@_name'] === 'listEmployees: envelope.empty')?.skipped?.['@_message'],
    ).toBe('not verified: no page of the collection could be read');
    expect(failing[0]?.testcase.find((c) => c['@_name'] === 'listDesks: schema')?.failure?.['#text']).toMatch(
      /\/results\/0\/building at .*\n\s+expected: must be equal to one of the allowed values/,
    );
  });

  it('with --probes, the probe testcases run', async () => {
    const report = await runCheck(contract, {
      baseUrl: good,
      headers: {},
      timeoutMs: 5000,
      concurrency: 4,
      maxPages: 50,
      only,
      probes: true,
    });
    const cases = expectWellFormed(junitReport(report))[0]?.testcase ?? [];
    const probes = cases.filter((c) => c['@_name'].includes('probe.'));
    expect(probes.length).toBe(12); // desk: 6, employee: 6 (ModelViewSets: each has its item path)
    expect(probes.filter((c) => c.skipped || c.failure)).toEqual([]);
  });

  it('an unreachable deployment still names the run, as one failure', async () => {
    const report = await runCheck(contract, {
      baseUrl: 'http://127.0.0.1:9',
      headers: {},
      timeoutMs: 2000,
      concurrency: 1,
      maxPages: 1,
      only,
    });
    const suites = expectWellFormed(junitReport(report));
    expect(suites[0]?.testcase.filter((c) => c.failure).map((c) => c['@_name'])).toEqual(['the deployment answers']);
    const skipped = suites[0]?.testcase.filter((c) => c.skipped) ?? [];
    expect(skipped.length).toBe((suites[0]?.testcase.length ?? 0) - 1);
    expect(new Set(skipped.map((c) => c.skipped?.['@_message']))).toEqual(
      new Set(['not run: the deployment cannot be reached']),
    );
  });
});
