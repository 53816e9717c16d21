// --probes: each collection's error contract as the spec declares it. The stub (which imitates
// stock DRF) passes; a deployment broken in each way fails the probe's own rule.
import { readFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exitCode, runCheck } from '../../src/contract/checker.js';
import { type Contract, loadContract } from '../../src/contract/load.js';
import { textReport } from '../../src/contract/reporters.js';
import { PROBE_RULES, type RuleId } from '../../src/contract/rules.js';
import { runCli } from '../cli-helpers.js';
import { FIXTURES, listen, makeApp, SPEC } from '../helpers.js';
import { deployment, stubbed } from './deployments.js';

// The probe asks for one past the largest pk the crawl saw.
const MAX_PK = Math.max(
  ...(JSON.parse(readFileSync(`${FIXTURES}/desk.json`, 'utf8')) as { pk: number }[]).map((d) => d.pk),
);

type Answer = { status: number; headers: Record<string, string>; body: string };
type Edit = (a: Answer, req: IncomingMessage, q: URLSearchParams, path: string) => void;

let stub: FastifyInstance;
let base: string;
let contract: Contract;
beforeAll(async () => {
  stub = await makeApp({ pageSize: 7 });
  base = await listen(stub);
  contract = await loadContract(SPEC);
});
afterAll(() => stub.close());

const opts = (baseUrl: string, only: string[] = []) => ({
  baseUrl,
  headers: {},
  timeoutMs: 5000,
  concurrency: 4,
  maxPages: 50,
  only,
  probes: true,
});

describe('the stub keeps the error contract', () => {
  it('every probe of every collection passes, none skipped but unknown pk where no item path exists', async () => {
    const report = await runCheck(contract, opts(base));
    expect(report.violations).toEqual([]);
    for (const e of report.endpoints) {
      const ran = PROBE_RULES.filter((r) => e.rules.includes(r));
      expect(
        ran.filter((r) => e.skipped[r] !== undefined),
        e.endpoint,
      ).toEqual([]);
      expect(ran.length).toBe(e.resource === 'desk' ? 6 : 5);
    }
    const cli = await runCli(['check', '--base-url', base, '--only', 'desk,jobtitle', '--probes']);
    expect(cli.code).toBe(0);
  });
});

describe('a deployment that breaks its error contract fails the probe', () => {
  const json = (a: Answer, status: number, body: unknown, headers: Record<string, string> = {}) => {
    a.status = status;
    a.body = JSON.stringify(body);
    a.headers = { ...a.headers, 'content-type': 'application/json', ...headers };
  };
  const cases: [string, Edit, RuleId, string?][] = [
    [
      'page=abc answers the first page',
      (a, _r, q) => q.get('page') === 'abc' && json(a, 200, { count: 0, next: null, previous: null, results: [] }),
      'probe.invalid-page',
    ],
    [
      'page=0 answers an HTML 404',
      (a, _r, q) =>
        q.get('page') === '0' && ((a.headers['content-type'] = 'text/html'), (a.body = '<h1>Not Found</h1>')),
      'probe.invalid-page',
    ],
    [
      'an invalid page answers a body the Error schema refuses',
      (a, _r, q) => q.get('page') === 'abc' && json(a, 404, { error: 'bad page' }),
      'probe.invalid-page',
      '/detail',
    ],
    [
      'the page after the last answers 200 and no items',
      (a, _r, q, p) =>
        p === '/api/v1/desk' &&
        q.get('page') === '8' &&
        json(a, 200, { count: 45, next: null, previous: null, results: [] }),
      'probe.page-past-end',
    ],
    [
      'an unknown format answers 200',
      (a, _r, q) =>
        q.get('format') === 'no-such-format' && json(a, 200, { count: 0, next: null, previous: null, results: [] }),
      'probe.unknown-format',
    ],
    [
      'an unknown pk answers 500',
      (a, _r, _q, p) =>
        p === `/api/v1/desk/${MAX_PK + 1}` &&
        ((a.status = 500), (a.headers['content-type'] = 'text/html'), (a.body = '<h1>Server Error (500)</h1>')),
      'probe.unknown-pk',
    ],
    ['POST answers 201', (a, r) => r.method === 'POST' && json(a, 201, { pk: 99 }), 'probe.method-not-allowed'],
    ['405 without Allow', (a, r) => r.method === 'POST' && delete a.headers.allow, 'probe.method-not-allowed', 'Allow'],
    [
      '405 whose Allow names the method refused',
      (a, r) => r.method === 'POST' && (a.headers.allow = 'GET, POST, HEAD, OPTIONS'),
      'probe.method-not-allowed',
      'Allow',
    ],
    [
      '405 with a body the Error schema refuses',
      (a, r) => r.method === 'POST' && json(a, 405, 'Method Not Allowed', { allow: 'GET, HEAD, OPTIONS' }),
      'probe.method-not-allowed',
    ],
    ['HEAD answers 404', (a, r) => r.method === 'HEAD' && (a.status = 404), 'probe.head'],
    [
      "HEAD's Content-Type differs from GET's",
      (a, r) => r.method === 'HEAD' && (a.headers['content-type'] = 'text/html'),
      'probe.head',
      'content-type',
    ],
    [
      "HEAD's Content-Length is not GET's",
      (a, r) => r.method === 'HEAD' && (a.headers['content-length'] = '7'),
      'probe.head',
      'content-length',
    ],
  ];

  it.each(cases.map(([name, edit, rule, pointer]) => [name, rule, edit, pointer] as const))(
    '%s → %s',
    async (_name, rule, edit, pointer) => {
      const d = await deployment(
        stubbed(stub, (a, req) => {
          const u = new URL(req.url ?? '/', 'http://x');
          edit(a, req, u.searchParams, u.pathname);
        }),
      );
      try {
        const report = await runCheck(contract, opts(d.base, ['desk']));
        expect([...new Set(report.violations.map((v) => v.rule))], textReport(report)).toEqual([rule]);
        if (pointer) expect(report.violations.map((v) => v.pointer)).toContain(pointer);
        expect(exitCode(report)).toBe(1);
        // The write probe can create nothing: its body is no JSON a parser accepts.
        expect(
          d.seen
            .filter((s) => s.method !== 'GET' && s.method !== 'HEAD')
            .map((s) => [s.method, s.headers['content-length']]),
        ).toEqual([['POST', '1']]);
      } finally {
        await d.close();
      }
    },
  );
});
