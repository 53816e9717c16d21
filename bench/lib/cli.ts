// How the project runs its CLI, read from the root package.json rather than written here, so the
// bench follows wherever the build puts the CLI: `npm start` is `scripts.start`, the checker is
// `scripts.check` (each `node [node options] FILE COMMAND`).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

export interface CliCommand {
  /** Arguments after `node`: node options, the script, the command (`serve`, `check`). */
  args: string[];
  /** The script file, relative to the root. */
  script: string;
  /** The package.json script it comes from, as written. */
  source: string;
}

export function cliCommand(root: string, name: 'start' | 'check'): CliCommand {
  const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
    scripts?: Record<string, string>;
    bin?: string | Record<string, string>;
  };
  const source = pkg.scripts?.[name];
  if (!source) throw new Error(`package.json has no "${name}" script`);
  const words = source.trim().split(/\s+/);
  if (words[0] !== 'node') throw new Error(`package.json's "${name}" script does not start with node: ${source}`);
  const args = words.slice(1);
  const script = args.find((a) => !a.startsWith('-'));
  if (!script) throw new Error(`package.json's "${name}" script names no file: ${source}`);
  if (!existsSync(path.join(root, script)))
    throw new Error(`${script} (package.json's "${name}" script) does not exist: is the build broken?`);
  return { args, script, source };
}
