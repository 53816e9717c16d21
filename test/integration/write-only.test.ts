import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCheck } from '../../src/contract/checker.js';
import { loadContract } from '../../src/contract/load.js';
import { loadState } from '../../src/load/state.js';
import { writeFixture } from '../../src/cli/write-fixture.js';
import { stateOptions } from '../../src/server/config.js';
import { deployment, stubbed } from '../contract/deployments.js';
import { ask, coreOf, listen, makeApp, testConfig } from '../helpers.js';
import { listEnvelope, schemaRef, thingListSpec } from '../spec-parts.js';

const DESIGNER = path.join(import.meta.dirname, '../fixtures/designer');
const DESIGNER_SPEC = path.join(DESIGNER, 'openapi.yaml');
const DESIGNER_FIXTURES = path.join(DESIGNER, 'fixtures');

// A `writeOnly` property (DRF's write_only=True) is accepted in a request and never in an answer.
// The designer differential (test/reference/designer-differential.test.ts) holds the stub's writes and
// reads of the designer's `Signature.witness` to DRF's; these hold the loader, the generator and the
// checker; test/unit/openapi/response-view.test.ts and test/unit/core/prepared-items.test.ts the pieces.

describe("the designer's Signature.witness (writeOnly, required)", () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'write-only-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  copyFileSync(path.join(DESIGNER_FIXTURES, 'desk.json'), path.join(dir, 'desk.json'));
  copyFileSync(path.join(DESIGNER_FIXTURES, 'employee.json'), path.join(dir, 'employee.json'));
  const signature = (pk: number, witness?: string) => ({
    pk,
    signer: `S${pk}`,
    signed_on: '2024-05-01',
    kind: 'paper',
    ...(witness ? { witness } : {}),
  });

  it('a fixture whose items carry it: served without it, with a warning at the first that does; one without it is valid', async () => {
    writeFileSync(
      path.join(dir, 'signature.json'),
      JSON.stringify([signature(1), signature(2, 'W2'), signature(3, 'W3')]),
    );
    const config = testConfig({ specFile: DESIGNER_SPEC, fixturesDir: dir });
    const state = await loadState(stateOptions(config));
    expect(state.warnings.map((w) => `${w.file} ${w.pointer} ${w.reason}`).join('\n')).toMatch(
      /signature\.json \/1 "witness": writeOnly in Signature, so never served/,
    );
    const page = JSON.parse(ask(coreOf(state, config), '/api/v1/signature').body) as {
      results: Record<string, unknown>[];
    };
    expect(page.results).toEqual([signature(1), signature(2), signature(3)]);
    expect(ask(coreOf(state, config), '/api/v1/signature?page=1').body).not.toMatch(/witness|W2/);
    // Reloaded (--watch) with only a witness changed (past its maxLength, even): never served, so
    // never checked, on a reload as on a start; still said.
    writeFileSync(
      path.join(dir, 'signature.json'),
      JSON.stringify([signature(1), signature(2, 'x'.repeat(30)), signature(3, 'W3')]),
    );
    const reloaded = await loadState({ ...stateOptions(config), previous: state });
    expect(reloaded.warnings.map((w) => `${w.file} ${w.pointer} ${w.reason}`).join('\n')).toMatch(
      /signature\.json \/1 "witness"/,
    );
    expect(JSON.parse(ask(coreOf(reloaded, config), '/api/v1/signature').body)).toEqual(page);
  });

  it('`npm run fixtures` writes the items as they are served: without it', async () => {
    const written = await writeFixture({
      specFile: DESIGNER_SPEC,
      fixturesDir: dir,
      resource: 'signature',
      count: 3,
      defaultCount: 25,
      seed: 1,
      force: true,
    });
    expect(written.ok).toBe(true);
    const items = JSON.parse(readFileSync(path.join(dir, 'signature.json'), 'utf8')) as Record<string, unknown>[];
    expect(items).toHaveLength(3);
    for (const item of items) expect(Object.keys(item)).not.toContain('witness');
  });

  it('generated items: none carries it, and every one is valid (none left out)', async () => {
    rmSync(path.join(dir, 'signature.json'), { force: true });
    const late: string[] = [];
    const config = testConfig({ specFile: DESIGNER_SPEC, fixturesDir: dir });
    const state = await loadState({ ...stateOptions(config), onLateProblem: (p) => late.push(p.reason) });
    const page = JSON.parse(ask(coreOf(state, config), '/api/v1/signature?page_size=100').body) as {
      count: number;
      results: Record<string, unknown>[];
    };
    expect(late).toEqual([]);
    expect(page.count).toBe(25);
    for (const item of page.results) expect(Object.keys(item)).toEqual(['pk', 'signer', 'signed_on', 'kind']);
  });
});

