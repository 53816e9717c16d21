// The recorder never writes what the stub would refuse, never claims a recording it did not make,
// and never leaves half a folder: each case a deployment (or a user) of the kind a live staging
// brings. Every recording here is loaded by the stub's own loader afterwards.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { lstat, mkdir, mkdtemp, readdir, readFile, readlink, rm, symlink, writeFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCheck } from '../../src/contract/checker.js';
import { type Contract, loadContract } from '../../src/contract/load.js';
import { runRecord } from '../../src/contract/record.js';
import { ROOT, runCli } from '../cli-helpers.js';
import { FIXTURES, makeApp, SPEC } from '../helpers.js';
import { deployment, type Deployment, EMPTY_PAGE, freePort, sendJson } from './deployments.js';

let contract: Contract;
let desks: Record<string, unknown>[];
const dirs: string[] = [];
const tmp = async (name: string) => {
  const d = await mkdtemp(`${tmpdir()}/${name}-`);
  dirs.push(d);
  return d;
};
beforeAll(async () => {
  contract = await loadContract(SPEC);
  desks = JSON.parse(await readFile(`${FIXTURES}/desk.json`, 'utf8')) as Record<string, unknown>[];
});
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

const pathOf = (url: string | undefined) => new URL(url ?? '/', 'http://x').pathname;

const recordOpts = (base: string, outDir: string, only = ['desk']) => ({
  baseUrl: base,
  headers: {},
  timeoutMs: 3000,
  maxPages: 20,
  concurrency: 2,
  only,
  outDir,
  force: true,
  format: 'api',
});

describe('integers past 2^53 (a BigAutoField pk) are kept as the deployment sent them', () => {
  const BIG = '9007199254740993';
  /** A desk as JSON text with `pk` written as given, its url built from that text. */
  const deskText = (origin: string, pk: string, i: number) =>
    JSON.stringify({ url: `${origin}/api/v1/desk/${pk}?format=api`, ...desks[i], pk: 0 }).replace(
      '"pk":0',
      `"pk":${pk}`,
    );

  it('the checker finds no violation, and the recording holds the pk as sent', async () => {
    const d = await deployment((req, res, { origin }) => {
      const path = pathOf(req.url);
      if (path === '/api/v1/desk')
        return sendJson(
          res,
          200,
          `{"count":2,"next":null,"previous":null,"results":[${deskText(origin, '1', 0)},${deskText(origin, BIG, 1)}]}`,
        );
      if (path === `/api/v1/desk/${BIG}`) return sendJson(res, 200, deskText(origin, BIG, 1));
      if (path === '/api/v1/desk/1') return sendJson(res, 200, deskText(origin, '1', 0));
      sendJson(res, 200, EMPTY_PAGE);
    });
    try {
      const report = await runCheck(contract, { ...recordOpts(d.base, ''), maxPages: 5, concurrency: 2 });
      expect(report.violations).toEqual([]);
      const out = await tmp('big-pk');
      const r = await runRecord(contract, recordOpts(d.base, out));
      if (!r.ok) throw new Error(r.error);
      expect(r.collections.map((c) => [c.resource, c.written])).toEqual([['desk', true]]);
      const text = await readFile(`${out}/desk.json`, 'utf8');
      expect(text).toContain(`"pk": ${BIG}`);
      expect(text).not.toContain('9007199254740992');
      await makeApp({ fixturesDir: out });
    } finally {
      await d.close();
    }
  });
});

type Desk = Record<string, unknown>;

/**
 * A deployment of desks paged `size` at a time as DRF pages them, the list read afresh for each
 * page; `before(page)` runs before a page is answered (an insert, or a hold until the test says).
 */
