import { type Command, Option } from 'commander';
import { printable } from '../contract/safe-text.js';
import type { CheckFlags } from './check.js';
import { attributeOf, CONFIG_ENV, CONFIG_FILE, longFlag, resolveSettings, settingsOf } from './contract-config.js';
import { collect, COMMANDS, type ContractCommand, type Setting } from './contract-options.js';
import type { ProxyFlags } from './proxy.js';
import type { RecordFlags } from './record.js';

const DESCRIPTIONS: Readonly<Record<ContractCommand, string>> = {
  check:
    'check a deployment against the spec and the interface document (exit 0 holds, 1 violations, 2 bad arguments or nothing reachable, 3 the checker failed)',
  proxy:
    "a validating proxy: forwards every request to --upstream, checks each answer against the contract, rewrites the upstream's urls to its own, adds x-contract-violations",
  record:
    'record a deployment into fixtures: <out>/<resource>.json per collection, and suggested-schemas.yaml for items the spec does not describe',
};

/**
 * The option as commander takes it: no default of commander's own, so that an option absent from
 * the command line is undefined and the variable, the config file or the default can give it
 * (resolveSettings); the default and the variable are shown in --help all the same.
 */
function optionOf(setting: Setting): Option {
  const shown =
    setting.shown ??
    (setting.default !== undefined && setting.kind !== 'boolean' ? String(setting.default) : undefined);
  const notes = shown === undefined ? [] : [`default: ${shown}`];
  if (setting.env) notes.push(`env: ${setting.env}`);
  const option = new Option(setting.flag, `${setting.help}${notes.length > 0 ? ` (${notes.join('; ')})` : ''}`);
  if (setting.choices) option.choices(setting.choices);
  if (setting.kind === 'headers' || setting.kind === 'origins') option.argParser(collect);
  else if (setting.parse) option.argParser(setting.parse);
  return option;
}

/** Words wrapped at 80 columns. */
function wrap(text: string): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && line.length + 1 + word.length > 80) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  return [...lines, line].join('\n');
}

/** What --help says after the options: the variables, the config file, the order they count in. */
function environmentHelp(command: ContractCommand): string {
  const settings = settingsOf(command);
  const vars = settings
    .filter((s): s is Setting & { env: string } => s.env !== undefined)
    .map((s) => [s.env, `${longFlag(s.flag)}${s.kind === 'headers' ? ', one "Name: value" per line' : ''}`]);
  vars.push([CONFIG_ENV, '--config']);
  const width = Math.max(...vars.map(([name]) => (name ?? '').length));
  const keys = settings.map((s) => {
    const shape = s.kind === 'headers' ? ' {"Name": "value"}' : s.kind === 'origins' ? ' [origins]' : '';
    return attributeOf(s.flag) === s.key && shape === '' ? s.key : `${s.key}${shape} (${longFlag(s.flag)})`;
  });
  return [
    '',
    'Environment variables (an empty one counts as unset):',
    ...vars.map(([name, what]) => `  ${(name ?? '').padEnd(width)}  ${what ?? ''}`),
    '',
    wrap(
      `Config file: ${CONFIG_FILE} in the working directory when there, or --config FILE: a JSON object of the options, at its top (for every command that takes them) or in a "${command}" section: ${keys.join(', ')}. Paths in it are relative to its folder; an unknown name or a wrong type is an error with its line. Keep a file that holds credentials out of version control.`,
    ),
    '',
    wrap(
      `Each option is taken from the first of: the command line, its variable, the file's "${command}" section, the file's top, the default; headers are merged by name in that order.`,
    ),
  ].join('\n');
}

/** Resolves the settings, then runs the command's module (loaded only now: --help needs none). */
async function run(command: ContractCommand, flags: Record<string, unknown>): Promise<number> {
  const resolved = await resolveSettings(command, flags, process.env, process.cwd());
  if (!resolved.ok) {
    for (const e of resolved.errors) process.stderr.write(`error: ${printable(e)}\n`);
    return 2;
  }
  const s = resolved.settings;
  switch (command) {
    case 'check':
      return (await import('./check.js')).check(s as unknown as CheckFlags);
    case 'proxy':
      return (await import('./proxy.js')).proxy(s as unknown as ProxyFlags);
    case 'record':
      return (await import('./record.js')).record(s as unknown as RecordFlags);
  }
}

/** `check`, `proxy` and `record`, their options one table (SETTINGS), added to the program. */
export function addContractCommands(program: Command): void {
  for (const name of COMMANDS) {
    const cmd = program.command(name).description(DESCRIPTIONS[name]);
    for (const setting of settingsOf(name)) cmd.addOption(optionOf(setting));
    cmd.addOption(
      new Option(
        '--config <file>',
        `a JSON file of these options (default: ${CONFIG_FILE} in the working directory, when there; env: ${CONFIG_ENV})`,
      ),
    );
    cmd.addHelpText('after', environmentHelp(name));
    cmd.action(async (flags: Record<string, unknown>) => {
      process.exit(await run(name, flags));
    });
  }
}
