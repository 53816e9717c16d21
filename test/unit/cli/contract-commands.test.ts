import path from 'node:path';
import { Command, CommanderError } from 'commander';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { CONFIG_ENV } from '../../../src/cli/contract-config.js';
import { addContractCommands } from '../../../src/cli/contract-commands.js';
import { SETTINGS } from '../../../src/cli/contract-options.js';
import { catchOutput, io } from './io.js';

catchOutput();
let help: string;
let exits: (number | undefined)[];
function program(): Command {
  help = '';
  const p = new Command('workplace-stub')
    .exitOverride()
    .configureOutput({ writeOut: (s) => void (help += s), writeErr: (s) => void (help += s) });
  addContractCommands(p);
  return p;
}
beforeEach(() => {
  exits = [];
  vi.spyOn(process, 'exit').mockImplementation((code) => void exits.push(code as number) as never);
});
const longFlags = (cmd: Command | undefined) => cmd?.options.map((o) => o.long) ?? [];

describe('addContractCommands: check, proxy and record from one table of options', () => {
  it.each(['check', 'proxy', 'record'] as const)('%s: each of its settings once, and --config', (name) => {
    const cmd = program().commands.find((c) => c.name() === name);
    const want = [
      ...new Set(SETTINGS.filter((s) => s.commands.includes(name)).map((s) => /--[a-z0-9-]+/.exec(s.flag)?.[0])),
    ];
    expect(longFlags(cmd)).toEqual([...want, '--config']);
  });

  it('--help: defaults and variables with each option, then the variables, the config file and the order', () => {
    expect(() => program().parse(['check', '--help'], { from: 'user' })).toThrow(CommanderError);
    // Commander wraps to the terminal's width: the words are compared, not the lines.
    const flat = help.replace(/\s+/g, ' ');
    expect(flat).toContain('--timeout <ms> time-out of one request, 1 to 600000 ms (default: 10000)');
    expect(flat).toContain(
      "--base-url <url> the deployment's root, e.g. https://staging.example.org (not …/api/v1) (env: WORKPLACE_STUB_BASE_URL)",
    );
    expect(flat).toContain('--only <list> collections, comma-separated (desk,employee) (default: all)');
    expect(flat).toContain('Environment variables (an empty one counts as unset):');
    expect(help).toMatch(/ {2}WORKPLACE_STUB_HEADER +--header, one "Name: value" per line\n/);
    expect(help).toMatch(new RegExp(` {2}${CONFIG_ENV} +--config\\n`));
    expect(flat).toContain('headers {"Name": "value"} (--header)');
    expect(flat).toContain(
      'Each option is taken from the first of: the command line, its variable, the file\'s "check" section',
    );
    expect(help.split('\n').filter((l) => !l.startsWith(' ') && l.length > 80)).toEqual([]);
  });

  it('a value outside its choices is an error of the command line', () => {
    expect(() => program().parse(['check', '--base-url', 'https://h', '--format', 'xml'], { from: 'user' })).toThrow(
      /Allowed choices are api, json, none/,
    );
  });

  it.each<[string, string[], RegExp]>([
    [
      'a wrong value: every error, exit 2',
      ['check', '--base-url', 'https://h/api/v1', '--compare', 'nope'],
      /^error: --base-url is the deployment's root, without \/api\/v1 .*\nerror: --compare must be an absolute http\(s\) URL/,
    ],
    [
      'a required option missing',
      ['record', '--base-url', 'https://h'],
      /^error: required option '--out <dir>' not specified/,
    ],
    [
      'settled, the command runs: its own exit code',
      ['check', '--base-url', 'https://h', '--spec', path.join('/nowhere', 'spec.yaml')],
      /nowhere\/spec\.yaml/,
    ],
  ])('%s', async (_name, argv, err) => {
    await program().parseAsync(argv, { from: 'user' });
    expect(exits).toEqual([2]);
    expect(io.err).toMatch(err);
  });
});
