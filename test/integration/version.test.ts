import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runCli } from '../cli-helpers.js';

const { version } = JSON.parse(await readFile(path.join(ROOT, 'package.json'), 'utf8')) as { version: string };

describe('the version, where npx does not take the flag', () => {
  it.each([[['version']], [['-V']], [['--version']], [['--', '--version']]])('workplace-stub %j', async (args) => {
    const r = await runCli(args);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(`${version}\n`);
  });

  it('--help says how to ask for it under npx', async () => {
    const r = await runCli(['--help']);
    expect(r.stdout).toMatch(/^ {2}version\b/m);
    expect(r.stdout).toContain('npx workplace-stub -- --version');
  });
});
