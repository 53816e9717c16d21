// Every operation a spec declares is served (#32): a viewset's list and detail actions and views
// outside any viewset, routed as Django routes them; each answered by a handler, else the fixture
// it names, else its example, else data generated from its schema; handlers' answers held to
// the spec; what start-up tells the designer.
import type { ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, runCli, startCli } from '../cli-helpers.js';

const DIR = path.join(ROOT, 'test/fixtures/actions');
const ARGS = ['--spec', path.join(DIR, 'openapi.yaml'), '--fixtures', path.join(DIR, 'fixtures')];
const HANDLERS = ['--handlers', path.join(DIR, 'handlers.ts')];

type Started = Awaited<ReturnType<typeof startCli>>;
const servers: ChildProcess[] = [];
async function start(args: string[]): Promise<Started> {
  const s = await startCli(['serve', '--port', '0', ...args]);
  servers.push(s.child);
  return s;
}
afterAll(() => {
  for (const child of servers) child.kill();
});

async function call(base: string, method: string, url: string, body?: unknown) {
  const res = await fetch(`${base}${url}`, {
    method,
    ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
  });
  const text = await res.text();
  return { status: res.status, type: res.headers.get('content-type'), text, json: () => JSON.parse(text) as unknown };
}

/** Waits until the output has a line matching `re` (the log is written as requests end). */
async function logged(s: Started, re: RegExp): Promise<string> {
  for (let i = 0; i < 100 && !re.test(s.output()); i++) await new Promise((r) => setTimeout(r, 20));
  return s.output();
}

describe('answers without handlers: fixture, example, generated, the collection', () => {
  let s: Started;
  beforeAll(async () => {
    s = await start(ARGS);
  }, 60_000);

  it('a list action is routed before the item path, a detail action after it, a view by its own path', async () => {
    // simple_list is no pk: were it taken for one, the answer would be a 404.
    const simple = await call(s.url, 'GET', '/api/v1/thing/simple_list');
    expect(simple.status).toBe(200);
    expect(Array.isArray(simple.json())).toBe(true);
    expect((await call(s.url, 'GET', '/api/v1/thing/2')).json()).toMatchObject({ pk: 2, name: 'lamp' });
    expect((await call(s.url, 'GET', '/api/v1/current-user/')).status).toBe(200);
    // A detail action takes the methods it declares: 405 with Allow for the others.
    const wrong = await call(s.url, 'DELETE', '/api/v1/thing/2/close');
    expect(wrong.status).toBe(405);
    expect(wrong.text).toBe('{"detail":"Method \\"DELETE\\" not allowed."}');
  });

  it('the fixture an operation names (x-stub-fixture), with its declared status and type', async () => {
    const summary = await call(s.url, 'GET', '/api/v1/thing/summary');
    expect([summary.status, summary.type, summary.text]).toEqual([200, 'application/json', '{"open":2,"closed":1}']);
  });

  it('else its example: an object, a bare boolean', async () => {
    expect((await call(s.url, 'GET', '/api/v1/current-user/')).text).toBe('{"name":"Ada","staff":true}');
    expect((await call(s.url, 'GET', '/api/v1/trusted')).text).toBe('true');
  });

  it('else data generated from its schema with the seed: valid, and the same on every call', async () => {
    const a = await call(s.url, 'GET', '/api/v1/thing/simple_list');
    const b = await call(s.url, 'GET', '/api/v1/thing/simple_list');
    expect(a.text).toBe(b.text);
    const items = a.json() as { pk: number; name: string }[];
    expect(items).toHaveLength(2);
    for (const item of items) {
      expect(Number.isInteger(item.pk) && item.pk >= 1).toBe(true);
      expect(['alpha', 'beta']).toContain(item.name);
    }
  });

  it('a declared 204 is empty; a declared error answers through Prefer', async () => {
    const ping = await call(s.url, 'POST', '/api/v1/ping');
    expect([ping.status, ping.text]).toEqual([204, '']);
    const res = await fetch(`${s.url}/api/v1/thing/1/close`, { method: 'PUT', headers: { prefer: 'code=409' } });
    expect([res.status, await res.text()]).toEqual([409, '{"detail":"Closed already."}']);
  });

  it('without a handler a detail action changes nothing: its declared answer only', async () => {
    await call(s.url, 'PUT', '/api/v1/thing/1/close');
    expect((await call(s.url, 'GET', '/api/v1/thing/1')).json()).toMatchObject({ open: true });
  });

  it('start-up tells where each answer comes from, and warns of an answer only generation gives', () => {
    const out = s.output();
    expect(out).toMatch(/GET \/api\/v1\/thing\/summary\s+thingSummary\s+fixture thing-summary/);
    expect(out).toMatch(/GET \/api\/v1\/trusted\s+isTrusted\s+example/);
    expect(out).toMatch(/GET \/api\/v1\/thing\/simple_list\s+listSimpleThings\s+generated/);
    expect(out).toMatch(
      /warning: .*openapi\.yaml at \/paths\/~1api~1v1~1thing~1simple_list\/get: listSimpleThings .* is answered with data generated from its schema/,
    );
  });
});

