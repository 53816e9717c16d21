import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { snapshot } from '../../../src/cli/snapshot.js';
import { SNAPSHOT_FORMAT } from '../../../src/core/snapshot.js';
import { fixtureDir } from '../server/state-fixtures.js';
import { catchOutput, io } from './io.js';

const dir = await mkdtemp(path.join(tmpdir(), 'snapshot-'));
afterAll(() => rm(dir, { recursive: true, force: true }));
catchOutput();

const mini = {
  spec: path.join(fixtureDir('mini'), 'openapi.yaml'),
  fixtures: path.join(fixtureDir('mini'), 'fixtures'),
  seed: 1,
  generateCount: 25,
};

describe('workplace-stub snapshot', () => {
  it('the snapshot as one line of JSON, exit 0', async () => {
    expect(await snapshot(mini)).toBe(0);
    expect(io.out.endsWith('}\n')).toBe(true);
    const s = JSON.parse(io.out) as { format: string; collections: Record<string, { items: unknown[] }> };
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
    expect([io.out, io.err]).toEqual(['', message]);
  });

  it("exit 1 with the load's problems", async () => {
    const spec = path.join(dir, 'broken.yaml');
    await writeFile(spec, 'openapi: 3.1.0\ninfo: {title: t}\npaths: {}\n');
    expect(await snapshot({ ...mini, spec })).toBe(1);
    expect(io.out).toBe('');
    expect(io.err).toContain('broken.yaml');
  });
});
