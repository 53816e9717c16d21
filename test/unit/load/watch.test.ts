import { cp, mkdtemp, readFile, rename, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadState, type StubState } from '../../../src/load/state.js';
import { type Watcher, watchState } from '../../../src/load/watch.js';
import { stateOptions } from '../../../src/server/config.js';
import { testConfig } from '../../helpers.js';

const DESIGNER = path.resolve('test/fixtures/designer');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A copy of the designer's spec and fixtures, watched; every reload's line and state kept. */
async function watched() {
  const dir = await mkdtemp(path.join(tmpdir(), 'stub-watch-unit-'));
  await cp(DESIGNER, dir, { recursive: true });
  const options = stateOptions(
    testConfig({ specFile: path.join(dir, 'openapi.yaml'), fixturesDir: path.join(dir, 'fixtures') }),
  );
  const states: StubState[] = [await loadState(options)];
  const log: string[] = [];
  const watcher = watchState(states[0] as StubState, {
    state: options,
    onState: (next) => states.push(next),
    log: (l) => log.push(l),
  });
  const desksOf = (s: StubState | undefined) => s?.model.collections.get('/api/v1/desk')?.count;
  return { dir, fixtures: path.join(dir, 'fixtures'), states, log, watcher, desksOf };
}

async function until(check: () => boolean, what: string, ms = 10_000) {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for: ${what}`);
    await sleep(25);
  }
}

let current: Watcher | undefined;
afterEach(() => current?.close());

describe('--watch reloads for what the state reads, follows a replaced folder, and is never starved', () => {
  it('an editor’s swap file or a note beside the fixtures reloads nothing; a fixture does', async () => {
    const w = await watched();
    current = w.watcher;
    await writeFile(path.join(w.fixtures, '.desk.json.swp'), 'x');
    await writeFile(path.join(w.fixtures, 'desk.json~'), 'x');
    await writeFile(path.join(w.fixtures, 'NOTES.txt'), 'x');
    await writeFile(path.join(w.dir, 'README.md'), 'x');
    // Long enough for a reload to have been scheduled and run, were one scheduled.
    await sleep(400);
    await w.watcher.idle();
    expect(w.log).toEqual([]);
    expect(w.states).toHaveLength(1);
    const desks = JSON.parse(await readFile(path.join(w.fixtures, 'desk.json'), 'utf8')) as unknown[];
    await writeFile(path.join(w.fixtures, 'desk.json'), JSON.stringify(desks.slice(1)));
    await until(() => w.states.length === 2, 'the reload of desk.json');
    expect(w.desksOf(w.states[1])).toBe((w.desksOf(w.states[0]) ?? 0) - 1);
  });

  it('a fixtures folder replaced whole is followed', async () => {
    const w = await watched();
    current = w.watcher;
    const desks = JSON.parse(await readFile(path.join(w.fixtures, 'desk.json'), 'utf8')) as unknown[];
    const next = `${w.fixtures}.next`;
    await cp(w.fixtures, next, { recursive: true });
    await writeFile(path.join(next, 'desk.json'), JSON.stringify(desks.slice(2)));
    await rename(w.fixtures, `${w.fixtures}.old`);
    await rename(next, w.fixtures);
    await until(() => w.desksOf(w.states.at(-1)) === desks.length - 2, 'the replaced folder read');
    // And the new folder is the one watched now: a later edit in it reloads.
    await writeFile(path.join(w.fixtures, 'desk.json'), JSON.stringify(desks.slice(3)));
    await until(() => w.desksOf(w.states.at(-1)) === desks.length - 3, 'an edit in the new folder');
  });

  it('a file written without a pause still reloads while the writes go on', async () => {
    const w = await watched();
    current = w.watcher;
    const file = path.join(w.fixtures, 'desk.json');
    const desks = JSON.parse(await readFile(file, 'utf8')) as unknown[];
    let writing = true;
    const writer = (async () => {
      for (let i = 0; writing; i++) {
        await writeFile(file, JSON.stringify(desks.slice(i % 2)));
        await sleep(40);
      }
    })();
    try {
      // Each write would restart a plain 100 ms debounce: without a bound, never a reload.
      await until(() => w.states.length > 1, 'a reload during the writes', 5_000);
    } finally {
      writing = false;
      await writer;
    }
  });
});
