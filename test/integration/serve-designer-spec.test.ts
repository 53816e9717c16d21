import { cp, mkdtemp, readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoadError } from '../../src/load/errors.js';
import { loadState } from '../../src/load/state.js';
import { buildApp, type StateHolder } from '../../src/server/app.js';
import { stateOptions } from '../../src/server/config.js';
import { runCli, startCli } from '../cli-helpers.js';
import { DOCUMENT_COLLECTIONS, listen, SPEC, testConfig } from '../helpers.js';

const DESIGNER = fileURLToPath(new URL('../fixtures/designer/', import.meta.url));
const SPEC_FILE = `${DESIGNER}openapi.yaml`;
const FIXTURES = `${DESIGNER}fixtures`;

interface Answer {
  status: number;
  headers: Headers;
  text: string;
  json: () => unknown;
}

async function call(
  base: string,
  method: string,
  url: string,
  body?: unknown,
  type = 'application/json',
): Promise<Answer> {
  const init: RequestInit = { method, headers: { accept: 'application/json' } };
  if (body !== undefined) {
    init.body = typeof body === 'string' ? body : JSON.stringify(body);
    init.headers = { accept: 'application/json', 'content-type': type };
  }
  const res = await fetch(`${base}${url}`, init);
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, json: () => JSON.parse(text) as unknown };
}

const DESK = { building: 'Q', floor: 3, number: '12A', active: true, lead: false, ergonomic: true, held_today: false };

