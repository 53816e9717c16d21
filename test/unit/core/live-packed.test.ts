import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { StubCore } from '../../../src/core/answer.js';
import { BLOCK_ITEMS } from '../../../src/core/packed-items.js';
import { loadState, type StubState } from '../../../src/load/state.js';
import { coreOptions } from '../../../src/server/app.js';
import { resolveConfig } from '../../../src/server/config.js';
import { ROOT } from '../../cli-helpers.js';
import { settled } from '../../helpers.js';

/**
 * Writes to a fixture of more blocks than are kept made (src/core/packed-items.ts: 32): the item a
 * write names was made before the write copied the collection, and its block made again since,
 * so the copy holds an equal item, not the same object. The write must still change that item.
 */
const N = 34 * BLOCK_ITEMS;
let state: StubState;
let config: Parameters<typeof coreOptions>[0];

beforeAll(async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'live-packed-'));
  const desks = Array.from({ length: N }, (_, i) => ({
    pk: i + 1,
    building: 'ABCD'[i % 4],
    floor: 1 + (i % 5),
    number: `${100 + i}`,
    active: true,
    lead: false,
    ergonomic: true,
    held_today: false,
  }));
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

describe('the first write to a collection of more blocks than are kept made', () => {
  const far = 33 * BLOCK_ITEMS + 5;
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
