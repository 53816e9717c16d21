import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { beforeAll, describe, expect, it } from 'vitest';
import { StubCore } from '../../src/core/answer.js';
import { loadState, type StubState } from '../../src/load/state.js';
import { coreOptions } from '../../src/server/app.js';
import { resolveConfig } from '../../src/server/config.js';
import { ROOT } from '../cli-helpers.js';
import { ask as askCore, coreOf, settled, stateFor, testConfig } from '../helpers.js';

/**
 * Writes to a large fixture (read the flat way, its pks ascending: no map of them): the write
 * copies the collection's list and its pk index, and must change the item it names, and only it,
 * in the list as in the detail, filters and ordering included.
 */
const N = 140_000;
let state: StubState;
const desk = (i: number) => ({
  pk: i + 1,
  building: 'ABCD'[i % 4] as string,
  floor: 1 + (i % 5),
  number: `${100 + i}`,
  active: true,
  lead: false,
  ergonomic: true,
  held_today: false,
});
let config: Parameters<typeof coreOptions>[0];

beforeAll(async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'live-packed-'));
  const desks = Array.from({ length: N }, (_, i) => desk(i));
  await writeFile(path.join(dir, 'desk.json'), `[\n${desks.map((d) => JSON.stringify(d)).join(',\n')}\n]\n`);
  const resolved = resolveConfig({
    allowedHosts: ['*'],
    logLevel: 'silent',
    fixturesDir: dir,
    specFile: path.join(ROOT, 'test/fixtures/designer/openapi.yaml'),
  });
  if (!resolved.ok) throw new Error('config');
  config = resolved.config;
  state = await loadState({ specFile: config.specFile, fixturesDir: dir, seed: 1, defaultGenerateCount: 5 });
}, 60_000);

function client() {
  const core = new StubCore(state.model, coreOptions(config, state));
  const ask = (method: string, url: string, body?: unknown) => {
    const headers: Record<string, string> = {
      host: 'stub.test',
      ...(body ? { 'content-type': 'application/json' } : {}),
    };
    return settled(
      core.answer({
        method,
        url,
        header: (n) => headers[n],
        body: body ? Buffer.from(JSON.stringify(body)) : undefined,
      }),
    );
  };
  const pageWith = (pk: number) =>
    (
      JSON.parse(ask('GET', `/api/v1/desk?page=${Math.floor((pk - 1) / 100) + 1}`).body) as {
        results: { pk: number; building: string }[];
      }
    ).results;
  return { ask, pageWith };
}

describe('writes to a large collection', () => {
  const far = 135_173;
  it('DELETE removes the item it names, and only it', () => {
    const { ask, pageWith } = client();
    expect(ask('DELETE', `/api/v1/desk/${far}`).status).toBe(204);
    expect(ask('GET', `/api/v1/desk/${far}`).status).toBe(404);
    expect(pageWith(far).map((d) => d.pk)).not.toContain(far);
    expect(JSON.parse(ask('GET', '/api/v1/desk').body).count).toBe(N - 1);
    const last = JSON.parse(ask('GET', '/api/v1/desk?page=last').body) as { results: { pk: number }[] };
    expect(last.results.at(-1)?.pk).toBe(N);
  });

  it('PATCH changes the item it names in the list as in its detail', () => {
    const { ask, pageWith } = client();
    expect(ask('PATCH', `/api/v1/desk/${far}`, { building: 'Q' }).status).toBe(200);
    expect(JSON.parse(ask('GET', `/api/v1/desk/${far}`).body).building).toBe('Q');
    expect(
      pageWith(far)
        .filter((d) => d.pk === far)
        .map((d) => d.building),
    ).toEqual(['Q']);
    expect(JSON.parse(ask('GET', '/api/v1/desk').body).count).toBe(N);
  });
});

