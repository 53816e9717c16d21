import { execFileSync } from 'node:child_process';
import { mkdir, readFile, rm, symlink, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadState } from '../../src/load/state.js';
import { type Watcher, watchState } from '../../src/load/watch.js';
import { buildApp, type StateHolder } from '../../src/server/app.js';
import { checkServePaths, stateOptions } from '../../src/server/config.js';
import { runCli } from '../cli-helpers.js';
import { testConfig } from '../helpers.js';
import { aliasBomb, deepFixture, setDeskRef, type Workspace, workspace } from '../workspace.js';

const utf16 = (s: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(s, 'utf16le')]);
const badUtf8 = (before: string, after: string) =>
  Buffer.concat([Buffer.from(before), Buffer.from([0xc3, 0x28]), Buffer.from(after)]);

describe('every load error has a place, at start-up (exit 1, every problem at once)', () => {
  it('spec files: an alias bomb, a BOM, nesting 5,000 deep, bytes that are not UTF-8', async () => {
    const w = await workspace();
    const schemas = path.join(w.specDir, 'schemas');
    await writeFile(
      path.join(schemas, 'items.yaml'),
      `${await readFile(path.join(schemas, 'items.yaml'), 'utf8')}${aliasBomb()}`,
    );
    await writeFile(
      path.join(schemas, 'desk.yaml'),
      `\ufeff${await readFile(path.join(schemas, 'desk.yaml'), 'utf8')}`,
    );
    await writeFile(path.join(schemas, 'error.yaml'), `type: object\nx-deep: ${'['.repeat(5000)}${']'.repeat(5000)}\n`);
    await writeFile(path.join(schemas, 'list-envelope.yaml'), badUtf8('type: object\ndescription: caf', '\n'));
    const r = await runCli(['--spec', w.spec, '--fixtures', w.fixtures, '--port', '0', '--quiet']);
    expect(r.code).toBe(1);
    expect(r.stdout).not.toMatch(/listening/);
    expect(r.stderr).toMatch(/schemas\/items\.yaml at line \d+:\d+: alias \*a\d expands past 100 copies of its anchor/);
    expect(r.stderr).toMatch(/schemas\/desk\.yaml at line 1:1: starts with a byte order mark/);
    expect(r.stderr).toMatch(/schemas\/error\.yaml at line 2:265: nested deeper than 256 levels/);
    expect(r.stderr).toMatch(/schemas\/list-envelope\.yaml at line 2:17: is not valid UTF-8 \(byte C3\)/);
    expect(r.stderr).not.toMatch(/Maximum call stack/);
  });

  it('fixtures: nesting 5,000 deep, UTF-16, a BOM, bytes that are not UTF-8, a FIFO, a directory', async () => {
    const w = await workspace();
    const fx = (name: string) => path.join(w.fixtures, name);
    await writeFile(fx('desk.json'), deepFixture(5000));
    await writeFile(fx('employee.json'), utf16('[]'));
    await writeFile(fx('signature.json'), '\ufeff[]');
    await writeFile(fx('expense.json'), badUtf8('[\n  "caf', '"\n]'));
    execFileSync('mkfifo', [fx('review.json')]);
    await mkdir(fx('workflow.json'));
    const r = await runCli(['--spec', w.spec, '--fixtures', w.fixtures, '--port', '0', '--quiet']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/fixtures\/desk\.json at line 3:\d+: nested deeper than 256 levels of arrays and objects/);
    expect(r.stderr).toMatch(/fixtures\/employee\.json at line 1:1: is UTF-16 or UTF-32 \(byte order mark FF FE\)/);
    expect(r.stderr).toMatch(/fixtures\/signature\.json at line 1:1: starts with a byte order mark/);
    expect(r.stderr).toMatch(/fixtures\/expense\.json at line 2:7: is not valid UTF-8/);
    expect(r.stderr).toMatch(/fixtures\/review\.json: cannot read the file: a FIFO \(named pipe\), not a regular file/);
    expect(r.stderr).toMatch(
      /fixtures\/workflow\.json: cannot read the file \(EISDIR\): a directory, not a regular file/,
    );
    expect(r.stderr).not.toMatch(/Maximum call stack/);
  });
});

describe('--spec or --fixtures that names nothing is an error of the command line (exit 2)', () => {
  it.each([
    ['--spec', ['--spec', '/nonexistent/openapi.yaml'], /error: --spec \/nonexistent\/openapi\.yaml: no such file/],
    [
      '--fixtures',
      ['--fixtures', '/nonexistent/fixtures'],
      /error: --fixtures \/nonexistent\/fixtures: no such folder/,
    ],
  ])('%s', async (_n, args, message) => {
    const r = await runCli([...args, '--port', '0', '--quiet']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stdout).not.toMatch(/listening/);
  });

  it('checkServePaths: a folder as --spec, a file as --fixtures, both missing', async () => {
    const w = await workspace();
    expect(checkServePaths({ specFile: w.spec, fixturesDir: w.fixtures })).toEqual([]);
    expect(checkServePaths({ specFile: w.specDir, fixturesDir: w.spec })).toEqual([
      `--spec ${w.specDir}: not a regular file`,
      `--fixtures ${w.spec}: not a folder`,
    ]);
    expect(checkServePaths({ specFile: `${w.dir}/no.yaml`, fixturesDir: `${w.dir}/no` })).toEqual([
      `--spec ${w.dir}/no.yaml: no such file`,
      `--fixtures ${w.dir}/no: no such folder`,
    ]);
  });
});

