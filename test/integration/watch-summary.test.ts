import { access, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCli } from '../cli-helpers.js';
import { workspace, type Workspace } from '../workspace.js';
import { rel } from '../../src/load/paths.js';
import { loadState, type StubState } from '../../src/load/state.js';
import { type Watcher, watchState } from '../../src/load/watch.js';

async function until(check: () => boolean | Promise<boolean>, what: string, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for: ${what}`);
}

describe('a reload under --watch says what changed, not the whole table again', () => {
  let w: Workspace;
  let watcher: Watcher;
  const log: string[] = [];
  let states = 0;

  beforeAll(async () => {
    w = await workspace('stub-reload-');
    const state = { specFile: w.spec, fixturesDir: w.fixtures, seed: 1, defaultGenerateCount: 5 };
    const initial: StubState = await loadState(state);
    watcher = watchState(initial, { state, onState: () => states++, log: (l) => log.push(l) });
  });
  afterAll(() => watcher.close());

  it('a fixture given one more item: its file, and its count before and after', async () => {
    const file = path.join(w.fixtures, 'desk.json');
    const desks = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>[];
    const pk = Math.max(...desks.map((d) => Number(d.pk))) + 1;
    const before = log.length;
    await writeFile(file, JSON.stringify([...desks, { ...desks[0], pk, number: '9999' }], null, 2));
    await until(() => log.length > before, 'a reload');
    await watcher.idle();
    expect(log.slice(before)).toEqual([`reloaded ${rel(file)}: desk.json ${desks.length} → ${desks.length + 1} items`]);
  });

  it('an operation renamed in the spec: the one gone and the one new, by operationId', async () => {
    const text = await readFile(w.spec, 'utf8');
    const before = log.length;
    await writeFile(w.spec, text.replace('operationId: destroyDesk', 'operationId: removeDesk'));
    await until(() => log.length > before, 'a reload');
    await watcher.idle();
    expect(log.slice(before)).toEqual([`reloaded ${rel(w.spec)}: +1 operation removeDesk; −1 operation destroyDesk`]);
  });

  it('an edit that changes nothing served says so', async () => {
    const text = await readFile(w.spec, 'utf8');
    const before = log.length;
    await writeFile(w.spec, `${text}\n# a comment\n`);
    await until(() => log.length > before, 'a reload');
    expect(log.slice(before)).toEqual([`reloaded ${rel(w.spec)}: nothing served changed`]);
    expect(states).toBe(3);
  });
});

describe('--types writes the types at start-up, not only after the first change', () => {
  it.each([
    ['with --watch', ['--watch']],
    ['without', []],
  ])(
    '%s',
    async (_name, flags) => {
      const w = await workspace('stub-types-');
      const types = path.join(w.dir, 'openapi.d.ts');
      const { child, output } = await startCli([
        '--spec',
        w.spec,
        '--fixtures',
        w.fixtures,
        '--port',
        '0',
        '--quiet',
        '--types',
        types,
        ...flags,
      ]);
      try {
        await until(
          () =>
            access(types).then(
              () => true,
              () => false,
            ),
          'the types file',
          30_000,
        );
        expect(await readFile(types, 'utf8')).toContain('listDesks');
        await until(() => output().includes('types written:'), 'the line that says so');
      } finally {
        child.kill('SIGKILL');
      }
    },
    60_000,
  );
});