describe("a designer's spec: writes, filters, search, ordering and an employee item path, served the DRF way", () => {
  let app: FastifyInstance;
  let holder: StateHolder;
  let base: string;
  beforeAll(async () => {
    const config = testConfig({ specFile: SPEC_FILE, fixturesDir: FIXTURES, pageSize: 5 });
    holder = { current: await loadState(stateOptions(config)) };
    app = await buildApp(config, holder);
    base = await listen(app);
  });
  afterAll(() => app.close());

  it('POST creates an item: 201, the next pk, its url built for the host called, Location; read-only url and pk are ignored', async () => {
    const before = (await call(base, 'GET', '/api/v1/desk')).json() as { count: number };
    const res = await call(base, 'POST', '/api/v1/desk?format=api', { ...DESK, pk: 999, url: 'http://elsewhere/x' });
    expect(res.status).toBe(201);
    const created = res.json() as { url: string; pk: number };
    expect(created.pk).toBe(49);
    expect(created).toEqual({ url: `${base}/api/v1/desk/49?format=api`, pk: 49, ...DESK });
    expect(res.headers.get('location')).toBe(created.url);
    expect(res.headers.get('allow')).toBe('GET, POST, HEAD, OPTIONS');
    const after = (await call(base, 'GET', '/api/v1/desk')).json() as { count: number };
    expect(after.count).toBe(before.count + 1);
    expect((await call(base, 'GET', '/api/v1/desk/49')).json()).toMatchObject({ pk: 49, building: 'Q' });
  });

  it("a bad body answers 400 in DRF's field-error shape, every field with its messages", async () => {
    const res = await call(base, 'POST', '/api/v1/desk', { building: 'qq', floor: 'x', number: 12 });
    expect(res.status).toBe(400);
    expect(res.json()).toEqual({
      building: ['Enter a valid value.', 'Ensure this field has no more than 1 characters.'],
      floor: ['A valid integer is required.'],
      active: ['This field is required.'],
      lead: ['This field is required.'],
      ergonomic: ['This field is required.'],
      held_today: ['This field is required.'],
    });
    expect((await call(base, 'POST', '/api/v1/desk', [1])).json()).toEqual({
      non_field_errors: ['Invalid data. Expected a dictionary, but got list.'],
    });
    // The model's own validator (the pattern) first, then the one CharField adds (max_length).
    expect((await call(base, 'POST', '/api/v1/desk', { ...DESK, floor: 500, number: '1234-5678A' })).json()).toEqual({
      floor: ['Ensure this value is less than or equal to 120.'],
      number: ['Enter a valid value.', 'Ensure this field has no more than 8 characters.'],
    });
  });

  it("malformed JSON is DRF's parse error; an undeclared media type is 415", async () => {
    const bad = await call(base, 'POST', '/api/v1/desk', '{"building": ');
    expect(bad.status).toBe(400);
    expect(bad.json()).toEqual({ detail: 'JSON parse error - Expecting value: line 1 column 14 (char 13)' });
    const text = await call(base, 'POST', '/api/v1/desk', 'hello', 'text/plain');
    expect(text.status).toBe(415);
    expect(text.json()).toEqual({ detail: 'Unsupported media type "text/plain" in request.' });
  });

  it('a string field refuses an empty value, as a Django CharField without blank=True does', async () => {
    const res = await call(base, 'POST', '/api/v1/desk', { ...DESK, number: '   ' });
    expect(res.status).toBe(400);
    expect(res.json()).toEqual({ number: ['This field may not be blank.'] });
  });

  it('a form-encoded body is read as DRF reads a form (an absent checkbox is false)', async () => {
    const res = await call(
      base,
      'POST',
      '/api/v1/desk',
      'building=R&floor=2&number=7&active=on',
      'application/x-www-form-urlencoded',
    );
    expect(res.status).toBe(201);
    expect(res.json()).toMatchObject({
      building: 'R',
      floor: 2,
      number: '7',
      active: true,
      lead: false,
      ergonomic: false,
      held_today: false,
    });
  });

  it('PATCH changes what it is given, PUT needs every required field, DELETE is 204 without a body; lists and details follow', async () => {
    const patched = await call(base, 'PATCH', '/api/v1/desk/5', { floor: 9 });
    expect(patched.status).toBe(200);
    expect(patched.json()).toMatchObject({ pk: 5, floor: 9, building: 'A', number: '105B' });
    const put = await call(base, 'PUT', '/api/v1/desk/5', { floor: 9 });
    expect(put.status).toBe(400);
    expect(Object.keys(put.json() as object)).toEqual([
      'building',
      'number',
      'active',
      'lead',
      'ergonomic',
      'held_today',
    ]);
    const replaced = await call(base, 'PUT', '/api/v1/desk/5', { ...DESK, building: 'Z' });
    expect(replaced.json()).toMatchObject({ pk: 5, building: 'Z' });
    expect((await call(base, 'PUT', '/api/v1/desk/4242', DESK)).status).toBe(404);
    const gone = await call(base, 'DELETE', '/api/v1/desk/5');
    expect(gone.status).toBe(204);
    expect(gone.text).toBe('');
    expect(gone.headers.get('content-type')).toBeNull();
    expect((await call(base, 'GET', '/api/v1/desk/5')).json()).toEqual({ detail: 'No Desk matches the given query.' });
    const all = (await call(base, 'GET', '/api/v1/desk?page_size=50')).json() as { results: { pk: number }[] };
    expect(all.results.map((d) => d.pk)).not.toContain(5);
  });

  it('a method the spec does not declare is 405 with Allow listing exactly what it declares', async () => {
    const onList = await call(base, 'DELETE', '/api/v1/desk');
    expect(onList.status).toBe(405);
    expect(onList.json()).toEqual({ detail: 'Method "DELETE" not allowed.' });
    expect(onList.headers.get('allow')).toBe('GET, POST, HEAD, OPTIONS');
    const onItem = await call(base, 'POST', '/api/v1/desk/1');
    expect(onItem.headers.get('allow')).toBe('GET, PUT, PATCH, DELETE, HEAD, OPTIONS');
    const readOnly = await call(base, 'POST', '/api/v1/employee', { name: 'x' });
    expect(readOnly.status).toBe(405);
    expect(readOnly.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
  });

  it('OPTIONS describes the POST the spec declares (SimpleMetadata actions)', async () => {
    const meta = (await call(base, 'OPTIONS', '/api/v1/signature')).json() as {
      actions: { POST: Record<string, Record<string, unknown>> };
    };
    expect(meta.actions.POST.pk).toEqual({ type: 'integer', required: false, read_only: true, label: 'ID' });
    expect(meta.actions.POST.signer).toMatchObject({
      type: 'string',
      required: true,
      read_only: false,
      label: 'Signer',
      max_length: 40,
    });
    expect(meta.actions.POST.kind).toMatchObject({
      type: 'choice',
      required: false,
      choices: [
        { value: 'paper', display_name: 'paper' },
        { value: 'electronic', display_name: 'electronic' },
      ],
    });
  });

  it('state is per process and in memory: POST /__stub/reset puts it back, and nothing is written to disk', async () => {
    const file = path.join(FIXTURES, 'desk.json');
    const { mtimeMs } = await stat(file);
    const content = await readFile(file, 'utf8');
    await call(base, 'POST', '/api/v1/desk', DESK);
    const reset = await call(base, 'POST', '/__stub/reset');
    expect(reset.status).toBe(204);
    expect(((await call(base, 'GET', '/api/v1/desk')).json() as { count: number }).count).toBe(12);
    expect((await call(base, 'GET', '/api/v1/desk/5')).status).toBe(200);
    expect((await call(base, 'GET', '/__stub/reset')).status).toBe(405);
    expect((await stat(file)).mtimeMs).toBe(mtimeMs);
    expect(await readFile(file, 'utf8')).toBe(content);
  });

  it('a reload (a new state) starts from the snapshot again', async () => {
    await call(base, 'POST', '/api/v1/desk', DESK);
    holder.current = await loadState(stateOptions(testConfig({ specFile: SPEC_FILE, fixturesDir: FIXTURES })));
    expect(((await call(base, 'GET', '/api/v1/desk')).json() as { count: number }).count).toBe(12);
  });

  it('1,000 concurrent interleaved writes lose nothing', async () => {
    await call(base, 'POST', '/__stub/reset');
    const writes = Array.from({ length: 1000 }, (_, i) =>
      i % 4 === 3
        ? call(base, 'PATCH', `/api/v1/desk/${[1, 9, 18, 26][i % 4]}`, { floor: i % 100 })
        : call(base, 'POST', '/api/v1/desk', { ...DESK, number: String(i) }),
    );
    const answers = await Promise.all(writes);
    expect(answers.filter((a) => a.status !== 201 && a.status !== 200).map((a) => a.text)).toEqual([]);
    const created = answers.filter((a) => a.status === 201).map((a) => (a.json() as { pk: number }).pk);
    expect(new Set(created).size).toBe(750);
    const list = (await call(base, 'GET', '/api/v1/desk?page_size=50&ordering=pk')).json() as { count: number };
    expect(list.count).toBe(12 + 750);
    const numbers = new Set<string>();
    for (let page = 1; page <= Math.ceil(list.count / 50); page++) {
      for (const d of (
        (await call(base, 'GET', `/api/v1/desk?page_size=50&page=${page}`)).json() as { results: { number: string }[] }
      ).results)
        numbers.add(d.number);
    }
    for (let i = 0; i < 1000; i++) if (i % 4 !== 3) expect(numbers.has(String(i))).toBe(true);
    await call(base, 'POST', '/__stub/reset');
  });

  it("a field filter is an exact match; a value of the wrong type is django-filter's 400", async () => {
    const b = (await call(base, 'GET', '/api/v1/desk?building=B')).json() as {
      count: number;
      results: { building: string }[];
    };
    expect(b.count).toBe(3);
    expect(b.results.every((d) => d.building === 'B')).toBe(true);
    expect(((await call(base, 'GET', '/api/v1/desk?building=b')).json() as { count: number }).count).toBe(0);
    expect(((await call(base, 'GET', '/api/v1/desk?floor=2.0')).json() as { count: number }).count).toBe(4);
    expect(((await call(base, 'GET', '/api/v1/desk?active=false')).json() as { count: number }).count).toBe(1);
    const bad = await call(base, 'GET', '/api/v1/desk?floor=abc');
    expect(bad.status).toBe(400);
    expect(bad.json()).toEqual({ floor: ['Enter a number.'] });
  });

  it('search: every term must match some listed field, case-insensitively', async () => {
    const res = (await call(base, 'GET', '/api/v1/desk?search=c%2020')).json() as {
      results: { building: string; number: string }[];
    };
    expect(res.results.map((d) => `${d.building}${d.number}`)).toEqual(['C202']);
    expect(((await call(base, 'GET', '/api/v1/desk?search=204a')).json() as { count: number }).count).toBe(2);
  });

  it('ordering sorts by the allowed fields (- descending, several, unknown ignored)', async () => {
    const res = (await call(base, 'GET', '/api/v1/desk?ordering=-floor,nope,number&page_size=50')).json() as {
      results: { floor: number; number: string }[];
    };
    const keys = res.results.map((d) => [d.floor, d.number] as const);
    expect(keys).toEqual([...keys].sort((x, y) => y[0] - x[0] || (x[1] < y[1] ? -1 : x[1] > y[1] ? 1 : 0)));
    expect(keys[0]?.[0]).toBe(4);
  });

  it('count, next and previous follow the filtered set and keep the parameters, keys sorted as DRF writes them', async () => {
    const page1 = (await call(base, 'GET', '/api/v1/desk?search=2&ordering=-floor&format=api')).json() as {
      count: number;
      next: string;
      previous: null;
    };
    expect(page1.count).toBe(8);
    expect(page1.next).toBe(`${base}/api/v1/desk?format=api&ordering=-floor&page=2&search=2`);
    const page2 = (await call(base, 'GET', page1.next.slice(base.length))).json() as {
      previous: string;
      next: null;
      results: unknown[];
    };
    expect(page2.previous).toBe(`${base}/api/v1/desk?format=api&ordering=-floor&search=2`);
    expect(page2.results).toHaveLength(3);
  });

  it('an item path for employees looks items up by its own parameter (id)', async () => {
    expect((await call(base, 'GET', '/api/v1/employee/9')).json()).toEqual({ id: 9, name: 'Grace Hopper' });
    expect((await call(base, 'GET', '/api/v1/employee/8')).json()).toEqual({
      detail: 'No Employee matches the given query.',
    });
    expect((await call(base, 'GET', '/api/v1/employee/x')).json()).toEqual({ detail: 'Not found.' });
  });

  it('Prefer: code=500 (and 502, 503, 504) is the failure the deployment would send, declared or not', async () => {
    const res = await fetch(`${base}/api/v1/desk`, { headers: { prefer: 'code=500' } });
    expect(res.status).toBe(500);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await res.text()).toContain('<h1>Server Error (500)</h1>');
    for (const code of [502, 503, 504]) {
      const g = await fetch(`${base}/api/v1/desk/1`, { headers: { prefer: `code=${code}` } });
      expect(g.status).toBe(code);
      expect(await g.text()).toContain(`<h1>${code} `);
    }
    expect((await fetch(`${base}/api/v1/desk`, { headers: { prefer: 'code=418' } })).status).toBe(400);
  });
});

