// docs/cli.md is generated from every command's own `--help` (scripts/docs.ts): it must be what the
// code prints now, so that an option added, renamed or reworded without `npm run docs` fails here.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { CLI_COMMANDS, cliPage } from '../../scripts/docs.js';
import { ROOT } from '../cli-helpers.js';

describe('docs/cli.md', () => {
  it("is every command's --help as it is now (run `npm run docs`)", async () => {
    expect(await readFile(`${ROOT}docs/cli.md`, 'utf8')).toBe(await cliPage());
  });

  it('has a section for each command the CLI lists, and every option of serve and check', async () => {
    const page = await cliPage();
    for (const args of CLI_COMMANDS) expect(page).toContain(`## \`${['workplace-stub', ...args].join(' ')}\``);
    const top = /Commands:\n([\s\S]*?)\n\n/.exec(page)?.[1] ?? '';
    const listed = [...top.matchAll(/^ {2}([a-z]+) /gm)].map((m) => m[1]).filter((c) => c !== 'help' && c !== 'serve');
    expect(listed.sort()).toEqual(CLI_COMMANDS.flat().sort());
    for (const option of [
      '--port',
      '--allowed-hosts',
      '--frontend-origin',
      '--tokens',
      '--sessions',
      '--base-url',
      '--header',
    ])
      expect(page).toContain(option);
  });
});
