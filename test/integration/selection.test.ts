import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContractAjv } from '../../src/openapi/ajv.js';
import { runCheck } from '../../src/contract/checker.js';
import { loadContract } from '../../src/contract/load.js';
import { loadState } from '../../src/load/state.js';
import type { DeskList } from '../../src/types.js';
import { listen, makeApp, SPEC } from '../helpers.js';

const MINI = fileURLToPath(new URL('../fixtures/mini/', import.meta.url));
const miniOpts = { specFile: `${MINI}openapi.yaml`, fixturesDir: `${MINI}fixtures`, seed: 1, defaultGenerateCount: 25 };

// docs/response-selection.md: the numbered steps, one test each.
describe('response selection, step by step', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await makeApp({ specFile: miniOpts.specFile, fixturesDir: miniOpts.fixturesDir });
  });
  afterAll(() => app.close());
  const get = async (p: string) =>
    (await app.inject({ url: p, headers: { host: 'h' } })).json() as {
      count: number;
      results: Record<string, unknown>[];
    };

  it('1. a fixture file wins over examples and generation', async () => {
    const body = await get('/api/v1/stored');
    expect(body.results.map((r) => r.name)).toEqual(['ten', 'eleven', 'twelve']);
  });

  it("2. without a fixture, the 200 answer's first named example gives the items", async () => {
    const body = await get('/api/v1/exampled');
    expect(body.results.map((r) => r.name)).toEqual(['one', 'two']);
  });

  it('3. without fixture or example, items are generated from the schema (x-stub-count of them)', async () => {
    const body = await get('/api/v1/generated');
    expect(body.count).toBe(5);
    expect(body.results.map((r) => r.pk)).toEqual([1, 2, 3, 4, 5]);
    const ajv = new ContractAjv((await loadState(miniOpts)).spec.doc);
    for (const item of body.results) expect(ajv.validate('#/components/schemas/Counted', item)).toEqual([]);
  });

  it('4. with nothing described, the collection is empty: nothing is invented', async () => {
    const res = await app.inject({ url: '/api/v1/undescribed' });
    expect(res.body).toBe('{"count":0,"next":null,"previous":null,"results":[]}');
  });

  it('the state records which step served each collection', async () => {
    const state = await loadState(miniOpts);
    expect(Object.fromEntries([...state.model.collections.values()].map((c) => [c.list.resource, c.source]))).toEqual({
      exampled: 'examples',
      generated: 'generated',
      stored: 'fixture',
      undescribed: 'empty',
    });
  });
});

describe('generated data', () => {
  it('is byte-identical on every run and request, and changes with the seed', async () => {
    const a = await makeApp();
    const b = await makeApp();
    const c = await makeApp({ seed: 7 });
    const prefer = { prefer: 'dynamic=true' };
    const bodies = await Promise.all(
      [a, a, b, c].map(async (app) => (await app.inject({ url: '/api/v1/desk?format=api', headers: prefer })).body),
    );
    expect(bodies[0]).toBe(bodies[1]);
    expect(bodies[0]).toBe(bodies[2]);
    expect(bodies[0]).not.toBe(bodies[3]);
    expect((JSON.parse(bodies[0] as string) as DeskList).count).toBe(25);
    await Promise.all([a.close(), b.close(), c.close()]);
  });

  it("passes the checker's Ajv and rules (desks generated with Prefer: dynamic=true, three seeds)", async () => {
    for (const seed of [1, 2, 3]) {
      const app = await makeApp({ seed, pageSize: 10 });
      const report = await runCheck(await loadContract(SPEC), {
        baseUrl: await listen(app),
        headers: { prefer: 'dynamic=true' },
        timeoutMs: 5000,
        concurrency: 4,
        maxPages: 100,
        only: ['desk'],
      });
      expect(report.endpoints[0]?.items).toBe(25);
      expect(report.violations).toEqual([]);
      await app.close();
    }
  });

  it('without a desk fixture, the desk list falls to the spec example (step 2), not to generation', async () => {
    const empty = await mkdtemp(path.join(tmpdir(), 'no-fixtures-'));
    const app = await makeApp({ fixturesDir: empty });
    expect(((await app.inject({ url: '/api/v1/desk' })).json() as DeskList).results.map((d) => d.pk)).toEqual([12, 13]);
    await app.close();
  });

  it('of the mini spec passes the checker too', async () => {
    const app = await makeApp({ specFile: miniOpts.specFile, fixturesDir: miniOpts.fixturesDir });
    const report = await runCheck(await loadContract(miniOpts.specFile), {
      baseUrl: await listen(app),
      headers: {},
      timeoutMs: 5000,
      concurrency: 4,
      maxPages: 100,
      only: [],
    });
    expect(report.violations).toEqual([]);
    await app.close();
  });
});
