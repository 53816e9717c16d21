import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runCli } from '../cli-helpers.js';
import { workspace } from '../workspace.js';

/** `npm run -s <script> -- …` as npm runs it: the script under tsx, from the package root. */
async function script(name: string, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', `${ROOT}scripts/${name}.ts`, ...args], {
    cwd: ROOT,
    env: { ...process.env, NO_COLOR: '1' },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, stdout, stderr };
}

describe('the designer tools answer --help, as npm scripts and as commands of the bin', () => {
  it.each([
    ['npm run fixtures -- --help', () => script('fixtures', ['--help']), 'npm run fixtures --', '--resource <name>'],
    ['npm run generate -- --help', () => script('generate', ['--help']), 'npm run generate --', '--snapshot <file>'],
    ['workplace-stub fixtures --help', () => runCli(['fixtures', '--help']), 'workplace-stub fixtures', '--force'],
    ['workplace-stub generate --help', () => runCli(['generate', '--help']), 'workplace-stub generate', '--types-only'],
  ])('%s', async (_name, run, usage, option) => {
    const r = await run();
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`Usage: ${usage} [options]`);
    expect(r.stdout).toContain(option);
    expect(r.stderr).toBe('');
  });

  it('an unknown option is one line and exit code 2, not a stack trace', async () => {
    const r = await script('fixtures', ['--resource', 'desk', '--bogus']);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe("error: unknown option '--bogus'");
  });

  it('the bin lists both among its commands', async () => {
    const r = await runCli(['--help']);
    expect(r.stdout).toMatch(/^ {2}fixtures \[options\] /m);
    expect(r.stdout).toMatch(/^ {2}generate \[options\] /m);
  });
});

describe('generate --spec X writes the types and the snapshot from X', () => {
  it.each([
    ['npm run generate --', (args: string[]) => script('generate', args)],
    ['workplace-stub generate', (args: string[]) => runCli(['generate', ...args], { timeoutMs: 60_000 })],
  ])(
    '%s',
    async (_name, run) => {
      const w = await workspace('stub-generate-');
      await writeFile(
        w.spec,
        (await readFile(w.spec, 'utf8')).replace('operationId: destroyDesk', 'operationId: removeDeskForGood'),
      );
      const out = path.join(w.dir, 'gen', 'openapi.ts');
      const snapshot = path.join(w.dir, 'gen', 'snapshot.ts');
      const r = await run(['--spec', w.spec, '--fixtures', w.fixtures, '--out', out, '--snapshot', snapshot]);
      expect(r.code, r.stderr).toBe(0);
      expect(await readFile(out, 'utf8')).toContain('removeDeskForGood');
      expect(await readFile(snapshot, 'utf8')).toContain('removeDeskForGood');
    },
    60_000,
  );
});

it('workplace-stub fixtures writes generated items of a resource', async () => {
  const w = await workspace('stub-fixtures-');
  const dir = path.join(w.dir, 'mine');
  const r = await runCli(['fixtures', '--resource', 'desk', '--fixtures', dir, '--count', '3']);
  expect(r.code, r.stderr).toBe(0);
  expect(JSON.parse(await readFile(path.join(dir, 'desk.json'), 'utf8'))).toHaveLength(3);
}, 30_000);

it('workplace-stub fixtures names its file as every other message does: relative to the working folder', async () => {
  // The bundled fixtures/ (absolute by default), from the package root: desk.json exists.
  const r = await runCli(['fixtures', '--resource', 'desk']);
  expect(r.code).toBe(1);
  expect(r.stderr).toBe('error: fixtures/desk.json exists; pass --force to overwrite it\n');
}, 30_000);
