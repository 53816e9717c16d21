import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { snapshot } from '../../../src/cli/snapshot.js';
import { SNAPSHOT_FORMAT } from '../../../src/core/snapshot.js';
import { fixtureDir } from '../server/state-fixtures.js';

const dir = await mkdtemp(path.join(tmpdir(), 'snapshot-'));
afterAll(() => rm(dir, { recursive: true, force: true }));
let out: string;
let err: string;
beforeEach(() => {
  out = '';
  err = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((s, cb?: unknown) => {
    out += String(s);
    if (typeof cb === 'function') (cb as (e?: Error) => void)();
    return true;
  });
  vi.spyOn(process.stderr, 'write').mockImplementation((s) => ((err += String(s)), true));
});
afterEach(() => vi.restoreAllMocks());

const mini = {
  spec: path.join(fixtureDir('mini'), 'openapi.yaml'),
  fixtures: path.join(fixtureDir('mini'), 'fixtures'),
  seed: 1,
  generateCount: 25,
};

describe('workplace-stub snapshot', () => {
  it('the snapshot as one line of JSON, exit 0', async () => {
    expect(await snapshot(mini)).toBe(0);
    expect(out.endsWith('}\n')).toBe(true);
    const s = JSON.parse(out) as { format: string; collections: Record<string, { items: unknown[] }> };
    expect(s.format).toBe(SNAPSHOT_FORMAT);
    expect(s.collections['/api/v1/stored']?.items).toHaveLength(3);
  });

  it.each<[string, Partial<typeof mini>, string]>([
    ['no such spec', { spec: '/nowhere/openapi.yaml' }, 'error: --spec /nowhere/openapi.yaml does not exist\n'],
    [
      'no such fixtures folder',
      { fixtures: '/nowhere/fixtures' },
      'error: --fixtures /nowhere/fixtures does not exist\n',
    ],
  ])('exit 2: %s', async (_name, over, message) => {
    expect(await snapshot({ ...mini, ...over })).toBe(2);
    expect([out, err]).toEqual(['', message]);
  });

  it("exit 1 with the load's problems", async () => {
    const spec = path.join(dir, 'broken.yaml');
    await writeFile(spec, 'openapi: 3.1.0\ninfo: {title: t}\npaths: {}\n');
    expect(await snapshot({ ...mini, spec })).toBe(1);
    expect(out).toBe('');
    expect(err).toContain('broken.yaml');
  });
});
