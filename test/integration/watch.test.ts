import { cp, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type StateHolder } from '../../src/server/app.js';
import { loadState } from '../../src/load/state.js';
import { stateOptions } from '../../src/server/config.js';
import type { DeskList, StoredDesk } from '../../src/types.js';
import { type Watcher, watchState } from '../../src/load/watch.js';
import { FIXTURES, SPEC, testConfig } from '../helpers.js';

async function until(check: () => Promise<boolean>, what: string, ms = 8000): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for: ${what}`);
}

describe('--watch: the stub follows the spec, its $ref files and the fixtures', () => {
  let dir: string;
  let app: FastifyInstance;
  let watcher: Watcher;
  let holder: StateHolder;
  const log: string[] = [];
  const files = { spec: '', deskSchema: '', items: '', desks: '', types: '' };
  let original: StoredDesk[];
  /** The desk the first test moves from Schaefers to Park Place: the fixture's first active one in S. */
  let moved: StoredDesk;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'stub-watch-'));
    await cp(path.dirname(SPEC), path.join(dir, 'openapi'), { recursive: true });
    await cp(FIXTURES, path.join(dir, 'fixtures'), { recursive: true });
    files.spec = path.join(dir, 'openapi', 'openapi.yaml');
    files.deskSchema = path.join(dir, 'openapi', 'schemas', 'desk.yaml');
    files.items = path.join(dir, 'openapi', 'schemas', 'items.yaml');
    files.desks = path.join(dir, 'fixtures', 'desk.json');
    files.types = path.join(dir, 'openapi.d.ts');
    original = JSON.parse(await readFile(files.desks, 'utf8')) as StoredDesk[];
    moved = original.find((d) => d.active && d.building === 'S') as StoredDesk;
    const config = testConfig({
      specFile: files.spec,
      fixturesDir: path.join(dir, 'fixtures'),
      watch: true,
      // One page holds every desk: the last test reads each state whole.
      pageSize: 1000,
      typesFile: files.types,
    });
    holder = { current: await loadState(stateOptions(config)) };
    app = await buildApp(config, holder);
    watcher = watchState(holder.current, {
      state: stateOptions(config),
      typesFile: files.types,
      onState: (next) => (holder.current = next),
      log: (l) => log.push(l),
    });
  });
  afterAll(async () => {
    watcher.close();
    await app.close();
  });

  const desks = async () => (await app.inject({ url: '/api/v1/desk' })).json() as DeskList;
  const buildingOfMoved = async () =>
    ((await app.inject({ url: `/api/v1/desk/${moved.pk}` })).json() as StoredDesk).building;
  /** The desks the deployment lists: the active ones. */
  const listed = () => original.filter((d) => d.active);

  it('picks up a fixture edit', async () => {
    expect(await buildingOfMoved()).toBe('S');
    await writeFile(files.desks, JSON.stringify(original.map((d) => (d === moved ? { ...d, building: 'P' } : d))));
    await until(async () => (await buildingOfMoved()) === 'P', 'the edited desk');
    // Listed with Park Place's desks now, which come first (ordering: building, floor, number).
    const results = (await desks()).results;
    expect(results.findIndex((d) => d.pk === moved.pk)).toBeLessThan(results.findIndex((d) => d.building === 'S'));
  });

  it('picks up an edit to a $ref-ed file: describing Employee fields makes its data appear, and the types follow', async () => {
    const items = await readFile(files.items, 'utf8');
    await writeFile(
      files.items,
      items.replace(
        /^Employee:\n {2}type: object\n/m,
        'Employee:\n  type: object\n  required: [name]\n  properties:\n    name:\n      type: string\n',
      ),
    );
    // The deployment's employee queryset holds nothing for an anonymous client: ask with a token.
    const employees = async (authorization?: string) =>
      (
        (
          await app.inject({ url: '/api/v1/employee', headers: authorization ? { authorization } : {} })
        ).json() as DeskList
      ).count;
    await until(async () => (await employees('Token watch')) === 25, 'generated employees');
    expect(await employees()).toBe(0);
    await until(
      async () =>
        (await readFile(files.types, 'utf8').catch(() => '')).includes('Employee: {\n            name: string;'),
      'regenerated types',
    );
  });

  it('serves a path added to the YAML without a restart', async () => {
    const spec = await readFile(files.spec, 'utf8');
    const added = spec.replace(
      '\ncomponents:\n',
      "\n  /api/v1/building:\n    get:\n      operationId: listBuildings\n      responses:\n        '200':\n          description: Buildings.\n          content:\n            application/json:\n              schema:\n                $ref: '#/components/schemas/EmployeeList'\n\ncomponents:\n",
    );
    await writeFile(files.spec, added);
    await until(async () => (await app.inject({ url: '/api/v1/building' })).statusCode === 200, 'the new path');
  });

  it('keeps the last good state on an invalid edit, says why, and takes the next valid one', async () => {
    const good = await readFile(files.deskSchema, 'utf8');
    const before = log.length;
    await writeFile(files.deskSchema, 'type: object\nproperties: [\n');
    await until(
      async () => log.slice(before).some((l) => /still serving the last good state/.test(l)),
      'the last good state kept',
    );
    expect(log.slice(before).join('\n')).toMatch(/desk\.yaml at line \d+:\d+/);
    expect((await desks()).count).toBe(listed().length);

    const before2 = log.length;
    await writeFile(files.desks, JSON.stringify(original.map((d, i) => (i === 1 ? { ...d, number: 12 } : d))));
    await writeFile(files.deskSchema, good);
    await until(
      async () => log.slice(before2).some((l) => /desk\.json at line \d+:\d+ \(\/1\/number\): must be string/.test(l)),
      'the fixture error',
    );
    expect((await app.inject({ url: '/api/v1/desk' })).statusCode).toBe(200);

    await writeFile(files.desks, JSON.stringify(original));
    await until(async () => (await buildingOfMoved()) === 'S', 'the valid edit');
  });

  it('no request fails or sees half a state while files change', async () => {
    // Ten desks on a floor no original desk is on: a page mixing the two states shows both floors.
    const small = listed()
      .slice(0, 10)
      .map((d) => ({ ...d, floor: 999 }));
    expect(original.some((d) => d.floor === 999)).toBe(false);
    let stop = false;
    const seen = new Set<number>();
    const failures: string[] = [];
    const loop = async () => {
      while (!stop) {
        const res = await app.inject({ url: '/api/v1/desk' });
        if (res.statusCode !== 200) failures.push(`${res.statusCode} ${res.body}`);
        const body = res.json() as DeskList;
        seen.add(body.count);
        const marked = new Set(body.results.map((d) => d.floor === 999));
        if (body.results.length !== body.count || marked.size > 1)
          failures.push(`mixed state: ${body.count} ${[...marked]}`);
        await new Promise((r) => setImmediate(r));
      }
    };
    const loops = [loop(), loop(), loop()];
    for (let i = 0; i < 6; i++) {
      const next = i % 2 === 0 ? small : original;
      await writeFile(files.desks, JSON.stringify(next));
      // Each state is seen before the next edit: a reload takes a few hundred ms on a busy machine.
      await until(async () => (await desks()).count === (i % 2 === 0 ? small.length : listed().length), `state ${i}`);
    }
    await watcher.idle();
    await new Promise((r) => setTimeout(r, 300));
    stop = true;
    await Promise.all(loops);
    expect(failures).toEqual([]);
    expect(seen).toEqual(new Set([10, listed().length]));
  });
});
