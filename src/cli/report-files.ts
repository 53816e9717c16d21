import { mkdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { printable } from '../contract/safe-text.js';

/**
 * Checks at start that a report can go to `file`: its folder is created (CI jobs name
 * `reports/junit.xml` before anything made `reports/`), and the path is not a folder. Answers
 * why not, for a one-line error (exit 2), so a long run does not end failing to write.
 */
export async function prepareReportFile(file: string): Promise<string | undefined> {
  try {
    await mkdir(path.dirname(path.resolve(file)), { recursive: true });
    const s = await stat(file).catch(() => undefined);
    if (s?.isDirectory()) return `${file} is a folder`;
    return undefined;
  } catch (e) {
    return `cannot create the folder of ${file} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`;
  }
}

/** Writes a report, creating its folder. Throws what the file system says. */
export async function writeReportFile(file: string, text: string): Promise<void> {
  await mkdir(path.dirname(path.resolve(file)), { recursive: true });
  await writeFile(file, text);
}

/**
 * Writes the JUnit report at the end of a run; when it cannot, false and one line on stderr
 * saying that `who` failed and why (the command then exits 3).
 */
export async function writeJunit(file: string, xml: string, who: string): Promise<boolean> {
  try {
    await writeReportFile(file, xml);
    return true;
  } catch (e) {
    process.stderr.write(
      `error: ${who} failed: cannot write the JUnit report to ${printable(file)}: ${printable(reason(e))}\n`,
    );
    return false;
  }
}

/** A one-line reason from anything thrown. */
export function reason(e: unknown): string {
  const err = e as NodeJS.ErrnoException;
  const text =
    e instanceof Error
      ? `${err.message}${err.code && !err.message.includes(err.code) ? ` (${err.code})` : ''}`
      : String(e);
  return text.split('\n')[0] ?? text;
}

/** A bad argument: one line on stderr (control characters escaped), and exit code 2. */
export function badArgument(message: string): number {
  process.stderr.write(`error: ${printable(message)}\n`);
  return 2;
}