function pagedDesks(list: () => Desk[], size: number, before?: (page: number) => Promise<void> | void) {
  return deployment(async (req: IncomingMessage, res: ServerResponse, { origin }) => {
    const u = new URL(req.url ?? '/', 'http://x');
    if (u.pathname !== '/api/v1/desk') return sendJson(res, 200, EMPTY_PAGE);
    const n = Number(u.searchParams.get('page') ?? '1');
    await before?.(n);
    const all = list();
    const at = (k: number) => `${origin}/api/v1/desk?format=api${k > 1 ? `&page=${k}` : ''}`;
    sendJson(res, 200, {
      count: all.length,
      next: n * size < all.length ? at(n + 1) : null,
      previous: n > 1 ? at(n - 1) : null,
      results: all
        .slice((n - 1) * size, n * size)
        .map((d) => ({ url: `${origin}/api/v1/desk/${String(d.pk)}?format=api`, ...d })),
    });
  });
}

/** The stub's loader refuses the folder: its reason, or undefined when it loads. */
async function stubRefuses(dir: string): Promise<string | undefined> {
  try {
    await makeApp({ fixturesDir: dir });
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}

/** A folder's files and their text, symlinks as `-> target`, folders as `(a folder)`. */
async function contents(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const name of (await readdir(dir)).sort()) {
    const s = await lstat(`${dir}/${name}`);
    out[name] = s.isSymbolicLink()
      ? `-> ${await readlink(`${dir}/${name}`)}`
      : s.isDirectory()
        ? '(a folder)'
        : await readFile(`${dir}/${name}`, 'utf8');
  }
  return out;
}

describe('a collection the stub would refuse is not written, and the run says so', () => {
  it('a pk seen twice across pages (an insert while crawling): not written, exit 1, no "Serve it"', async () => {
    let list = desks.slice(0, 12);
    const d = await pagedDesks(
      () => list,
      5,
      (page) => {
        // Someone adds a desk at the front after page 1 was read: the fifth desk moves onto page 2.
        if (page === 2) list = [{ ...desks[20], pk: 100 }, ...desks.slice(0, 12)];
      },
    );
    try {
      const out = await tmp('insert');
      const r = await runRecord(contract, recordOpts(d.base, out));
      if (!r.ok) throw new Error(r.error);
      expect(r.collections.map((c) => [c.resource, c.written, c.reason])).toEqual([
        [
          'desk',
          false,
          `pk ${String(desks[4]?.pk)} came on page 1 and again on page 2: the collection changed while it was crawled (record it again)`,
        ],
      ]);
      expect(await readdir(out)).toEqual(['recording.yaml']);
      expect(await stubRefuses(out)).toBeUndefined();

      list = desks.slice(0, 12);
      const cli = await runCli(['record', '--base-url', d.base, '--out', await tmp('insert-cli'), '--only', 'desk']);
      expect(cli.code).toBe(1);
      expect(cli.stdout).toMatch(
        new RegExp(`✗ desk: not written: pk ${String(desks[4]?.pk)} came on page 1 and again on page 2`),
      );
      expect(cli.stdout).not.toMatch(/Serve it|✓/);
      expect(cli.stdout).toMatch(/Not a complete recording: 1 collection of 1 not recorded \(desk\)/);
    } finally {
      await d.close();
    }
  });

  it('a pk that cannot be a path segment, where the stub builds the url from it: not written', async () => {
    const tags = await loadContract(`${ROOT}test/fixtures/tags/openapi.yaml`);
    const slugs = ['alpha', 'v1.2'];
    const d = await deployment((req, res, { origin }) => {
      const results = slugs.map((slug) => ({ url: `${origin}/api/v1/tag/${slug}`, slug }));
      sendJson(res, 200, { count: results.length, next: null, previous: null, results });
    });
    try {
      const out = await tmp('slug');
      const r = await runRecord(tags, { ...recordOpts(d.base, out), only: [] });
      if (!r.ok) throw new Error(r.error);
      expect(r.collections.map((c) => [c.resource, c.written, c.invalid])).toEqual([['tag', false, 1]]);
      expect(await readdir(out)).toEqual(['recording.yaml']);
      slugs.pop();
      const again = await runRecord(tags, { ...recordOpts(d.base, out), only: [] });
      expect(again.ok && again.collections.map((c) => [c.resource, c.written])).toEqual([['tag', true]]);
    } finally {
      await d.close();
    }
  });

  it('a fixture past the largest file the stub reads is not written; one of exactly that size is', async () => {
    const d = await pagedDesks(() => desks.slice(0, 12), 5);
    try {
      const out = await tmp('large');
      const whole = await runRecord(contract, recordOpts(d.base, out));
      expect(whole.ok && whole.collections.map((c) => c.written)).toEqual([true]);
      const size = (await readFile(`${out}/desk.json`)).length;
      const r = await runRecord(contract, { ...recordOpts(d.base, out), maxFileBytes: size - 1 });
      if (!r.ok) throw new Error(r.error);
      expect(r.collections.map((c) => [c.written, c.reason])).toEqual([
        [
          false,
          `larger than ${(Math.round(((size - 1) / 1024) * 10) / 10).toString()} KiB, the largest fixture the stub reads`,
        ],
      ]);
      const fits = await runRecord(contract, { ...recordOpts(d.base, out), maxFileBytes: size });
      expect(fits.ok && fits.collections.map((c) => c.written)).toEqual([true]);
      expect((await readFile(`${out}/desk.json`)).length).toBe(size);
    } finally {
      await d.close();
    }
  });
});

