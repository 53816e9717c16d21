import path from 'node:path';

/** A path as messages show it: relative to the working folder when inside it. */
export function rel(file: string): string {
  const r = path.relative(process.cwd(), file);
  return r.startsWith('..') || path.isAbsolute(r) ? file : r;
}
