/** A problem of a spec or fixture file: where it is and why it cannot be served. */
export interface LoadProblem {
  readonly file: string;
  /** A JSON pointer into the file, or `line:col` where the file could not be parsed. */
  readonly pointer: string;
  readonly reason: string;
  /** Where the pointer's place is written in the file (1-based), when it was found there. */
  readonly line?: number;
  readonly column?: number;
}

/** `file at line L:C (/pointer): reason`, or `file at /pointer: reason` when the line is not known. */
export function formatProblem(p: LoadProblem): string {
  if (p.line !== undefined)
    return `${p.file} at line ${p.line}:${p.column ?? 1}${p.pointer ? ` (${p.pointer})` : ''}: ${p.reason}`;
  return `${p.file}${p.pointer ? ` at ${p.pointer}` : ''}: ${p.reason}`;
}