describe('the folder is written whole: an interruption leaves the previous recording or nothing', () => {
  const CLI = `${ROOT}src/cli/main.ts`;

  /** Desks on pages of 5, page 2 held until `release`; `asked` resolves when page 2 is asked for. */
  async function heldAtPage2(): Promise<{ d: Deployment; asked: Promise<void>; release: () => void }> {
    let asked!: () => void;
    let release!: () => void;
    const askedP = new Promise<void>((r) => (asked = r));
    const released = new Promise<void>((r) => (release = r));
    const d = await pagedDesks(
      () => desks.slice(0, 12),
      5,
      async (page) => {
        if (page !== 2) return;
        asked();
        await released;
      },
    );
    return { d, asked: askedP, release };
  }

  it.each(['SIGINT', 'SIGTERM', 'SIGKILL'] as const)(
    '%s while page 2 is awaited: the previous recording is intact, and no file is left',
    async (signal) => {
      const parent = await tmp(`killed-${signal}`);
      const out = `${parent}/recorded`;
      const whole = await pagedDesks(() => desks.slice(0, 12), 5);
      const held = await heldAtPage2();
      try {
        // The previous recording, complete.
        const first = await runCli(['record', '--base-url', whole.base, '--out', out, '--only', 'desk']);
        expect(first.code, first.stdout + first.stderr).toBe(0);
        const before = await contents(out);
        expect(Object.keys(before)).toEqual(['desk.json', 'recording.yaml']);

        const args = [
          'record',
          '--base-url',
          held.d.base,
          '--out',
          out,
          '--only',
          'desk',
          '--force',
          '--timeout',
          '600000',
        ];
        const child = spawn(process.execPath, ['--import', 'tsx', CLI, ...args], { cwd: ROOT, stdio: 'ignore' });
        await held.asked; // page 1 is in the staging folder by now
        const staged = (await readdir(parent)).filter((n) => n.startsWith('.recorded.recording-'));
        expect(staged).toHaveLength(1);
        expect(await readdir(`${parent}/${staged[0]}`)).toEqual(['desk.json']);
        child.kill(signal);
        const [code, by] = (await once(child, 'exit')) as [number | null, string | null];
        expect([code, by]).toEqual([null, signal]);

        expect(await contents(out)).toEqual(before);
        const left = (await readdir(parent)).filter((n) => n !== 'recorded');
        // SIGKILL cannot be caught: its staging folder stays, hidden, until the next recording.
        expect(left).toEqual(signal === 'SIGKILL' ? staged : []);
        const next = await runCli(['record', '--base-url', whole.base, '--out', out, '--only', 'desk', '--force']);
        expect(next.code).toBe(0);
        expect(await readdir(parent)).toEqual(['recorded']);
      } finally {
        held.release();
        await held.d.close();
        await whole.close();
      }
    },
  );

  it('killed between its two renames: the next recording puts the folder before back first', async () => {
    const parent = await tmp('between');
    // A pid no process can have (Linux's pid_max is at most 2^22).
    const dead = 2 ** 22 + 1;
    await mkdir(`${parent}/.recorded.previous-${dead}-0a0b0c0d`);
    await writeFile(`${parent}/.recorded.previous-${dead}-0a0b0c0d/desk.json`, '[]\n');
    await mkdir(`${parent}/.recorded.recording-${dead}-01020304`);
    const r = await runCli([
      'record',
      '--base-url',
      `http://127.0.0.1:${await freePort()}`,
      '--out',
      `${parent}/recorded`,
    ]);
    expect(r.code).toBe(2);
    expect(await readdir(parent)).toEqual(['recorded']);
    expect(await contents(`${parent}/recorded`)).toEqual({ 'desk.json': '[]\n' });
  });
});

