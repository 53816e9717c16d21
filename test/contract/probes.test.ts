// --probes: each collection's error contract as the spec declares it. The stub (which answers as
// the deployment's DRF does) passes; a deployment broken in each way fails the probe's own rule.
import { readFileSync } from 'node:fs';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exitCode, runCheck } from '../../src/contract/checker.js';
import { type Contract, loadContract } from '../../src/contract/load.js';
import { textReport } from '../../src/contract/reporters.js';
import { PROBE_RULES, type RuleId } from '../../src/contract/rules.js';
import { runCli } from '../cli-helpers.js';
import { FIXTURES, listen, makeApp, SPEC } from '../helpers.js';
import { deployment, stubbed } from './deployments.js';

const DESKS = JSON.parse(readFileSync(`${FIXTURES}/desk.json`, 'utf8')) as { pk: number; active: boolean }[];
// The desks the deployment lists are the active ones: the probe asks for one past the largest pk the crawl saw.
const LISTED = DESKS.filter((d) => d.active);
const MAX_PK = Math.max(...LISTED.map((d) => d.pk));
const PAGE_SIZE = 7;
const LAST_PAGE = Math.ceil(LISTED.length / PAGE_SIZE);

type Answer = { status: number; headers: Record<string, string>; body: string };
type Edit = (a: Answer, req: IncomingMessage, q: URLSearchParams, path: string) => void;

let stub: FastifyInstance;
let base: string;
let contract: Contract;
beforeAll(async () => {
  stub = await makeApp({ pageSize: PAGE_SIZE });
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
  it('every probe of every collection passes, none skipped: each of the 20 has its item path', async () => {
    const report = await runCheck(contract, opts(base));
    expect(report.violations).toEqual([]);
    expect(report.endpoints).toHaveLength(20);
    for (const e of report.endpoints) {
      const ran = PROBE_RULES.filter((r) => e.rules.includes(r));
      expect(
        ran.filter((r) => e.skipped[r] !== undefined),
        e.endpoint,
      ).toEqual([]);
      // ModelViewSets: every collection has its {pk} route, so unknown-pk runs everywhere.
      expect(ran, e.endpoint).toEqual(PROBE_RULES);
    }
    expect(report.endpoints.find((e) => e.resource === 'desk')).toMatchObject({ pages: LAST_PAGE, items: 190 });
    const cli = await runCli(['check', '--base-url', base, '--only', 'desk,jobtitle', '--probes']);
    expect(cli.code).toBe(0);
  });
});

// The deployment's serializers of the collections the document does not describe give items no
// fields at all ({}): the crawl learns no pk, so the unknown pk is the largest a 32-bit column holds,
// not 1 (an item that exists, as on the reference deployment's employees).
it('items without a pk: the unknown-pk probe asks for the largest pk, not one that exists', async () => {
  const d = await deployment(
    stubbed(stub, (a, req) => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      const item = /^\/api\/v1\/employee\/([0-9]+)$/.exec(path);
      // The list's own answers (not its errors): three items where the stub has none.
      if (path === '/api/v1/employee' && req.method === 'GET' && a.status === 200) {
        a.status = 200;
        a.body = JSON.stringify({ count: 3, next: null, previous: null, results: [{}, {}, {}] });
      } else if (item && Number(item[1]) <= 3) {
        a.status = 200;
        a.body = '{}';
      } else return;
      a.headers['content-type'] = 'application/json';
    }),
  );
  try {
    const report = await runCheck(contract, opts(d.base, ['employee']));
    expect(report.violations, textReport(report)).toEqual([]);
    expect(report.endpoints[0]).toMatchObject({ items: 3 });
    expect(d.seen.map((s) => new URL(s.url, 'http://x').pathname)).toContain('/api/v1/employee/2147483647');
    expect(d.seen.map((s) => new URL(s.url, 'http://x').pathname)).not.toContain('/api/v1/employee/1');
  } finally {
    await d.close();
  }
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
        q.get('page') === String(LAST_PAGE + 1) &&
        json(a, 200, { count: LISTED.length, next: null, previous: null, results: [] }),
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
    // The collection declares GET and POST (a ModelViewSet's list): the probe's method is PUT.
    ['PUT answers 200', (a, r) => r.method === 'PUT' && json(a, 200, { pk: 99 }), 'probe.method-not-allowed'],
    ['405 without Allow', (a, r) => r.method === 'PUT' && delete a.headers.allow, 'probe.method-not-allowed', 'Allow'],
    [
      '405 whose Allow names the method refused',
      (a, r) => r.method === 'PUT' && (a.headers.allow = 'GET, POST, PUT, HEAD, OPTIONS'),
      'probe.method-not-allowed',
      'Allow',
    ],
    [
      '405 whose Allow leaves out a declared method',
      (a, r) => r.method === 'PUT' && (a.headers.allow = 'GET, HEAD, OPTIONS'),
      'probe.method-not-allowed',
      'Allow',
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
      await expectCaught(contract, edit, rule, pointer);
    },
  );

  // The bundled spec declares no 405 body (the deployment's is DRF's {"detail"}, not written down);
  // a copy that declares it as components/responses/MethodNotAllowed has the probe check it.
  it('405 with a body the declared MethodNotAllowed schema refuses → probe.method-not-allowed', async () => {
    const dir = await mkdtemp(`${tmpdir()}/probes-spec-`);
    try {
      await cp(dirname(SPEC), dir, { recursive: true });
      const text = await readFile(`${dir}/openapi.yaml`, 'utf8');
      const anchor = '\n  responses:\n';
      expect(text).toContain(anchor);
      const declared = [
        '    MethodNotAllowed:',
        '      description: A method the view does not allow.',
        '      content:',
        '        application/json:',
        '          schema:',
        "            $ref: '#/components/schemas/Error'",
        '',
      ].join('\n');
      await writeFile(`${dir}/openapi.yaml`, text.replace(anchor, `${anchor}${declared}`));
      const with405 = await loadContract(`${dir}/openapi.yaml`);
      // The stub's own 405 passes the declared schema; a plain-text one does not.
      expect((await runCheck(with405, opts(base, ['desk']))).violations).toEqual([]);
      await expectCaught(
        with405,
        (a, r) => r.method === 'PUT' && json(a, 405, 'Method Not Allowed', { allow: 'GET, POST, HEAD, OPTIONS' }),
        'probe.method-not-allowed',
        '',
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  async function expectCaught(spec: Contract, edit: Edit, rule: RuleId, pointer?: string): Promise<void> {
    const d = await deployment(
      stubbed(stub, (a, req) => {
        const u = new URL(req.url ?? '/', 'http://x');
        edit(a, req, u.searchParams, u.pathname);
      }),
    );
    try {
      const report = await runCheck(spec, opts(d.base, ['desk']));
      expect([...new Set(report.violations.map((v) => v.rule))], textReport(report)).toEqual([rule]);
      if (pointer !== undefined) expect(report.violations.map((v) => v.pointer)).toContain(pointer);
      expect(exitCode(report)).toBe(1);
      // The write probe can create nothing: its body is no JSON a parser accepts.
      expect(
        d.seen
          .filter((s) => s.method !== 'GET' && s.method !== 'HEAD')
          .map((s) => [s.method, s.headers['content-length']]),
      ).toEqual([['PUT', '1']]);
    } finally {
      await d.close();
    }
  }
});
