import { readFile } from 'node:fs/promises';
import type { LoadProblem } from '../core/errors.js';
import { rel } from './paths.js';

function jsonPosition(text: string, message: string): string {
  const m = /position (\d+)/.exec(message);
  if (!m) return '';
  const pos = Number(m[1]);
  const before = text.slice(0, pos).split('\n');
  return `line ${before.length}:${(before[before.length - 1]?.length ?? 0) + 1}`;
}

/** Reads `<dir>/<resource>.json`: undefined when absent, problems when unreadable or not JSON. */
export async function readFixtureFile(file: string, problems: LoadProblem[]): Promise<unknown[] | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    problems.push({ file: rel(file), pointer: '', reason: `cannot read the file (${code ?? String(e)})` });
    return undefined;
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    const message = (e as Error).message;
    problems.push({ file: rel(file), pointer: jsonPosition(text, message), reason: `invalid JSON: ${message}` });
    return undefined;
  }
  if (!Array.isArray(data)) {
    problems.push({ file: rel(file), pointer: '', reason: 'a fixture is a JSON array of items' });
    return undefined;
  }
  return data;
}
