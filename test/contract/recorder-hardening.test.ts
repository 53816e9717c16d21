// The recorder never writes what the stub would refuse, never claims a recording it did not make,
// and never leaves half a folder: each case a deployment (or a user) of the kind a live staging
// brings. Every recording here is loaded by the stub's own loader afterwards.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCheck } from '../../src/contract/checker.js';
import { type Contract, loadContract } from '../../src/contract/load.js';
import { runRecord } from '../../src/contract/record.js';
import { FIXTURES, makeApp, SPEC } from '../helpers.js';
import { deployment, EMPTY_PAGE, sendJson } from './deployments.js';

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
