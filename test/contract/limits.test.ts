// The checker, the proxy and the recorder bound what they accept as the loader bounds what it
// reads: nothing they accept from a deployment, and nothing the recorder writes, does the stub refuse.
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCheck } from '../../src/contract/checker.js';
import { type Contract, loadContract } from '../../src/contract/load.js';
import { runRecord } from '../../src/contract/record.js';
import { runCli } from '../cli-helpers.js';
import { SPEC, stateFor, testConfig } from '../helpers.js';
import { deployment, type Deployment, EMPTY_PAGE, sendJson, testProxy } from './deployments.js';

let contract: Contract;
const dirs: string[] = [];
beforeAll(async () => {
  contract = await loadContract(SPEC);
});
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

/** `levels` arrays, one inside the other. */
const nested = (levels: number): string => `${'['.repeat(levels)}${']'.repeat(levels)}`;

/** A deployment whose employee collection is one page, its item nesting `levels` arrays: the page nests levels + 3. */
function deepEmployees(levels: number): Promise<Deployment> {
  return deployment((req, res) => {
    if (new URL(req.url ?? '/', 'http://x').pathname !== '/api/v1/employee') return sendJson(res, 200, EMPTY_PAGE);
    sendJson(res, 200, `{"count":1,"next":null,"previous":null,"results":[{"pk":1,"deep":${nested(levels)}}]}`);
  });
}

const record = async (base: string) => {
  const out = await mkdtemp(`${tmpdir()}/deep-`);
  dirs.push(out);
  const r = await runRecord(contract, {
    baseUrl: base,
    headers: {},
    timeoutMs: 3000,
    maxPages: 10,
    concurrency: 2,
    only: ['employee'],
    outDir: out,
    force: true,
  });
  if (!r.ok) throw new Error(r.error);
  return { out, result: r };
};

describe("the contract's limits are the loader's", () => {
  it.each([257, 300, 512])(
    'a page nested %i levels is a json violation, to the checker and to the proxy',
    async (depth) => {
      const d = await deepEmployees(depth - 3);
      const proxy = await testProxy(contract, d.base, { maxBody: 1024 * 1024 });
      try {
        const report = await runCheck(contract, {
          baseUrl: d.base,
          headers: {},
          timeoutMs: 3000,
          concurrency: 2,
          maxPages: 10,
          only: ['employee'],
        });
        expect(report.violations.map((v) => [v.rule, v.found.slice(0, 40)])).toEqual([
          ['json', 'JSON nested deeper than 256 levels: {"co'],
        ]);
        const res = await fetch(`${proxy.url}/api/v1/employee`);
        await res.text();
        expect(res.headers.get('x-contract-violations')).toBe('1');
        expect(proxy.session.endpoints[0]?.violations.map((v) => v.rule)).toEqual(['json']);
      } finally {
        await proxy.stop();
        await d.close();
      }
    },
  );

  it('the deepest page the checker accepts is recorded, and the stub loads the recording', async () => {
    const d = await deepEmployees(256 - 3);
    try {
      const { out, result } = await record(d.base);
      expect(result.report.violations).toEqual([]);
      expect(result.collections.map((c) => [c.resource, c.written])).toEqual([['employee', true]]);
      const state = await stateFor(testConfig({ fixturesDir: out }));
      expect(state).toBeDefined();
    } finally {
      await d.close();
    }
  });

  it('a page nested 257 to 512 levels is not recorded: exit 1, and the stub loads what was written', async () => {
    const d = await deepEmployees(300);
    try {
      const { out, result } = await record(d.base);
      expect(result.collections.map((c) => [c.resource, c.written])).toEqual([['employee', false]]);
      expect(await readdir(out)).not.toContain('employee.json');
      await expect(stateFor(testConfig({ fixturesDir: out }))).resolves.toBeDefined();
      const out2 = await mkdtemp(`${tmpdir()}/deep-cli-`);
      dirs.push(out2);
      const cli = await runCli(['record', '--base-url', d.base, '--out', out2, '--force', '--only', 'employee']);
      expect(cli.code).toBe(1);
      expect(cli.stdout).toMatch(/✗ employee: not written/);
    } finally {
      await d.close();
    }
  });
});
