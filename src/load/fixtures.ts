import path from 'node:path';
import type { LoadProblem } from '../core/errors.js';
import { DEFAULT_LOAD_LIMITS, type LoadLimits } from './limits.js';
import { rel } from './paths.js';
import { folderOf, readConfinedText } from './read-confined.js';
import { jsonTooDeepAt, nestsDeeperThan, placeOfIndex } from './text-checks.js';

/** Where JSON.parse stopped: V8 says "position N" (and, from Node 22, also line and column). */
function jsonPosition(text: string, message: string): string {
  const m = /position (\d+)/.exec(message);
  return m ? placeOfIndex(text, Number(m[1])) : '';
}

export interface FixtureReadOptions {
  /** The fixtures folder the file must stay inside (default: the file's own folder). */
  readonly dir?: string;
  readonly limits?: LoadLimits;
}

/**
 * Reads `<dir>/<resource>.json`: undefined when absent, problems when it is not a regular file
 * inside the fixtures folder (a symlink may lead only to a file inside it), larger than the size
 * limit, not UTF-8, nested deeper than the limit, not JSON, or not an array.
 */
export async function readFixtureFile(file: string, problems: LoadProblem[], opts: FixtureReadOptions = {}): Promise<unknown[] | undefined> {
  const limits = opts.limits ?? DEFAULT_LOAD_LIMITS;
  const folder = await folderOf(opts.dir ?? path.dirname(file), 'the fixtures folder');
  const read = await readConfinedText(file, folder, limits);
  if (!read.ok) {
    if (read.kind !== 'missing') problems.push({ file: rel(file), pointer: read.place, reason: read.reason });
    return undefined;
  }
  const text = read.text;
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    const message = (e as Error).message;
    problems.push({ file: rel(file), pointer: jsonPosition(text, message), reason: `invalid JSON: ${message}` });
    return undefined;
  }
  // Checked on the parsed value (a fraction of the parse's time); the text is read again only to
  // say where.
  if (data !== null && typeof data === 'object' && nestsDeeperThan(data, limits.maxDepth)) {
    const at = jsonTooDeepAt(text, limits.maxDepth);
    problems.push({ file: rel(file), pointer: at === -1 ? '' : placeOfIndex(text, at), reason: `nested deeper than ${limits.maxDepth} levels of arrays and objects` });
    return undefined;
  }
  if (!Array.isArray(data)) {
    problems.push({ file: rel(file), pointer: '', reason: 'a fixture is a JSON array of items' });
    return undefined;
  }
  return data;
}
