import pc from 'picocolors';
import { formatProblem, LoadError, type LoadProblem } from './errors.js';
import { groupProblems } from './group-problems.js';

/**
 * Prints a LoadError's problems, one per line: file, place, reason; the same reason over many
 * items of one file in one line (group-problems.ts).
 */
export function printLoadError(e: unknown, write: (s: string) => void = (s) => process.stderr.write(s)): void {
  if (e instanceof LoadError) {
    write(`${pc.red('error')}: the spec or fixtures cannot be served:\n`);
    for (const line of groupProblems(e.problems)) write(`  ${line}\n`);
  } else {
    write(`${pc.red('error')}: ${e instanceof Error ? e.message : String(e)}\n`);
  }
}

/** Warnings of a load, one per line (what is served, but a designer should know). */
export function formatWarnings(warnings: readonly LoadProblem[]): string[] {
  return warnings.map((w) => `${pc.yellow('warning')}: ${formatProblem(w)}`);
}
