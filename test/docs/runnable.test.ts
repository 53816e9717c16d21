// Docs that are run: every code block of README.md and docs/*.md marked `<!-- runnable -->` is
// executed (shell against a stub started here, TypeScript and JavaScript in a new project that
// installs the packed tarball with msw), so that a snippet that breaks fails `npm run test:slow`.
import type { ChildProcess } from 'node:child_process';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, realpath, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../cli-helpers.js';
import { type Block, expectedOutputs, readerProject, runBlock, runnableBlocks, startStub } from './runnable.js';

async function docBlocks(): Promise<Block[]> {
  const docs = (await readdir(`${ROOT}docs`)).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`);
  const files = ['README.md', ...docs.sort()];
  const all = await Promise.all(files.map(async (f) => runnableBlocks(await readFile(`${ROOT}${f}`, 'utf8'), f)));
  return all.flat();
}

const blocks = await docBlocks();
let stub: { child: ChildProcess; port: number } | undefined;
let home = '';

beforeAll(async () => {
  // Shell blocks run `npm run check` and the stub as a user of this repository does; TypeScript
  // blocks run in a reader's own project, the package installed from its packed tarball.
  await promisify(execFile)(process.execPath, ['scripts/build.mjs', '--if-stale'], { cwd: ROOT });
  stub = await startStub();
  home = await readerProject();
}, 240_000);
afterAll(() => {
  stub?.child.kill('SIGTERM');
});

describe('the runnable blocks of the docs', () => {
  it("include the README's key snippets: the desk list, the MSW test, the check", () => {
    const readme = blocks.filter((b) => b.file === 'README.md');
    expect(readme.some((b) => b.lang === 'sh' && b.code.includes('/api/v1/desk'))).toBe(true);
    expect(readme.some((b) => b.lang === 'ts' && b.code.includes('workplace-admin-stub/msw'))).toBe(true);
    expect(readme.some((b) => b.lang === 'sh' && b.code.includes('npm run -s check'))).toBe(true);
  });

  it('TypeScript blocks run in a project of their own, the package installed from its tarball', async () => {
    const installed = await realpath(path.join(home, 'node_modules', 'workplace-admin-stub'));
    expect(installed.startsWith(await realpath(home))).toBe(true);
    expect(existsSync(path.join(installed, 'dist', 'adapters', 'msw.js'))).toBe(true);
    // What npm pack leaves out is not there: the tests, the sources' test helpers.
    expect(existsSync(path.join(installed, 'test'))).toBe(false);
  });

  it.each(blocks.map((b) => [`${b.file}:${b.line} (${b.lang})`, b] as const))(
    '%s runs as written',
    async (_name, block) => {
      const outcome = await runBlock(block, stub?.port ?? 0, home);
      expect(outcome.ok, outcome.report).toBe(true);
    },
  );
});

describe('a block that breaks fails', () => {
  const markdown = [
    'A page with broken snippets.',
    '',
    '<!-- runnable -->',
    '',
    '```sh',
    'curl -s http://127.0.0.1:4010/api/v1/desk | cut -c 1-20',
    '# {"count":45',
    '```',
    '',
    '<!-- runnable -->',
    '```sh',
    'curl -sf http://127.0.0.1:4010/api/v1/nosuch',
    '```',
    '',
    '<!-- runnable -->',
    '```ts',
    "import { createFetchHandler } from 'workplace-admin-stub/fetch';",
    "const res = await createFetchHandler()(new Request('http://localhost/api/v1/desk/3'));",
    'if (res.status !== 404) throw new Error(`desk 3 answered ${res.status}`);',
    '```',
    '',
    '<!-- runnable -->',
    '```ts',
    "import { createHandlers } from 'workplace-admin-stub/no-such-entry';",
    'createHandlers();',
    '```',
    '',
    '<!-- runnable -->',
    '```ts',
    "import { setupServer } from 'msw/node';",
    "import { afterAll, beforeAll, expect, it } from 'vitest';",
    "import { createHandlers } from 'workplace-admin-stub/msw';",
    'const server = setupServer(...createHandlers());',
    'beforeAll(() => server.listen());',
    'afterAll(() => server.close());',
    "it('counts the desks of an old fixture', async () => {",
    "  const list = await (await fetch('http://localhost:5173/api/v1/desk')).json();",
    '  expect(list.count).toBe(45);',
    '});',
    '```',
    '',
    'Not marked, so never run:',
    '```sh',
    'exit 1',
    '```',
  ].join('\n');
  // Read back from a file, as the docs are.
  let broken: Block[] = [];
  beforeAll(async () => {
    const file = path.join(await mkdtemp(path.join(tmpdir(), 'runnable-')), 'broken.md');
    await writeFile(file, markdown);
    broken = runnableBlocks(await readFile(file, 'utf8'), 'broken.md');
  });

  it('finds the marked blocks only, with their lines', () => {
    expect(broken.map((b) => [b.line, b.lang])).toEqual([
      [5, 'sh'],
      [11, 'sh'],
      [16, 'ts'],
      [23, 'ts'],
      [29, 'ts'],
    ]);
    expect(expectedOutputs(broken[0]?.code ?? '')).toEqual(['{"count":45']);
  });

  it.each([0, 1, 2, 3, 4])('broken block %i fails', async (i) => {
    const block = broken[i] as Block;
    const outcome = await runBlock(block, stub?.port ?? 0, home);
    expect(outcome.ok).toBe(false);
    // Each fails for its own defect, not for want of a runner.
    const why = [
      /expected in the output: \{"count":45/,
      /exit 22/,
      /desk 3 answered 200/,
      /no-such-entry/,
      /expected 190 to be 45/,
    ];
    expect(outcome.report).toMatch(why[i] as RegExp);
  });

  it('a marker on no block is an error, with its place', () => {
    expect(() => runnableBlocks('text\n<!-- runnable -->\nmore text\n', 'x.md')).toThrow('x.md:2');
  });
});
