/** A problem of a spec or fixture file: where it is and why it cannot be served. */
export interface LoadProblem {
  readonly file: string;
  /** A JSON pointer into the file, or `line:col` where the file could not be parsed. */
  readonly pointer: string;
  readonly reason: string;
}

export function formatProblem(p: LoadProblem): string {
  return `${p.file}${p.pointer ? ` at ${p.pointer}` : ''}: ${p.reason}`;
}
