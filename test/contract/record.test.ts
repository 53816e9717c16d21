// Recording a deployment into fixtures, and the round trip: the stub serving the recording
// answers what the deployment answered.
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { access, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { runCheck } from '../../src/contract/checker.js';
import { type Contract, loadContract } from '../../src/contract/load.js';
import { runRecord } from '../../src/contract/record.js';
import { runCli, startCli } from '../cli-helpers.js';
import { DOCUMENT_COLLECTIONS, FIXTURES, listen, makeApp, SPEC } from '../helpers.js';
import { deployment, freePort, sendJson, stubbed } from './deployments.js';

// fixtures/desk.json: 192 desks of the deployment; it lists the active ones (190).
const LISTED = (JSON.parse(readFileSync(`${FIXTURES}/desk.json`, 'utf8')) as { pk: number; active: boolean }[])
  .filter((d) => d.active)
  .sort((x, y) => x.pk - y.pk);

const EMPLOYEES = Array.from({ length: 12 }, (_, i) => ({
  pk: i + 1,
  name: `Employee ${i + 1}`,
  email: `e${i + 1}@example.org`,
  started: `2021-03-${String(i + 1).padStart(2, '0')}`,
  manager: i === 0 ? null : 1,
  tags: i % 2 ? ['remote'] : [],
}));

let dirs: string[] = [];
const tmp = async (name: string) => {
  const d = await mkdtemp(`${tmpdir()}/${name}-`);
  dirs.push(d);
  return d;
};

let contract: Contract;
let deploymentApp: FastifyInstance;
let deploymentUrl: string;
beforeAll(async () => {
  contract = await loadContract(SPEC);
  // The deployment: the stub with the bundled desks and employees the spec does not describe.
  const fixtures = await tmp('deployment');
  await writeFile(`${fixtures}/desk.json`, await readFile(`${FIXTURES}/desk.json`));
  await writeFile(`${fixtures}/employee.json`, JSON.stringify(EMPLOYEES));
  deploymentApp = await makeApp({ pageSize: 7, fixturesDir: fixtures });
  deploymentUrl = await listen(deploymentApp);
});
afterAll(async () => {
  await deploymentApp.close();
  for (const d of dirs) await rm(d, { recursive: true, force: true });
  dirs = [];
});

/** Every page of every collection, and every desk at its url, with the deployment's base written `{base}`. */
async function answers(base: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const get = async (url: string) => {
    const res = await fetch(url);
    const text = (await res.text()).replaceAll(base, '{base}');
    out.set(`${res.status} ${url.slice(base.length)}`, text);
    return JSON.parse(text) as { next: string | null; results: { url?: string }[] };
  };
  for (const resource of DOCUMENT_COLLECTIONS) {
    let url: string | null = `${base}/api/v1/${resource}?format=api`;
    while (url) {
      const page: { next: string | null; results: { url?: string }[] } = await get(url);
      for (const item of page.results) if (item.url) await get(item.url.replace('{base}', base));
      url = page.next?.replace('{base}', base) ?? null;
    }
  }
  return out;
}

describe('workplace-stub record', () => {
  it('round trip: record the deployment, serve the recording, and the stub answers what the deployment answered', async () => {
    const out = await tmp('recording');
    const r = await runCli([
      'record',
      '--base-url',
      deploymentUrl,
      '--out',
      out,
      '--header',
      'Authorization: Token rec-secret-77',
    ]);
    expect(r.code, r.stderr + r.stdout).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`✓ desk: ${LISTED.length} items →`));
    expect(r.stdout).toMatch(/✓ employee: 12 items →/);
    expect(r.stdout).toMatch(/Serve it: workplace-stub --fixtures .* --page-size 7/);
    const files = (await readdir(out)).sort();
    expect(files).toEqual(
      [...DOCUMENT_COLLECTIONS.map((c) => `${c}.json`), 'recording.yaml', 'suggested-schemas.yaml'].sort(),
    );
    const desks = JSON.parse(await readFile(`${out}/desk.json`, 'utf8')) as Record<string, unknown>[];
    // The desks the deployment lists (its active ones), in its order: building, floor, number.
    expect(desks).toHaveLength(LISTED.length);
    expect([...desks].sort((x, y) => Number(x.pk) - Number(y.pk))).toEqual(LISTED);
    expect(JSON.parse(await readFile(`${out}/employee.json`, 'utf8'))).toEqual(EMPLOYEES);
    expect(JSON.parse(await readFile(`${out}/jobtitle.json`, 'utf8'))).toEqual([]);
    for (const f of files) expect(await readFile(`${out}/${f}`, 'utf8'), f).not.toContain('rec-secret-77');

    const suggested = parse(await readFile(`${out}/suggested-schemas.yaml`, 'utf8')) as Record<
      string,
      { type: string; required: string[]; properties: Record<string, Record<string, unknown>> }
    >;
    expect(Object.keys(suggested)).toEqual(['Employee']);
    expect(suggested.Employee).toMatchObject({
      type: 'object',
      required: ['pk', 'name', 'email', 'started', 'manager', 'tags'],
    });
    expect(suggested.Employee?.properties).toEqual({
      pk: { type: 'integer' },
      name: { type: 'string' },
      email: { type: 'string', format: 'email' },
      started: { type: 'string', format: 'date' },
      manager: { type: ['integer', 'null'] },
      tags: { type: 'array', items: { type: 'string' } },
    });

    let replay: { child: ChildProcess; url: string } | undefined;
    try {
      replay = await startCli(['--port', '0', '-q', '--fixtures', out, '--page-size', '7']);
      const [want, got] = [await answers(deploymentUrl), await answers(replay.url)];
      expect(want.size).toBeGreaterThan(LISTED.length + Math.ceil(LISTED.length / 7) + 2);
      expect([...got.entries()]).toEqual([...want.entries()]);
      const report = await runCheck(contract, {
        baseUrl: replay.url,
        headers: {},
        timeoutMs: 5000,
        concurrency: 4,
        maxPages: 50,
        only: [],
      });
      expect(report.violations).toEqual([]);
    } finally {
      if (replay) {
        replay.child.kill('SIGTERM');
        await once(replay.child, 'exit');
      }
    }
  });

  it('credentials a deployment echoes into items are never written', async () => {
    const secret = 'Token echo-S3cret-9';
    const d = await deployment((req, res) => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      const auth = req.headers.authorization ?? '';
      if (path === '/api/v1/employee')
        return sendJson(res, 200, {
          count: 2,
          next: null,
          previous: null,
          results: [
            { pk: 1, note: `token ${auth}` },
            { pk: 2, note: Buffer.from(auth).toString('base64') },
          ],
        });
      sendJson(res, 200, { count: 0, next: null, previous: null, results: [] });
    });
    try {
      const out = await tmp('echo');
      const r = await runRecord(contract, {
        baseUrl: d.base,
        headers: { authorization: secret },
        timeoutMs: 3000,
        maxPages: 10,
        concurrency: 2,
        only: ['employee'],
        outDir: out,
        force: false,
      });
      expect(r.ok).toBe(true);
      if (!r.ok) return;
      expect(r.collections[0]).toMatchObject({ written: true, items: 2, redacted: 2 });
      for (const f of await readdir(out)) {
        const text = await readFile(`${out}/${f}`, 'utf8');
        expect(text, f).not.toMatch(/S3cret|echo-S3/);
      }
      expect(JSON.parse(await readFile(`${out}/employee.json`, 'utf8'))).toEqual([
        { pk: 1, note: 'token [redacted]' },
        { pk: 2, note: '[redacted]' },
      ]);
    } finally {
      await d.close();
    }
  });

  it('a collection with invalid items, or cut short, is not written (exit 1); --allow-truncated writes what was read', async () => {
    const d = await deployment(
      stubbed(deploymentApp, (a, req) => {
        if (req.url?.startsWith('/api/v1/desk?') && req.url.includes('page=3'))
          a.body = a.body.replace(/"building":"[A-Z]"/, '"building":"AB"');
      }),
    );
    try {
      const out = await tmp('invalid');
      const r = await runRecord(contract, {
        baseUrl: d.base,
        headers: {},
        timeoutMs: 3000,
        maxPages: 50,
        concurrency: 2,
        only: ['desk', 'jobtitle'],
        outDir: out,
        force: false,
      });
      if (!r.ok) throw new Error(r.error);
      expect(r.collections.map((c) => [c.resource, c.written, c.reason])).toEqual([
        // In the spec's order of the collections: jobtitle comes first.
        ['jobtitle', true, undefined],
        [
          'desk',
          false,
          '1 item the stub would refuse (against the item schema, or a pk that cannot be a path segment)',
        ],
      ]);
      await expect(access(`${out}/desk.json`)).rejects.toThrow();
      expect((await readdir(out)).filter((f) => f.includes('partial'))).toEqual([]);

      const cut = await tmp('cut');
      const args = ['record', '--base-url', deploymentUrl, '--out', cut, '--only', 'desk', '--max-pages', '2'];
      const short = await runCli(args);
      expect(short.code).toBe(1);
      expect(short.stdout).toMatch(/✗ desk: not written: the crawl stopped at --max-pages/);
      const again = await runCli(args);
      expect(again.code).toBe(2);
      expect(again.stderr).toMatch(/already holds recording\.yaml \(--force overwrites\)/);
      const allowed = await runCli([...args, '--allow-truncated', '--force']);
      expect(allowed.code).toBe(0);
      expect(JSON.parse(await readFile(`${cut}/desk.json`, 'utf8'))).toHaveLength(14);
    } finally {
      await d.close();
    }
  });

  it('nothing reachable: exit 2 and nothing written', async () => {
    const out = await tmp('unreachable');
    const r = await runCli(['record', '--base-url', `http://127.0.0.1:${await freePort()}`, '--out', out]);
    expect(r.code).toBe(2);
    expect(r.stdout).toMatch(/cannot be reached/);
    expect(await readdir(out)).toEqual([]);
  });
});
