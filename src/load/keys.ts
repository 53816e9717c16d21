import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { LoadProblem } from './errors.js';
import { rel } from './paths.js';
import { placeOfIndex } from './text-checks.js';

/**
 * `--tokens FILE` and `--sessions FILE`: a JSON array of the keys that stand for a user (the stub
 * has no users: TokenAuthentication accepts the tokens listed, any without the file;
 * SessionAuthentication the sessions listed, none without it). Problems name the file and the place.
 */
export async function loadKeys(file: string): Promise<{ keys: ReadonlySet<string>; problems: LoadProblem[] }> {
  const where = rel(path.resolve(file));
  const problem = (pointer: string, reason: string) => ({
    keys: new Set<string>(),
    problems: [{ file: where, pointer, reason }],
  });
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    return problem('', (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : 'cannot be read');
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    const at = /position (\d+)/.exec((e as Error).message);
    return problem(at ? placeOfIndex(text, Number(at[1])) : '', `invalid JSON: ${(e as Error).message}`);
  }
  if (!Array.isArray(value))
    return problem('', 'must be a JSON array of token keys, such as ["9944b09199c62bcf9418ad846dd0e4bbdfc6ee4b"]');
  const problems: LoadProblem[] = [];
  value.forEach((v, i) => {
    if (typeof v !== 'string' || v === '' || /\s/.test(v))
      problems.push({ file: where, pointer: `/${i}`, reason: 'a key is a string without white space' });
  });
  return { keys: new Set(value.filter((v): v is string => typeof v === 'string')), problems };
}