describe('the first write of a core a DELETE (the bundled spec and desks)', () => {
  // Before the fix, the first write's copy of the collection was made after the item was looked
  // for in it: a DELETE as first write answered 204 and removed nothing.
  it('the desk is gone from its item path and from the list, the others stay', async () => {
    const core = coreOf(await stateFor(testConfig()));
    const get = (url: string) => askCore(core, url);
    const count = () => (JSON.parse(get('/api/v1/desk').body) as { count: number }).count;
    // Desk 181 of fixtures/desk.json: Park Place 401, active; 190 active desks in all.
    expect(JSON.parse(get('/api/v1/desk/181').body)).toMatchObject({ pk: 181, building: 'P', number: '401' });
    expect(count()).toBe(190);
    expect(askCore(core, '/api/v1/desk/181', { method: 'DELETE' }).status).toBe(204);
    const gone = get('/api/v1/desk/181');
    expect([gone.status, gone.body]).toEqual([404, '{"detail":"No Desk matches the given query."}']);
    expect(count()).toBe(189);
    expect(get('/api/v1/desk/182').status).toBe(200);
    expect(askCore(core, '/api/v1/desk/181', { method: 'DELETE' }).status).toBe(404);
  });
});

describe('filters, search and ordering see the writes', () => {
  const far = 120_007;
  it('a PATCH, a DELETE and a POST after the columns were made: each filter finds what the writes left', () => {
    const { ask } = client();
    const list = (q: string) =>
      JSON.parse(ask('GET', `/api/v1/desk?${q}`).body) as { count: number; results: { pk: number }[] };
    const before = list('building=B&floor=3');
    expect(before.count).toBeGreaterThan(0);
    expect(ask('PATCH', `/api/v1/desk/${far}`, { building: 'Q', floor: 7 }).status).toBe(200);
    expect(list('building=Q').results.map((d) => d.pk)).toEqual([far]);
    expect(list('building=Q&floor=7').count).toBe(1);
    expect(list('building=Q&floor=6').count).toBe(0);
    const gone = before.results[0]?.pk as number;
    expect(ask('DELETE', `/api/v1/desk/${gone}`).status).toBe(204);
    expect(list('building=B&floor=3').count).toBe(before.count - 1);
    expect(list('building=B&floor=3').results.map((d) => d.pk)).not.toContain(gone);
    const created = ask('POST', '/api/v1/desk', { ...desk(1), building: 'Z', number: '9Z' });
    expect(created.status).toBe(201);
    expect(list('building=Z').results.map((d) => d.pk)).toEqual([N + 1]);
    expect(list('search=9Z').results.map((d) => d.pk)).toEqual([N + 1]);
    expect(list('ordering=-pk').results[0]?.pk).toBe(N + 1);
    expect(list('ordering=-floor,pk').results[0]?.pk).toBe(far);
    // A reset puts the snapshot's items back, and its columns with them.
    expect(ask('POST', '/__stub/reset').status).toBe(204);
    expect(list('building=Q').count).toBe(0);
    expect(list('building=B&floor=3').count).toBe(before.count);
    expect(list('ordering=-pk').results[0]?.pk).toBe(N);
  });
});

describe('memory under writes', () => {
  it("a write holds a list of the snapshot's items and copies of its columns, let go at the reset", () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const heap = () => {
      gc();
      gc();
      return process.memoryUsage().heapUsed;
    };
    const { ask } = client();
    // The snapshot's columns of building and floor, made once.
    ask('GET', '/api/v1/desk?building=A&floor=2');
    const read = heap();
    ask('PATCH', `/api/v1/desk/${N - 3}`, { building: 'Q' });
    ask('GET', '/api/v1/desk?building=A&floor=2');
    const written = heap();
    // The list, the pk index and two columns copied: references, a number each; not an object per item.
    const perItem = (written - read) / N;
    expect(perItem).toBeGreaterThan(8);
    expect(perItem).toBeLessThan(64);
    ask('POST', '/__stub/reset');
    expect(heap() - read).toBeLessThan((written - read) / 4);
  });
});
