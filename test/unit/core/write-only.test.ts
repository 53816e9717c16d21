import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCheck } from '../../../src/contract/checker.js';
import { loadContract } from '../../../src/contract/load.js';
import { ContractAjv } from '../../../src/openapi/ajv.js';
import { responseView, withoutWriteOnly } from '../../../src/openapi/response-view.js';
import { prepareItem, prepareItemFromText } from '../../../src/core/store.js';
import { loadState } from '../../../src/load/state.js';
import { writeFixture } from '../../../src/cli/write-fixture.js';
import { stateOptions } from '../../../src/server/config.js';
import { deployment, stubbed } from '../../contract/deployments.js';
import { ask, coreOf, listen, makeApp, testConfig } from '../../helpers.js';
import { writeOnlyFields } from '../../../src/openapi/item-schema.js';

const DESIGNER = path.join(import.meta.dirname, '../../fixtures/designer');
const DESIGNER_SPEC = path.join(DESIGNER, 'openapi.yaml');
const DESIGNER_FIXTURES = path.join(DESIGNER, 'fixtures');

// A `writeOnly` property (DRF's write_only=True) is accepted in a request and never in an answer.
// The designer differential (test/reference/designer-differential.test.ts) holds the stub's writes and
// reads of the designer's `Signature.witness` to DRF's; these hold the pieces.

const doc = {
  openapi: '3.1.0',
  components: {
    schemas: {
      Secret: { type: 'string', writeOnly: true, minLength: 4 },
      Base: {
        type: 'object',
        required: ['name', 'password'],
        properties: { name: { type: 'string' }, password: { type: 'string', writeOnly: true } },
      },
      ByRef: {
        type: 'object',
        required: ['pin', 'name'],
        properties: { pin: { $ref: '#/components/schemas/Secret' }, name: { type: 'string' } },
      },
      Composed: {
        allOf: [
          { $ref: '#/components/schemas/Base' },
          {
            type: 'object',
            required: ['password', 'token', 'note'],
            properties: { token: { type: 'string', writeOnly: true }, note: { type: 'string' } },
          },
        ],
      },
      Nested: { type: 'object', required: ['inner'], properties: { inner: { $ref: '#/components/schemas/Base' } } },
      // writeOnly beside a $ref; requireds in oneOf and dependentRequired naming the parent's.
      Either: {
        type: 'object',
        properties: {
          code: { $ref: '#/components/schemas/Plain', writeOnly: true },
          token: { type: 'string', writeOnly: true },
          name: { type: 'string' },
        },
        oneOf: [{ required: ['code'] }, { required: ['token', 'name'] }],
        dependentRequired: { name: ['token', 'code'] },
      },
      Plain: { type: 'string' },
      // A cycle through allOf.
      Loop: {
        allOf: [
          { $ref: '#/components/schemas/Loop' },
          { $ref: '#/components/schemas/Loop' },
          { type: 'object', required: ['p'], properties: { p: { type: 'string', writeOnly: true } } },
        ],
      },
    },
  },
};

describe("an answer's view of the document: no writeOnly property is required", () => {
  it('is the document itself when nothing is writeOnly', () => {
    const plain = {
      openapi: '3.1.0',
      components: { schemas: { A: { type: 'object', required: ['a'], properties: { a: { type: 'string' } } } } },
    };
    expect(responseView(plain, false)).toBe(plain);
  });

  it('takes writeOnly names out of required: beside it, through $ref, across allOf members; the rest stays, the document unchanged', () => {
    const before = JSON.stringify(doc);
    const view = responseView(doc, true) as typeof doc;
    expect(JSON.stringify(doc)).toBe(before);
    expect(view.components.schemas.Base.required).toEqual(['name']);
    expect(view.components.schemas.ByRef.required).toEqual(['name']);
    expect((view.components.schemas.Composed.allOf[1] as { required: string[] }).required).toEqual(['note']);
    expect(view.components.schemas.Nested.required).toEqual(['inner']);
    expect(view.components.schemas.Either.oneOf).toEqual([{ required: [] }, { required: ['name'] }]);
    expect(view.components.schemas.Either.dependentRequired).toEqual({ name: [] });
    expect((view.components.schemas.Loop.allOf[2] as { required: string[] }).required).toEqual([]);
  });

  it("the contract's Ajv: an answer without them passes, one that has them is a violation there, a missing plain member still fails", () => {
    const ajv = new ContractAjv(doc);
    expect(ajv.validate('#/components/schemas/Base', { name: 'a' })).toEqual([]);
    expect(ajv.validate('#/components/schemas/Composed', { name: 'a', note: 'n' })).toEqual([]);
    expect(ajv.validate('#/components/schemas/Nested', { inner: { name: 'a' } })).toEqual([]);
    const leaked = ajv.validate('#/components/schemas/ByRef', { name: 'a', pin: 'xyzw' });
    expect(leaked.map((v) => [v.pointer, v.message])).toEqual([
      ['/pin', 'is writeOnly in the spec: never in an answer (DRF never represents a write_only field)'],
    ]);
    expect(
      ajv.validate('#/components/schemas/Nested', { inner: { name: 'a', password: 'p' } }).map((v) => v.pointer),
    ).toEqual(['/inner/password']);
    expect(
      ajv.validate('#/components/schemas/Composed', { name: 'a', note: 'n', token: 't' }).map((v) => v.pointer),
    ).toEqual(['/token']);
    expect(ajv.validate('#/components/schemas/Base', {}).map((v) => v.message)).toEqual([
      "must have required property 'name'",
    ]);
    expect(ajv.validate('#/components/schemas/Composed', { name: 'a' }).map((v) => v.message)).toEqual([
      "must have required property 'note'",
    ]);
    expect(ajv.validate('#/components/schemas/Either', {})).toEqual([]);
  });
});

