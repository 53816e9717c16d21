import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type WriteFixtureOptions, writeFixture } from '../../../src/cli/write-fixture.js';
import { fixtureDir } from '../server/state-fixtures.js';

const dir = await mkdtemp(path.join(tmpdir(), 'write-fixture-'));
afterAll(() => rm(dir, { recursive: true, force: true }));
const options = (over: Partial<WriteFixtureOptions> = {}): WriteFixtureOptions => ({
  specFile: path.join(fixtureDir('mini'), 'openapi.yaml'),
  fixturesDir: path.join(dir, 'fixtures'),
  resource: 'generated',
  count: 3,
  defaultCount: 25,
  seed: 1,
  force: false,
  ...over,
});

describe('writeFixture: generated items for a designer to edit', () => {
  it('writes the items the stub would generate, without urls, into a folder it makes', async () => {
    const r = await writeFixture(options());
    const file = path.join(dir, 'fixtures', 'generated.json');
    expect(r).toEqual({ ok: true, file, count: 3 });
    const text = await readFile(file, 'utf8');
    const items = JSON.parse(text) as Record<string, unknown>[];
    expect(items).toHaveLength(3);
    expect(Object.keys(items[0] ?? {}).sort()).toEqual(['name', 'pk', 'size']);
    expect(text.endsWith('}\n]\n')).toBe(true);
    const again = await writeFixture(options({ fixturesDir: path.join(dir, 'again') }));
    expect(again.ok && (await readFile(again.file, 'utf8'))).toBe(text);
  });

  it('the seed decides the items', async () => {
    const other = await writeFixture(options({ fixturesDir: path.join(dir, 'seed2'), seed: 2 }));
    const mine = await readFile(path.join(dir, 'fixtures', 'generated.json'), 'utf8');
    expect(other.ok && (await readFile(other.file, 'utf8'))).not.toBe(mine);
  });

  it('never over a file there without force', async () => {
    const file = path.join(dir, 'kept', 'generated.json');
    await writeFixture(options({ fixturesDir: path.join(dir, 'kept') }));
    await writeFile(file, '[]');
    const r = await writeFixture(options({ fixturesDir: path.join(dir, 'kept') }));
    expect(r.ok ? '' : r.error).toMatch(/generated\.json exists; pass --force to overwrite it$/);
    expect(await readFile(file, 'utf8')).toBe('[]');
    expect(
      (await writeFixture(options({ fixturesDir: path.join(dir, 'kept'), force: true, count: undefined }))).ok &&
        JSON.parse(await readFile(file, 'utf8')).length,
    ).toBe(5); // its x-stub-count, over the default count
  });

  it.each<[string, string, RegExp]>([
    [
      'no such collection: the ones there are',
      'nosuch',
      /^no collection "nosuch" in the spec; there are: stored, exampled, generated, undescribed$/,
    ],
    [
      'items the spec does not describe',
      'undescribed',
      /^the items of \/api\/v1\/undescribed have no described fields \(#\/components\/schemas\/Opaque\): describe them in the spec first$/,
    ],
  ])('refused: %s', async (_name, resource, error) => {
    const r = await writeFixture(options({ resource }));
    expect(r.ok ? '' : r.error).toMatch(error);
  });
});