describe('symlinks in --out are never followed or replaced', () => {
  it.each(['recording.yaml', 'desk.json'])(
    'a %s link, dangling or not: refused, nothing written through it',
    async (name) => {
      const d = await pagedDesks(() => desks.slice(0, 3), 5);
      try {
        const parent = await tmp('links');
        const out = `${parent}/recorded`;
        await mkdir(out);
        await mkdir(`${parent}/elsewhere`);
        await symlink(`${parent}/elsewhere/dangling`, `${out}/${name}`);
        await writeFile(`${parent}/elsewhere/kept`, 'untouched');
        await symlink(`${parent}/elsewhere/kept`, `${out}/desk-notes.md`);
        for (const force of [[], ['--force']]) {
          const r = await runCli(['record', '--base-url', d.base, '--out', out, '--only', 'desk', ...force]);
          expect(r.code).toBe(2);
          expect(r.stderr).toMatch(
            new RegExp(`holds ${name.replace('.', '\\.')} as a symbolic link: record never writes through one`),
          );
          expect(await readdir(`${parent}/elsewhere`)).toEqual(['kept']);
          expect(await contents(out)).toEqual({
            [name]: `-> ${parent}/elsewhere/dangling`,
            'desk-notes.md': `-> ${parent}/elsewhere/kept`,
          });
        }
      } finally {
        await d.close();
      }
    },
  );

  it('files the recording does not write are kept, a link as a link', async () => {
    const d = await pagedDesks(() => desks.slice(0, 3), 5);
    try {
      const parent = await tmp('kept');
      const out = `${parent}/recorded`;
      await mkdir(`${out}/notes`, { recursive: true });
      await writeFile(`${out}/employee.json`, '[{"pk": 1}]\n');
      await writeFile(`${out}/notes/README.md`, 'by hand');
      await writeFile(`${parent}/outside.md`, 'outside');
      await symlink(`${parent}/outside.md`, `${out}/linked.md`);
      const r = await runCli(['record', '--base-url', d.base, '--out', out, '--only', 'desk']);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(
        /Kept from the folder before \(not recorded this time\): employee\.json, linked\.md, notes/,
      );
      const now = await contents(out);
      expect(Object.keys(now)).toEqual(['desk.json', 'employee.json', 'linked.md', 'notes', 'recording.yaml']);
      expect(now['employee.json']).toBe('[{"pk": 1}]\n');
      expect(now['linked.md']).toBe(`-> ${parent}/outside.md`);
      expect(await readFile(`${out}/notes/README.md`, 'utf8')).toBe('by hand');
      expect(await readFile(`${out}/recording.yaml`, 'utf8')).toMatch(/keptFromBefore:\n {2}- employee\.json/);
    } finally {
      await d.close();
    }
  });
});
