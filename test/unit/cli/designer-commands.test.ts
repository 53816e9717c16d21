import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Command } from 'commander';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { rel } from '../../../src/load/paths.js';
import { addDesignerCommands, fixturesCommand, generateCommand, runAlone } from '../../../src/cli/designer-commands.js';
import { fixtureDir } from '../server/state-fixtures.js';
import { catchOutput, exitOf, io, stopExit } from './io.js';

vi.mock('../../../src/load/generate-types.js', () => ({
  generateTypes: async (spec: string) => {
    if (spec.endsWith('broken.yaml')) throw new Error(`${spec} cannot be read`);
    return `types of ${spec}`;
  },
}));
vi.mock('../../../src/load/generate-snapshot.js', () => ({
  generateSnapshotModule: async (o: { specFile: string; fixturesDir: string; seed: number }) =>
    JSON.stringify({ specFile: o.specFile, fixturesDir: o.fixturesDir, seed: o.seed }),
}));

const dir = await mkdtemp(path.join(tmpdir(), 'designer-commands-'));
afterAll(() => rm(dir, { recursive: true, force: true }));
catchOutput();
const MINI = path.join(fixtureDir('mini'), 'openapi.yaml');

stopExit();

describe('addDesignerCommands', () => {
  it('fixtures and generate under the bin', () => {
    const p = new Command('workplace-stub');
    addDesignerCommands(p);
    expect(p.commands.map((c) => c.name())).toEqual(['fixtures', 'generate']);
  });
});

describe('fixtures, run alone as `npm run fixtures --` runs it', () => {
  it('writes generated items of one resource and says where', async () => {
    const fixtures = path.join(dir, 'f1');
    const argv = ['--resource', 'stored', '--count', '2', '--spec', MINI, '--fixtures', fixtures];
    expect(await exitOf(() => runAlone(fixturesCommand, 'fixtures', argv))).toBeUndefined();
    expect(io.out).toBe(`2 items written to ${rel(path.join(fixtures, 'stored.json'))}\n`);
    expect(JSON.parse(await readFile(path.join(fixtures, 'stored.json'), 'utf8'))).toHaveLength(2);
  });

  it.each<[string, string[], number, RegExp]>([
    ['an unknown option: commander’s words, exit 2', ['--resource', 'desk', '--nope'], 2, /unknown option '--nope'/],
    ['a count that is no whole number', ['--resource', 'desk', '--count', 'two'], 2, /not a whole number/],
    ['the required --resource missing', [], 2, /required option '--resource <name>' not specified/],
    [
      'a resource the spec does not have: exit 1',
      ['--resource', 'nosuch', '--spec', MINI, '--fixtures', path.join(dir, 'f2')],
      1,
      /^error: no collection "nosuch" in the spec/,
    ],
    ['--help is exit 0', ['--help'], 0, /^$/],
  ])('%s', async (_name, argv, code, err) => {
    expect(await exitOf(() => runAlone(fixturesCommand, 'fixtures', argv))).toBe(code);
    expect(io.err).toMatch(err);
  });
});

describe('generate, run alone as `npm run generate --` runs it', () => {
  // openapi-typescript takes over a second to load: the generators are stood in for here, and
  // what they write is test/integration/designer-tools.test.ts's and test/unit/load's.
  it('the types into --out, then the snapshot module into --snapshot, folders made', async () => {
    const out = path.join(dir, 'gen', 'types.ts');
    const snapshot = path.join(dir, 'gen2', 'snapshot.ts');
    const spec = path.join(dir, 'spec.yaml');
    expect(
      await exitOf(() =>
        runAlone(generateCommand, 'generate', [
          '--spec',
          spec,
          '--fixtures',
          dir,
          '--seed',
          '7',
          '--out',
          out,
          '--snapshot',
          snapshot,
        ]),
      ),
    ).toBeUndefined();
    expect(io.out).toBe(`types written to ${rel(out)}\nsnapshot written to ${rel(snapshot)}\n`);
    expect(await readFile(out, 'utf8')).toBe(`types of ${spec}`);
    expect(JSON.parse(await readFile(snapshot, 'utf8'))).toMatchObject({ specFile: spec, fixturesDir: dir, seed: 7 });
  });

  it('--types-only: the types alone', async () => {
    const out = path.join(dir, 'only', 'types.ts');
    await exitOf(() =>
      runAlone(generateCommand, 'generate', [
        '--types-only',
        '--spec',
        'x.yaml',
        '--out',
        out,
        '--snapshot',
        path.join(dir, 'never.ts'),
      ]),
    );
    expect(io.out).toBe(`types written to ${rel(out)}\n`);
    await expect(readFile(path.join(dir, 'never.ts'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('a spec that cannot be read: the load error, exit 1', async () => {
    expect(
      await exitOf(() =>
        runAlone(generateCommand, 'generate', ['--spec', 'broken.yaml', '--out', path.join(dir, 'x.ts')]),
      ),
    ).toBe(1);
    expect(io.err).toContain('broken.yaml cannot be read');
  });
});
