// Finding and running the code blocks of the docs marked `<!-- runnable -->` (docs/designer.md,
// "Runnable docs", says what a block may do). Used by test/docs/runnable.test.ts.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from '../cli-helpers.js';
import { project, run as npm } from '../package/npm-project.js';

export const MARKER = '<!-- runnable -->';

export interface Block {
  /** The Markdown file, relative to the repository. */
  file: string;
  /** The line of the opening fence, from 1. */
  line: number;
  lang: string;
  code: string;
}

/** Every block a `<!-- runnable -->` line precedes (blank lines between are fine). A marker on no block throws. */
export function runnableBlocks(markdown: string, file: string): Block[] {
  const lines = markdown.split('\n');
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (lines[i]?.trim() !== MARKER) continue;
    let j = i + 1;
    while (j < lines.length && lines[j]?.trim() === '') j++;
    const fence = /^```(\w+)/.exec(lines[j] ?? '');
    if (!fence?.[1]) throw new Error(`${file}:${i + 1}: ${MARKER} is not followed by a fenced code block`);
    const end = lines.findIndex((l, k) => k > j && l.trimEnd() === '```');
    if (end < 0) throw new Error(`${file}:${j + 1}: the runnable block is not closed`);
    blocks.push({ file, line: j + 1, lang: fence[1], code: lines.slice(j + 1, end).join('\n') });
    i = end;
  }
  return blocks;
}

export interface Outcome {
  ok: boolean;
  /** What the block printed, and why it failed. */
  report: string;
}

const exec = promisify(execFile);

/** Runs a command; never throws: a non-zero exit is a failed outcome. */
async function run(file: string, args: string[], opts: { cwd: string; env: NodeJS.ProcessEnv }): Promise<Outcome> {
  try {
    const { stdout, stderr } = await exec(file, args, { ...opts, timeout: 60_000, maxBuffer: 16 * 1024 * 1024 });
    return { ok: true, report: `${stdout}${stderr}` };
  } catch (e) {
    const err = e as { code?: unknown; stdout?: string; stderr?: string; message: string };
    return { ok: false, report: `exit ${String(err.code)}: ${err.message}\n${err.stdout ?? ''}${err.stderr ?? ''}` };
  }
}

/** The outputs a shell block promises: its whole-line comments, each up to a trailing `...` or `…`. */
export function expectedOutputs(code: string): string[] {
  return code
    .split('\n')
    .filter((l) => /^# \S/.test(l))
    .map((l) => l.slice(2).replace(/\s*(\.\.\.|…)$/, ''));
}

/** A shell block, from the repository's root, against the stub at `port` (4010 in the block). */
export async function runShell(block: Block, port: number): Promise<Outcome> {
  const code = block.code
    .replaceAll('127.0.0.1:4010', `127.0.0.1:${port}`)
    .replaceAll('localhost:4010', `localhost:${port}`);
  const outcome = await run('bash', ['-euo', 'pipefail', '-c', code], {
    cwd: ROOT,
    env: { ...process.env, NO_COLOR: '1', STAGING_TOKEN: 'runnable-docs-token' },
  });
  if (!outcome.ok) return outcome;
  const output = outcome.report.replaceAll(`:${port}`, ':4010');
  const missing = expectedOutputs(block.code).filter((want) => !output.includes(want));
  return missing.length === 0
    ? outcome
    : { ok: false, report: `expected in the output: ${missing.join('\n  ')}\nprinted:\n${outcome.report}` };
}

/**
 * A new project, as a reader of the docs makes one: the package packed as `npm pack` packs it and
 * installed with msw 2 from the registry, and the test runner and tsx of this repository linked
 * in (what a block runs with, not what it tests). Its folder; made once per run.
 */
export async function readerProject(): Promise<string> {
  const work = await mkdtemp(path.join(tmpdir(), 'runnable-docs-'));
  const packed = await npm('npm', ['pack', '--json', '--pack-destination', work], ROOT, 180_000);
  if (packed.code !== 0) throw new Error(`npm pack failed:\n${packed.output}`);
  const [{ filename }] = JSON.parse(packed.output.slice(packed.output.indexOf('[\n'))) as [{ filename: string }];
  const dir = path.join(work, 'reader');
  await project(dir, ['msw@^2'], path.join(work, filename));
  for (const tool of ['vitest', 'tsx'])
    await symlink(path.join(ROOT, 'node_modules', tool), path.join(dir, 'node_modules', tool));
  return dir;
}

let folders = 0;

/**
 * A TypeScript or JavaScript block in a folder of its own inside `home` (a reader's project:
 * `workplace-admin-stub` resolves to the installed tarball): a vitest test file when it imports
 * vitest, else run with tsx.
 */
export async function runScript(block: Block, home: string): Promise<Outcome> {
  const dir = path.join(home, `block-${process.pid}-${++folders}`);
  await mkdir(dir, { recursive: true });
  try {
    const ext = block.lang === 'js' || block.lang === 'javascript' ? 'mjs' : 'mts';
    // The inner vitest must not take the outer one's worker for its own.
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('VITEST')));
    if (/from ['"]vitest['"]/.test(block.code)) {
      await writeFile(path.join(dir, `block.test.${ext}`), block.code);
      await writeFile(path.join(dir, 'vitest.config.mjs'), 'export default { test: { testTimeout: 20000 } };\n');
      return await run(
        process.execPath,
        [path.join(home, 'node_modules/vitest/vitest.mjs'), 'run', '--config', 'vitest.config.mjs'],
        { cwd: dir, env: { ...env, NO_COLOR: '1' } },
      );
    }
    await writeFile(path.join(dir, `block.${ext}`), block.code);
    return await run(process.execPath, ['--import', 'tsx', `block.${ext}`], { cwd: dir, env });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Runs a block of any language the docs mark. */
export function runBlock(block: Block, port: number, home: string): Promise<Outcome> {
  if (block.lang === 'sh' || block.lang === 'bash') return runShell(block, port);
  if (['ts', 'typescript', 'js', 'javascript'].includes(block.lang)) return runScript(block, home);
  return Promise.resolve({ ok: false, report: `${block.file}:${block.line}: no runner for ${block.lang} blocks` });
}

/** The stub as `npm start` runs it (built `dist/`), on a free port. */
export async function startStub(): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, ['dist/cli/main.js', 'serve', '--port', '0', '-q'], {
    cwd: ROOT,
    env: { ...process.env, NO_COLOR: '1' },
  });
  let out = '';
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the stub printed no URL: ${out}`)), 30_000);
    const read = (d: Buffer) => {
      out += d.toString();
      const m = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(out);
      if (m?.[1]) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.once('exit', () => reject(new Error(`the stub exited: ${out}`)));
  });
  return { child, port };
}