describe('handlers', () => {
  let s: Started;
  beforeAll(async () => {
    s = await start([...ARGS, ...HANDLERS]);
  }, 60_000);

  it('a detail action changes the state: later items and lists show it', async () => {
    const closed = await call(s.url, 'PUT', '/api/v1/thing/2/close');
    expect(closed.status).toBe(200);
    expect(closed.json()).toMatchObject({ url: `${s.url}/api/v1/thing/2`, pk: 2, open: false });
    expect((await call(s.url, 'GET', '/api/v1/thing/2')).json()).toMatchObject({ open: false });
    const list = (await call(s.url, 'GET', '/api/v1/thing')).json() as { results: { pk: number; open: boolean }[] };
    expect(list.results.find((t) => t.pk === 2)?.open).toBe(false);
    // The handler's own refusals: closed already, and an unknown pk.
    expect((await call(s.url, 'PUT', '/api/v1/thing/2/close')).text).toBe('{"detail":"Closed already."}');
    const none = await call(s.url, 'PUT', '/api/v1/thing/99/close');
    expect([none.status, none.text]).toEqual([404, '{"detail":"No Thing matches the given query."}']);
  });

  it('sees only a body the declared schema takes: DRF refuses the rest before the handler runs', async () => {
    const long = await call(s.url, 'POST', '/api/v1/thing', { name: 'x'.repeat(21) });
    expect(long.status).toBe(400);
    expect(long.json()).toEqual({ name: ['Ensure this field has no more than 20 characters.'] });
    const taken = await call(s.url, 'POST', '/api/v1/thing', { name: 'taken' });
    expect([taken.status, taken.text]).toEqual([400, '{"name":["thing with this name already exists."]}']);
    // undefined: the collection's own create.
    const made = await call(s.url, 'POST', '/api/v1/thing', { name: 'stool' });
    expect(made.status).toBe(201);
    expect(made.json()).toMatchObject({ pk: 4, name: 'stool', open: true });
  });

  it('can start from the declared answer', async () => {
    expect((await call(s.url, 'GET', '/api/v1/current-user/?twice')).text).toBe('{"name":"Ada Ada","staff":true}');
  });

  it('an answer the declared schema refuses is served, and logged with the rule and the pointer', async () => {
    const wrong = await call(s.url, 'GET', '/api/v1/current-user/?wrong');
    expect([wrong.status, wrong.text]).toEqual([200, '{"name":7}']);
    const out = await logged(s, /handler getCurrentUser answered/);
    expect(out).toMatch(/handler getCurrentUser answered what its declaration refuses: .*\/name .*string/);
  });

  it("a handler that throws answers Django's 500 page and logs the error with file and line", async () => {
    const res = await call(s.url, 'GET', '/api/v1/boom');
    expect([res.status, res.type]).toEqual([500, 'text/html; charset=utf-8']);
    expect(res.text).toContain('<h1>Server Error (500)</h1>');
    const out = await logged(s, /handler boom threw/);
    expect(out).toMatch(/handler boom threw at test\/fixtures\/actions\/handlers\.ts:\d+:\d+: the handler broke/);
  });

  it('start-up names the handlers, and warns of one named after no operation', () => {
    const out = s.output();
    expect(out).toMatch(/PUT \/api\/v1\/thing\/\{pk\}\/close\s+closeThing\s+handler, else generated/);
    expect(out).toMatch(/POST \/api\/v1\/thing\s+createThing\s+handler, else collection/);
    expect(out).toMatch(
      /warning: .*handlers\.ts: exports a handler "notAnOperation", but the spec declares no operation/,
    );
  });
});