async function until(check: () => Promise<boolean> | boolean, what: string, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for: ${what}`);
}

describe('under --watch, each load error is told with its place and the last good state is served', () => {
  let w: Workspace;
  let app: FastifyInstance;
  let watcher: Watcher;
  let holder: StateHolder;
  const log: string[] = [];
  let goodDesks: string;
  let goodItems: string;
  let goodSpec: string;

  beforeAll(async () => {
    w = await workspace('stub-watch-workspace-');
    const config = testConfig({ specFile: w.spec, fixturesDir: w.fixtures, watch: true });
    holder = { current: await loadState(stateOptions(config)) };
    app = await buildApp(config, holder);
    watcher = watchState(holder.current, {
      state: stateOptions(config),
      onState: (next) => (holder.current = next),
      log: (l) => log.push(l),
    });
    goodDesks = await readFile(path.join(w.fixtures, 'desk.json'), 'utf8');
    goodItems = await readFile(path.join(w.specDir, 'schemas', 'items.yaml'), 'utf8');
    goodSpec = await readFile(w.spec, 'utf8');
  });
  afterAll(async () => {
    watcher.close();
    await app.close();
  });

  const deskCount = async () => ((await app.inject({ url: '/api/v1/desk' })).json() as { count: number }).count;

  const cases: [string, (w: Workspace) => Promise<unknown>, RegExp, (w: Workspace) => Promise<unknown>][] = [
    [
      'a fixture nested 5,000 deep',
      (w) => writeFile(path.join(w.fixtures, 'desk.json'), deepFixture(5000)),
      /fixtures\/desk\.json at line 3:\d+: nested deeper than 256 levels/,
      (w) => writeFile(path.join(w.fixtures, 'desk.json'), goodDesks),
    ],
    [
      'a FIFO in place of a fixture (never a wedged watcher)',
      async (w) => {
        await unlink(path.join(w.fixtures, 'desk.json'));
        execFileSync('mkfifo', [path.join(w.fixtures, 'desk.json')]);
      },
      /fixtures\/desk\.json: cannot read the file: a FIFO/,
      async (w) => {
        await rm(path.join(w.fixtures, 'desk.json'));
        await writeFile(path.join(w.fixtures, 'desk.json'), goodDesks);
      },
    ],
    [
      'a UTF-16 fixture',
      (w) => writeFile(path.join(w.fixtures, 'desk.json'), utf16(goodDesks)),
      /fixtures\/desk\.json at line 1:1: is UTF-16/,
      (w) => writeFile(path.join(w.fixtures, 'desk.json'), goodDesks),
    ],
    [
      'an alias bomb in a $ref-ed file',
      (w) => writeFile(path.join(w.specDir, 'schemas', 'items.yaml'), `${goodItems}${aliasBomb()}`),
      /schemas\/items\.yaml at line \d+:\d+: alias \*a\d expands past 100 copies/,
      (w) => writeFile(path.join(w.specDir, 'schemas', 'items.yaml'), goodItems),
    ],
    [
      'a $ref out of the folder',
      (w) => setDeskRef(w, '../fixtures/desk.json'),
      /openapi\.yaml at \/components\/schemas\/Desk\/\$ref: \$ref "\.\.\/fixtures\/desk\.json" resolves to .*, outside the spec's folder/,
      (w) => writeFile(w.spec, goodSpec),
    ],
  ];

  it.each(cases)('%s', async (_name, breakIt, message, restore) => {
    const count = await deskCount();
    const before = log.length;
    await breakIt(w);
    await until(
      () => log.slice(before).some((l) => /still serving the last good state/.test(l)),
      'the last good state kept',
    );
    expect(log.slice(before).join('\n')).toMatch(message);
    expect(await deskCount()).toBe(count);
    const reloaded = log.length;
    await restore(w);
    await until(() => log.slice(reloaded).some((l) => /reloaded/.test(l)), 'the next good state');
    await watcher.idle();
    expect(log.slice(reloaded).join('\n')).not.toMatch(/still serving/);
  });

  it('follows a symlinked fixture to its target: an edit of the target is served', async () => {
    const desks = JSON.parse(goodDesks) as Record<string, unknown>[];
    await mkdir(path.join(w.fixtures, 'data'));
    await writeFile(path.join(w.fixtures, 'data', 'desks.json'), JSON.stringify(desks.slice(0, 3)));
    await unlink(path.join(w.fixtures, 'desk.json'));
    await symlink('data/desks.json', path.join(w.fixtures, 'desk.json'));
    await until(async () => (await deskCount()) === 3, 'the symlinked fixture');
    await watcher.idle();
    // Only the target changes: nothing in the folder of the link does.
    await writeFile(path.join(w.fixtures, 'data', 'desks.json'), JSON.stringify(desks.slice(0, 5)));
    await until(async () => (await deskCount()) === 5, 'the edit of the target');
  });
});
