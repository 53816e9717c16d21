import { formatProblem, LoadError } from './errors.js';
import { colors } from './log.js';

/** Prints a LoadError's problems, one per line: file, place, reason. */
export function printLoadError(e: unknown, write: (s: string) => void = (s) => process.stderr.write(s)): void {
  if (e instanceof LoadError) {
    write(`${colors.red('error')}: the spec or fixtures cannot be served:\n`);
    for (const p of e.problems) write(`  ${formatProblem(p)}\n`);
  } else {
    write(`${colors.red('error')}: ${e instanceof Error ? e.message : String(e)}\n`);
  }
}