describe('the checker and a writeOnly property', () => {
  it("passes the designer's stub (no answer carries witness, none must), and reports a deployment that answers it", async () => {
    const stub = await makeApp({ specFile: DESIGNER_SPEC, fixturesDir: DESIGNER_FIXTURES });
    const good = await listen(stub);
    const leaking = await deployment(
      stubbed(stub, (a, req) => {
        if (req.url?.startsWith('/api/v1/signature'))
          a.body = a.body.replaceAll('"kind":"', '"witness":"leaked","kind":"');
      }),
    );
    try {
      const contract = await loadContract(DESIGNER_SPEC);
      const opts = { headers: {}, timeoutMs: 5000, concurrency: 4, maxPages: 20, only: ['signature'] };
      const pass = await runCheck(contract, { ...opts, baseUrl: good });
      expect(pass.violations).toEqual([]);
      const fail = await runCheck(contract, { ...opts, baseUrl: leaking.base });
      const found = fail.violations.map((v) => `${v.rule} ${v.pointer} ${v.expected}`);
      expect(found.length).toBeGreaterThan(0);
      expect(found[0]).toBe(
        'schema /results/0/witness is writeOnly in the spec: never in an answer (DRF never represents a write_only field)',
      );
      expect(new Set(fail.violations.map((v) => v.rule))).toEqual(new Set(['schema']));
    } finally {
      await leaking.close();
      await stub.close();
    }
  });
});

describe('what the stub generates holds no writeOnly member, at any depth', () => {
  it('generated items of a schema with a nested writeOnly member: served without it, none left out', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'write-only-nested-'));
    try {
      const spec = thingListSpec(schemaRef('ThingList'), {
        components: {
          schemas: {
            Thing: {
              type: 'object',
              required: ['pk', 'name', 'secret'],
              properties: {
                pk: { type: 'integer' },
                name: { type: 'string', maxLength: 8 },
                secret: {
                  type: 'object',
                  required: ['code', 'label'],
                  properties: { code: { type: 'string', writeOnly: true }, label: { type: 'string', maxLength: 8 } },
                },
              },
            },
            ThingList: listEnvelope(schemaRef('Thing')),
          },
        },
      });
      writeFileSync(path.join(dir, 'openapi.json'), JSON.stringify(spec));
      const late: string[] = [];
      const config = testConfig({ specFile: path.join(dir, 'openapi.json'), fixturesDir: dir });
      const state = await loadState({ ...stateOptions(config), onLateProblem: (p) => late.push(p.reason) });
      const page = JSON.parse(ask(coreOf(state, config), '/api/v1/thing?page_size=100').body) as {
        count: number;
        results: { secret: Record<string, unknown> }[];
      };
      expect(late).toEqual([]);
      expect(page.count).toBe(25);
      for (const item of page.results) expect(Object.keys(item.secret)).toEqual(['label']);
      // A fixture's item that holds one, nested: refused at load, with its place.
      writeFileSync(
        path.join(dir, 'thing.json'),
        JSON.stringify([{ pk: 1, name: 'a', secret: { code: 'x', label: 'y' } }]),
      );
      await expect(loadState(stateOptions(config))).rejects.toThrow(
        /thing\.json.*\/0\/secret\/code.*is writeOnly in the spec: never in an answer/s,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