describe('an item is prepared without its writeOnly members', () => {
  it('names them through $ref and allOf', () => {
    expect(writeOnlyFields(doc, '#/components/schemas/Composed')).toEqual(['password', 'token']);
    expect(writeOnlyFields(doc, '#/components/schemas/ByRef')).toEqual(['pin']);
    expect(writeOnlyFields(doc, '#/components/schemas/Nested')).toEqual([]);
    expect(writeOnlyFields(doc, '#/components/schemas/Either')).toEqual(['code', 'token']);
  });

  it('leaves them out of the JSON, from an object and from its text', () => {
    const opts = { fields: ['pk', 'name', 'password'], withUrl: false, pkField: 'pk', hidden: ['password'] };
    const value = { pk: 1, name: 'a', password: 'secret' };
    expect(prepareItem(value, opts).json).toBe('{"pk":1,"name":"a"}');
    expect(prepareItemFromText(value, JSON.stringify(value), opts).json).toBe('{"pk":1,"name":"a"}');
    // A `__proto__` member stays a member (no prototype set) when one is left out.
    const odd = JSON.parse('{"pk":2,"__proto__":{"x":1},"password":"p"}') as Record<string, unknown>;
    expect(prepareItem(odd, opts).json).toBe('{"pk":2,"__proto__":{"x":1}}');
    // Out of schema order, too: the members are put in order, the `__proto__` one kept.
    const unordered = JSON.parse('{"password":"p","__proto__":{"x":1},"name":"n","pk":3}') as Record<string, unknown>;
    expect(prepareItem(unordered, opts).json).toBe('{"pk":3,"name":"n","__proto__":{"x":1}}');
    expect(prepareItem(unordered, { ...opts, hidden: [] }).json).toBe(
      '{"pk":3,"name":"n","password":"p","__proto__":{"x":1}}',
    );
  });
});

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
  it('withoutWriteOnly: nested objects, arrays, allOf; an object that loses nothing is the same object', () => {
    const list = { type: 'array', items: { $ref: '#/components/schemas/Base' } };
    expect(
      withoutWriteOnly(doc, { $ref: '#/components/schemas/Nested' }, { inner: { name: 'a', password: 'p' }, x: 1 }),
    ).toEqual({ inner: { name: 'a' }, x: 1 });
    expect(withoutWriteOnly(doc, list, [{ name: 'a', password: 'p' }, { name: 'b' }])).toEqual([
      { name: 'a' },
      { name: 'b' },
    ]);
    expect(
      withoutWriteOnly(
        doc,
        { $ref: '#/components/schemas/Composed' },
        { name: 'a', password: 'p', token: 't', note: 'n' },
      ),
    ).toEqual({ name: 'a', note: 'n' });
    const clean = { inner: { name: 'a' } };
    expect(withoutWriteOnly(doc, { $ref: '#/components/schemas/Nested' }, clean)).toBe(clean);
  });

  it('generated items of a schema with a nested writeOnly member: served without it, none left out', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'write-only-nested-'));
    try {
      const spec = {
        openapi: '3.1.0',
        info: { title: 't', version: '1' },
        paths: {
          '/api/v1/thing': {
            get: {
              operationId: 'listThings',
              responses: {
                '200': {
                  description: 'A page.',
                  content: { 'application/json': { schema: { $ref: '#/components/schemas/ThingList' } } },
                },
              },
            },
          },
        },
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
            ThingList: {
              type: 'object',
              required: ['count', 'next', 'previous', 'results'],
              properties: {
                count: { type: 'integer' },
                next: { type: ['string', 'null'] },
                previous: { type: ['string', 'null'] },
                results: { type: 'array', items: { $ref: '#/components/schemas/Thing' } },
              },
            },
          },
        },
      };
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
