// The checker, the proxy and the recorder against the real framework: the DRF reference deployment
// of test/reference/ (Debian's Django + DRF). It passes every rule and probe; its planted faults
// are caught; through the proxy its links work; recorded and served by the stub, it answers the same.
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCheck } from '../../src/contract/checker.js';
import { type Contract, loadContract } from '../../src/contract/load.js';
import { testProxy } from './deployments.js';
import { runRecord } from '../../src/contract/record.js';
import { textReport } from '../../src/contract/reporters.js';
import { ROOT, startCli } from '../cli-helpers.js';
import { DOCUMENT_COLLECTIONS, SPEC } from '../helpers.js';
import { type Reference, referenceAvailable, startReference } from '../reference/drf-server.js';

const available = referenceAvailable();
if (!available.ok) console.warn(`test/contract/reference.test.ts skipped: ${available.why}`);

// The deployment shows employees to a user only: the checker sends a token the reference knows.
const TOKEN = '9944b09199c62bcf9418ad846dd0e4bbdfc6ee4b';
const opts = (baseUrl: string) => ({
  baseUrl,
  headers: { Authorization: `Token ${TOKEN}` },
  timeoutMs: 10_000,
  concurrency: 4,
  maxPages: 50,
  only: [] as string[],
});

describe.skipIf(!available.ok)('against the DRF reference deployment', () => {
  let contract: Contract;
  let reference: Reference;
  let fixtures: string;
  beforeAll(async () => {
    contract = await loadContract(SPEC);
    fixtures = await mkdtemp(`${tmpdir()}/reference-`);
    // desks as the deployment can hold them (unique numbers): 48, of which 43 active
    await writeFile(`${fixtures}/desk.json`, await readFile(`${ROOT}/test/reference/fixtures/desk.json`));
    await writeFile(`${fixtures}/employee.json`, JSON.stringify(Array.from({ length: 9 }, (_, i) => ({ pk: i + 1 }))));
    reference = await startReference({ pageSize: 7, fixturesDir: fixtures, tokens: [TOKEN] });
  }, 60_000);
  afterAll(async () => {
    await reference?.stop();
    await rm(fixtures, { recursive: true, force: true });
  });

  it('the checker: every rule and every probe holds', async () => {
    const report = await runCheck(contract, { ...opts(reference.url), probes: true });
    expect(report.violations, textReport(report)).toEqual([]);
    expect(report.endpoints.find((e) => e.resource === 'desk')).toMatchObject({
      pages: 7,
      items: 43,
      itemUrlsFetched: 43,
    });
    expect(report.endpoints.find((e) => e.resource === 'employee')).toMatchObject({ pages: 2, items: 9 });
  });

  it.each([
    ['missing-field', 'item.fields'],
    ['wrong-type', 'schema'],
    ['other-host', 'urls.base'],
    ['count-lies', 'envelope.count-reached'],
  ])('the checker catches the planted fault %s: %s', async (fault, rule) => {
    const broken = await startReference({ pageSize: 7, fixturesDir: fixtures, fault, tokens: [TOKEN] });
    try {
      const report = await runCheck(contract, { ...opts(broken.url), only: ['desk', 'employee'] });
      expect(report.violations.map((v) => v.rule)).toContain(rule);
    } finally {
      await broken.stop();
    }
  });

  it('the proxy: links lead through it, no violation; a planted fault is flagged', async () => {
    const log: string[] = [];
    const proxy = await testProxy(contract, reference.url, { timeoutMs: 10_000, log: (l) => log.push(l) });
    const broken = await startReference({
      pageSize: 7,
      fixturesDir: fixtures,
      fault: 'missing-field',
      tokens: [TOKEN],
    });
    const brokenProxy = await testProxy(contract, broken.url, { errors: true, timeoutMs: 10_000 });
    try {
      let url: string | null = `${proxy.url}/api/v1/desk?format=api`;
      let pages = 0;
      while (url) {
        const res = await fetch(url);
        expect(res.status).toBe(200);
        expect(res.headers.get('x-contract-violations')).toBe('0');
        const page = (await res.json()) as { next: string | null; results: { url: string }[] };
        expect(page.results[0]?.url.startsWith(`${proxy.url}/api/v1/desk/`)).toBe(true);
        expect((await fetch(page.results[0]?.url ?? '')).headers.get('x-contract-violations')).toBe('0');
        url = page.next;
        pages++;
      }
      expect(pages).toBe(7);
      for (const [method, path, status] of [
        ['GET', '/api/v1/desk?format=api&page=99', 404],
        ['GET', '/api/v1/desk/99999?format=api', 404],
        // A ModelViewSet's list takes GET and POST: PUT is the method it refuses.
        ['PUT', '/api/v1/desk', 405],
        ['POST', '/api/v1/desk', 400],
        ['HEAD', '/api/v1/employee?format=api', 200],
      ] as const) {
        const res = await fetch(`${proxy.url}${path}`, { method });
        expect(res.status, `${method} ${path}`).toBe(status);
        expect(res.headers.get('x-contract-violations'), `${method} ${path}`).toBe('0');
      }
      expect(log).toEqual([]);
      const flagged = await fetch(`${brokenProxy.url}/api/v1/desk?format=api`);
      expect(flagged.status).toBe(502);
      expect(((await flagged.json()) as { violations: { rule: string }[] }).violations.map((v) => v.rule)).toContain(
        'item.fields',
      );
    } finally {
      await proxy.stop();
      await brokenProxy.stop();
      await broken.stop();
    }
  });

  it('the recorder: recorded and served by the stub, the answers are the reference’s', async () => {
    const out = await mkdtemp(`${tmpdir()}/reference-recording-`);
    let replay: { child: ChildProcess; url: string } | undefined;
    try {
      const r = await runRecord(contract, { ...opts(reference.url), outDir: out, force: false });
      if (!r.ok) throw new Error(r.error);
      expect(r.collections.filter((c) => !c.written)).toEqual([]);
      expect(r.pageSize).toBe(7);
      replay = await startCli(['--port', '0', '-q', '--fixtures', out, '--page-size', '7']);
      for (const resource of DOCUMENT_COLLECTIONS) {
        let path: string | null = `/api/v1/${resource}?format=api`;
        while (path) {
          const [want, got]: Response[] = await Promise.all([
            fetch(`${reference.url}${path}`),
            fetch(`${replay.url}${path}`),
          ]);
          expect(got?.status, path).toBe(want?.status);
          const w: string = (await (want as Response).text()).replaceAll(reference.url, '{base}');
          const g: string = (await (got as Response).text()).replaceAll(replay.url, '{base}');
          expect(JSON.parse(g), path).toEqual(JSON.parse(w));
          const next: string | null = (JSON.parse(w) as { next: string | null }).next;
          path = next ? next.replace('{base}', '') : null;
        }
      }
    } finally {
      if (replay) {
        replay.child.kill('SIGTERM');
        await once(replay.child, 'exit');
      }
      await rm(out, { recursive: true, force: true });
    }
  });
});
