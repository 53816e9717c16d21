import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CheckReport, exitCode, runCheck } from '../../src/contract/checker.js';
import { type Contract, loadContract } from '../../src/contract/load.js';
import { junitReport, textReport } from '../../src/contract/reporters.js';
import type { RuleId } from '../../src/contract/rules.js';
import { listen, makeApp, SPEC } from '../helpers.js';
import { runCli } from '../cli-helpers.js';

type Json = Record<string, unknown> & {
  results?: Record<string, unknown>[];
  count?: number;
  next?: string | null;
  previous?: string | null;
};
interface Answer {
  status: number;
  body: string;
  contentType?: string;
}
/** A break: given the request and the stub's own answer, what the broken deployment answers. */
type Break = (req: { path: string; url: string; base: string }, good: Answer) => Answer | 'reset' | 'hang';

const json = (a: Answer): Json => JSON.parse(a.body) as Json;
const withBody = (a: Answer, body: unknown): Answer => ({ ...a, body: JSON.stringify(body) });
const isDeskList = (path: string) => path === '/api/v1/desk';

/** A deployment that answers what the stub answers, except where `breakIt` breaks it. */
async function brokenDeployment(stub: FastifyInstance, breakIt: Break): Promise<{ base: string; server: Server }> {
  let base = '';
  const server = createServer(async (req, res) => {
    const url = req.url ?? '/';
    const good = await stub.inject({ url, headers: { host: req.headers.host ?? 'x' } });
    const answer = breakIt(
      { path: url.split('?')[0] ?? url, url, base },
      { status: good.statusCode, body: good.body, contentType: String(good.headers['content-type']) },
    );
    if (answer === 'reset') return req.socket.destroy();
    if (answer === 'hang') return;
    res.writeHead(answer.status, { 'content-type': answer.contentType ?? 'application/json' }).end(answer.body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { base, server };
}

const checkOpts = (base: string) => ({
  baseUrl: base,
  headers: {},
  timeoutMs: 2000,
  concurrency: 4,
  maxPages: 100,
  only: [] as string[],
});

describe('the checker against the stub, over real HTTP', () => {
  let app: FastifyInstance;
  let base: string;
  let contract: Contract;
  beforeAll(async () => {
    app = await makeApp({ pageSize: 7 });
    base = await listen(app);
    contract = await loadContract(SPEC);
  });
  afterAll(() => app.close());

  // fixtures/desk.json: 192 desks of the deployment, 190 of them active (the desks it lists), 28 pages of 7.
  it('passes: every collection, every page, every desk at its url', async () => {
    const report = await runCheck(contract, checkOpts(base));
    expect(report.violations).toEqual([]);
    expect(report.endpoints).toHaveLength(20);
    const desk = report.endpoints.find((e) => e.resource === 'desk');
    expect(desk?.pages).toBe(28);
    expect(desk?.items).toBe(190);
    expect(desk?.itemUrlsFetched).toBe(190);
    expect(exitCode(report)).toBe(0);
    expect(textReport(report)).toMatch(/20 passed, 0 failed; 0 violations/);
  });

  it('the CLI exits 0 against the stub and 2 when nothing answers', async () => {
    const ok = await runCli(['check', '--base-url', base, '--only', 'desk,employee']);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/✓ GET \/api\/v1\/desk 28 pages, 190 items/);
    const free = createServer();
    await new Promise<void>((r) => free.listen(0, '127.0.0.1', r));
    const freePort = (free.address() as AddressInfo).port;
    await new Promise((r) => free.close(r));
    const none = await runCli(['check', '--base-url', `http://127.0.0.1:${freePort}`]);
    expect(none.code).toBe(2);
    expect(none.stdout + none.stderr).toMatch(/cannot be reached/);
    const bad = await runCli(['check', '--base-url', base, '--only', 'nosuch']);
    expect(bad.code).toBe(2);
  });

  it('the CLI writes --json to stdout and --junit to a file', async () => {
    const { mkdtemp, readFile } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const dir = await mkdtemp(`${tmpdir()}/junit-`);
    const r = await runCli(['check', '--base-url', base, '--only', 'desk', '--json', '--junit', `${dir}/contract.xml`]);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout) as { ok: boolean; endpoints: { resource: string; items: number }[] };
    expect(report.ok).toBe(true);
    expect(report.endpoints[0]).toMatchObject({ resource: 'desk', items: 190 });
    const xml = await readFile(`${dir}/contract.xml`, 'utf8');
    // One testcase per rule of the endpoint (test/contract/junit.test.ts checks the structure).
    expect(xml).toMatch(/<testsuite id="0" name="contract [^"]+" tests="\d+" failures="0" errors="0" skipped="6"/);
    expect(xml).toContain('<testcase classname="GET /api/v1/desk" name="listDesks: item.fields" time="');
  });

  it.each(['json', ''])('passes with format=%j too, expecting item urls to carry it', async (format) => {
    const report = await runCheck(contract, { ...checkOpts(base), format, only: ['desk'] });
    expect(report.violations).toEqual([]);
    expect(report.endpoints[0]?.items).toBe(190);
  });

  it('asks format=api as DRF negotiates it: a bare Accept: application/json would be 406', async () => {
    // The deployment's format override picks the browsable renderer (text/html) before Accept is read.
    const bare = await fetch(`${base}/api/v1/desk?format=api`, { headers: { accept: 'application/json' } });
    expect(bare.status).toBe(406);
    const report = await runCheck(contract, { ...checkOpts(base), only: ['desk'], itemUrls: 3 });
    expect(report.violations).toEqual([]);
    expect(report.endpoints[0]).toMatchObject({ firstStatus: 200, pages: 28, itemUrlsFetched: 3 });
  });

  it('reports a bound it hit: --max-pages', async () => {
    const report = await runCheck(contract, { ...checkOpts(base), maxPages: 2, only: ['desk'] });
    expect(report.endpoints[0]?.truncated).toBe(true);
    expect(textReport(report)).toMatch(/stopped at 2 pages, --max-pages/);
  });
});

describe('the checker fails against broken deployments, naming the rule', () => {
  let stub: FastifyInstance;
  let contract: Contract;
  beforeAll(async () => {
    stub = await makeApp({ pageSize: 7 });
    contract = await loadContract(SPEC);
  });
  afterAll(() => stub.close());

  const deskPage =
    (mutate: (body: Json, req: { url: string; base: string }) => void): Break =>
    (req, good) => {
      if (!isDeskList(req.path) || good.status !== 200) return good;
      const body = json(good);
      mutate(body, req);
      return withBody(good, body);
    };
  const firstDesk = (mutate: (desk: Record<string, unknown>) => void) =>
    deskPage((b, req) => {
      if (!req.url.includes('page=')) mutate(b.results?.[0] as Record<string, unknown>);
    });

  const breaks: [string, Break, RuleId, string?][] = [
    ['a desk without one of its fields', firstDesk((d) => delete d.held_today), 'item.fields', '/results/0/held_today'],
    ['a two-letter building', firstDesk((d) => (d.building = 'AB')), 'schema', '/results/0/building'],
    // One upper-case letter, as the document says, but not one of the deployment's (S, P).
    ['a building the deployment has not', firstDesk((d) => (d.building = 'Z')), 'schema', '/results/0/building'],
    ['a number as an integer', firstDesk((d) => (d.number = 101)), 'schema', '/results/0/number'],
    [
      'a url on another host',
      firstDesk((d) => (d.url = String(d.url).replace(/\/\/[^/]+/, '//elsewhere.example.org'))),
      'urls.base',
      '/results/0/url',
    ],
    [
      'a url whose last segment is not its pk',
      firstDesk((d) => (d.url = String(d.url).replace(/\/(\d+)\?/, '/999?'))),
      'item-url.pk',
      '/results/0/url',
    ],
    [
      'a url without ?format=api',
      firstDesk((d) => (d.url = String(d.url).replace('?format=api', ''))),
      'item-url.shape',
      '/results/0/url',
    ],
    [
      'a next link on another host',
      deskPage((b) => (b.next = b.next ? b.next.replace(/\/\/[^/]+/, '//elsewhere.example.org') : null)),
      'urls.base',
      '/next',
    ],
    [
      'a previous on the first page',
      deskPage((b, req) => (req.url.includes('page=') ? undefined : (b.previous = `${req.base}/api/v1/desk?page=7`))),
      'envelope.first-previous',
      '/previous',
    ],
    [
      'a previous that does not lead back',
      deskPage((b, req) =>
        req.url.includes('page=3') ? (b.previous = `${req.base}/api/v1/desk?format=api&page=5`) : undefined,
      ),
      'envelope.previous-back',
      '/previous',
    ],
    ['count different from the items', deskPage((b) => (b.count = 44)), 'envelope.count-reached', '/count'],
    [
      'a count that changes between pages',
      deskPage((b, req) => (req.url.includes('page=2') ? (b.count = 46) : undefined)),
      'envelope.count-stable',
      '/count',
    ],
    [
      'a count the crawl does not reach',
      deskPage((b, req) => (req.url.includes('page=4') ? (b.next = null) : undefined)),
      'envelope.count-reached',
      '/count',
    ],
    [
      'an item seen twice',
      deskPage((b, req) =>
        req.url.includes('page=2') && b.results ? (b.results[0] = { ...b.results[1] }) : undefined,
      ),
      'envelope.duplicate-item',
    ],
    [
      'a next that loops',
      deskPage((b, req) =>
        req.url.includes('page=3') ? (b.next = `${req.base}/api/v1/desk?format=api&page=2`) : undefined,
      ),
      'envelope.next-loop',
    ],
    [
      'an empty collection with a next',
      (req, good) =>
        req.path === '/api/v1/employee'
          ? withBody(good, { ...json(good), next: `${req.base}/api/v1/employee?page=2` })
          : good,
      'envelope.empty',
      '/next',
    ],
    [
      'one page whose results differ from count',
      (req, good) => (req.path === '/api/v1/jobtitle' ? withBody(good, { ...json(good), count: 3 }) : good),
      'envelope.single-page',
      '/results',
    ],
    [
      'a 500',
      (req, good) =>
        req.path === '/api/v1/review'
          ? { status: 500, body: '<h1>Server Error (500)</h1>', contentType: 'text/html' }
          : good,
      'status',
    ],
    [
      'a missing endpoint',
      (req, good) => (req.path === '/api/v1/workflow' ? { status: 404, body: '{"detail":"Not found."}' } : good),
      'status',
    ],
    [
      'a desk whose url does not answer',
      (req, good) => (/^\/api\/v1\/desk\/5$/.test(req.path) ? { status: 404, body: '{"detail":"Not found."}' } : good),
      'item-url.addressable',
    ],
    [
      'a detail that differs from its list item',
      (req, good) => (/^\/api\/v1\/desk\/2$/.test(req.path) ? withBody(good, { ...json(good), floor: 99 }) : good),
      'item-url.detail-equals',
    ],
    [
      'a detail that breaks the schema',
      (req, good) => (/^\/api\/v1\/desk\/3$/.test(req.path) ? withBody(good, { ...json(good), active: 'yes' }) : good),
      'schema',
      '/active',
    ],
    [
      'invalid JSON',
      (req, good) => (req.path === '/api/v1/expense' ? { status: 200, body: '{"count":0,' } : good),
      'json',
    ],
    [
      'a wrong content type',
      (req, good) => (req.path === '/api/v1/mealstop' ? { ...good, contentType: 'text/html' } : good),
      'content-type',
    ],
    [
      'envelope keys missing',
      (req, good) => (req.path === '/api/v1/stepchoice' ? withBody(good, { results: [] }) : good),
      'schema',
    ],
    ['a connection reset', (req, good) => (req.path === '/api/v1/signature' ? 'reset' : good), 'transport'],
    ['an answer that never comes', (req, good) => (req.path === '/api/v1/reviewnote' ? 'hang' : good), 'transport'],
  ];

  const cases = breaks.map(([name, breakIt, rule, pointer]) => [`${name} → ${rule}`, breakIt, rule, pointer] as const);
  it.each(cases)('%s', async (_name, breakIt, rule, pointer) => {
    const { base, server } = await brokenDeployment(stub, breakIt);
    try {
      const report: CheckReport = await runCheck(contract, checkOpts(base));
      expect(exitCode(report)).toBe(1);
      const hits = report.violations.filter((v) => v.rule === rule);
      expect(hits.length, textReport(report)).toBeGreaterThan(0);
      if (pointer) expect(hits.map((v) => v.pointer)).toContain(pointer);
      expect(textReport(report)).toContain(rule);
      expect(junitReport(report)).toMatch(/<failure /);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  it('never reports the credentials it was given', async () => {
    const secret = 'Token s3cr3t-value';
    const { base, server } = await brokenDeployment(stub, (req, good) =>
      req.path === '/api/v1/review' ? { status: 500, body: `echo ${secret}` } : good,
    );
    try {
      const report = await runCheck(contract, { ...checkOpts(base), headers: { authorization: secret } });
      expect(report.violations.length).toBeGreaterThan(0);
      expect(JSON.stringify(report)).not.toContain('s3cr3t');
      expect(textReport(report)).not.toContain('s3cr3t');
    } finally {
      server.close();
    }
  });
});