describe('--strict-handlers', () => {
  it('makes an answer the spec refuses a 500 naming the violations', async () => {
    const s = await start([...ARGS, ...HANDLERS, '--strict-handlers']);
    const wrong = await call(s.url, 'GET', '/api/v1/current-user/?wrong');
    expect(wrong.status).toBe(500);
    expect(wrong.text).toMatch(/getCurrentUser/);
    expect(wrong.text).toMatch(/\/name/);
    // A good answer is untouched.
    expect((await call(s.url, 'GET', '/api/v1/current-user/')).status).toBe(200);
  }, 60_000);
});

describe('start-up checks of a spec and its handlers', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'actions-'));
    cpSync(DIR, dir, { recursive: true });
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('warns, with the place, of a declared path another one shadows', async () => {
    const spec = readFileSync(path.join(dir, 'openapi.yaml'), 'utf8').replace(
      '  /api/v1/trusted:',
      `  /api/v1/{name}:
    get:
      operationId: anyName
      responses:
        '200': {description: Any name., content: {application/json: {schema: {type: object}, example: {}}}}
  /api/v1/trusted:`,
    );
    writeFileSync(path.join(dir, 'openapi.yaml'), spec);
    const s = await start(['--spec', path.join(dir, 'openapi.yaml'), '--fixtures', path.join(dir, 'fixtures')]);
    expect(s.output()).toMatch(
      /warning: .*openapi\.yaml at \/paths\/~1api~1v1~1trusted: \/api\/v1\/trusted is never reached: \/api\/v1\/\{name\}, declared before it/,
    );
    // And indeed: the earlier pattern answers.
    expect((await call(s.url, 'GET', '/api/v1/trusted')).text).toBe('{}');
  }, 60_000);

  it('--watch reloads the handlers module when it changes', async () => {
    const file = path.join(dir, 'watched.ts');
    writeFileSync(
      file,
      "export const isTrusted = (_req: unknown, ctx: { ok(b: unknown): unknown }) => ctx.ok('first');\n",
    );
    const s = await start([...ARGS, '--handlers', file, '--watch']);
    expect((await call(s.url, 'GET', '/api/v1/trusted')).text).toBe('"first"');
    writeFileSync(
      file,
      "export const isTrusted = (_req: unknown, ctx: { ok(b: unknown): unknown }) => ctx.ok('second');\n",
    );
    let text = '';
    for (let i = 0; i < 100 && text !== '"second"'; i++) {
      await new Promise((r) => setTimeout(r, 50));
      text = (await call(s.url, 'GET', '/api/v1/trusted')).text;
    }
    expect(text).toBe('"second"');
  }, 60_000);

  it('a handlers module that cannot be imported stops start-up with file and line', async () => {
    writeFileSync(path.join(dir, 'broken.ts'), 'export default {\n  closeThing(: ) {}\n};\n');
    const r = await runCli(['serve', '--port', '0', ...ARGS, '--handlers', path.join(dir, 'broken.ts')]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/broken\.ts at 2:\d+: cannot be imported/);
  }, 60_000);
});