describe('what the designer is told', () => {
  it('start-up prints what is served, and warns of an unused fixture and a parameter the stub cannot apply', async () => {
    const { child, output } = await startCli(['--port', '0', '--spec', SPEC_FILE, '--fixtures', FIXTURES]);
    try {
      await new Promise((r) => setTimeout(r, 300));
      const out = output();
      expect(out).toMatch(
        /\/api\/v1\/desk\s+fixture \S*desk\.json\s+12\s+GET POST\s+GET PUT PATCH DELETE\s+building floor active search ordering page_size colour/,
      );
      expect(out).toMatch(/\/api\/v1\/signature\s+generated \(on first request\)\s+25\s+GET POST\s+-/);
      expect(out).toMatch(/warning: \S*old-desks\.json: no collection of the spec reads this fixture/);
      expect(out).toMatch(
        /warning: \S*openapi\.yaml at \/paths\/~1api~1v1~1desk\/get\/parameters\/8: query parameter "colour" of listDesks is not applied/,
      );
    } finally {
      child.kill('SIGTERM');
    }
  });

  it('items that carry no lookup field are rows all the same: addressable at their row pk, no warning', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'designer-'));
    await cp(DESIGNER, dir, { recursive: true });
    const file = path.join(dir, 'openapi.yaml');
    const doc = parse(await readFile(file, 'utf8')) as {
      components: { schemas: { Employee: { required: string[]; properties: Record<string, unknown> } } };
    };
    doc.components.schemas.Employee = { required: ['name'], properties: { name: { type: 'string' } } };
    const { stringify } = await import('yaml');
    await writeFile(file, stringify(doc));
    await writeFile(path.join(dir, 'fixtures', 'employee.json'), JSON.stringify([{ name: 'Ada' }, { name: 'Grace' }]));
    const config = testConfig({ specFile: file, fixturesDir: path.join(dir, 'fixtures'), seed: 1 });
    const state = await loadState(stateOptions(config));
    // The warnings are the designer fixture's own two (an unused fixture, a parameter not applied).
    expect(state.warnings.map((w) => w.reason)).toEqual([
      expect.stringMatching(/^no collection of the spec reads this fixture/),
      expect.stringMatching(/^query parameter "colour" of listDesks is not applied/),
    ]);
    // Django's AutoField numbers the rows of a fixture loaded in order: 1, 2, ...; the pk is not shown.
    const app = await buildApp(config, { current: state });
    try {
      const list = await app.inject({ url: '/api/v1/employee' });
      expect(list.json()).toEqual({
        count: 2,
        next: null,
        previous: null,
        results: [{ name: 'Ada' }, { name: 'Grace' }],
      });
      expect((await app.inject({ url: '/api/v1/employee/1' })).json()).toEqual({ name: 'Ada' });
      expect((await app.inject({ url: '/api/v1/employee/2' })).json()).toEqual({ name: 'Grace' });
      const none = await app.inject({ url: '/api/v1/employee/3' });
      expect(none.statusCode).toBe(404);
      expect(none.json()).toEqual({ detail: 'No Employee matches the given query.' });
    } finally {
      await app.close();
    }
  });

  it("x-stub-fixture keeps a collection's data when its path is renamed", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'designer-'));
    await cp(DESIGNER, dir, { recursive: true });
    const file = path.join(dir, 'openapi.yaml');
    const text = (await readFile(file, 'utf8'))
      .replaceAll('/api/v1/desk', '/api/v1/workdesk')
      .replace('operationId: listDesks', 'operationId: listDesks\n      x-stub-fixture: desk');
    await writeFile(file, text);
    const state = await loadState({
      specFile: file,
      fixturesDir: path.join(dir, 'fixtures'),
      seed: 1,
      defaultGenerateCount: 2,
    });
    const c = state.model.collections.get('/api/v1/workdesk');
    expect(c?.source).toBe('fixture');
    expect(c?.items.items).toHaveLength(12);
  });

  it('a fixture name the system cannot open is still told why (not taken for a missing fixture)', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'designer-'));
    await cp(DESIGNER, dir, { recursive: true });
    const file = path.join(dir, 'openapi.yaml');
    const name = 'd'.repeat(300);
    await writeFile(
      file,
      (await readFile(file, 'utf8')).replace(
        'operationId: listDesks',
        `operationId: listDesks\n      x-stub-fixture: ${name}`,
      ),
    );
    const e = await loadState({
      specFile: file,
      fixturesDir: path.join(dir, 'fixtures'),
      seed: 1,
      defaultGenerateCount: 2,
    }).catch((err: unknown) => err);
    expect((e as LoadError).problems?.map((p) => `${p.file}: ${p.reason}`).join('\n')).toMatch(
      new RegExp(`${name}\\.json: cannot read the file \\(ENAMETOOLONG\\)`),
    );
  });

  it("the bundled spec declares the deployment's ModelViewSets, its API root and its two Django views", async () => {
    const doc = parse(await readFile(SPEC, 'utf8')) as { paths: Record<string, Record<string, unknown>> };
    const lists: string[] = [];
    for (const [p, item] of Object.entries(doc.paths)) {
      const methods = Object.keys(item).filter((k) => k !== 'parameters');
      if (['/', '/favicon.ico', '/api/'].includes(p)) expect(methods, p).toEqual(['get']);
      else if (p.endsWith('/{pk}')) expect(methods, p).toEqual(['get', 'put', 'patch', 'delete']);
      else {
        expect(methods, p).toEqual(['get', 'post']);
        lists.push(p);
      }
    }
    expect(lists.sort()).toEqual(DOCUMENT_COLLECTIONS.map((r) => `/api/v1/${r}`).sort());
    for (const p of lists) expect(Object.keys(doc.paths)).toContain(`${p}/{pk}`);
    expect(Object.keys(doc.paths)).toHaveLength(2 * DOCUMENT_COLLECTIONS.length + 3);
  });

  it('--spec or --fixtures naming nothing is an error (exit 2)', async () => {
    expect((await runCli(['--spec', '/nonexistent/openapi.yaml', '--port', '0'])).code).toBe(2);
    expect((await runCli(['--fixtures', '/nonexistent/fixtures', '--port', '0'])).code).toBe(2);
  });
});
