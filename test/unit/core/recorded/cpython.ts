// What CPython answers for the Python functions src/core/python/ imitates, recorded into
// python/<module>.json by scripts/record-python.py (`npm run record:answers -- python`), so that the
// unit tests compare without Python. Each file maps a Python function to its cases
// `{name, given, want}`; to add one, add `{name, given}` and record.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RECORDED_DIR } from './recording.js';

interface PythonRecording {
  readonly about: string;
  /** The CPython that answered. */
  readonly python: string;
  readonly functions: Readonly<Record<string, readonly { name: string; given: unknown; want?: unknown }[]>>;
}

/**
 * One function's cases of python/`file` as `[name, given, want]` rows for `it.each`; `differs` names
 * the cases where the stub is known to answer otherwise than CPython, each with why (in
 * `differing`, for a test that they still differ).
 */
export function cpythonTable<G, W>(
  file: string,
  fn: string,
  differs: Readonly<Record<string, string>> = {},
): { cases: [string, G, W][]; differing: [string, G, W][] } {
  const recording = JSON.parse(readFileSync(join(RECORDED_DIR, 'python', file), 'utf8')) as PythonRecording;
  const rows = recording.functions[fn];
  if (!rows?.length) throw new Error(`python/${file} has no cases of ${fn}`);
  const table = rows.map((c): [string, G, W] => {
    if (!('want' in c))
      throw new Error(`python/${file}: ${fn} "${c.name}" is not recorded yet: npm run record:answers`);
    return [c.name, c.given as G, c.want as W];
  });
  for (const known of Object.keys(differs))
    if (!table.some(([n]) => n === known)) throw new Error(`python/${file} has no case "${known}" of ${fn}`);
  return {
    cases: table.filter(([n]) => !Object.hasOwn(differs, n)),
    differing: table.filter(([n]) => Object.hasOwn(differs, n)),
  };
}
