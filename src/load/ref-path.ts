import { escapeToken } from '../openapi/pointer.js';

/** The bundler's Pointer.join(base, token), with each token's encoding computed once. */
const encoded = new Map<string, string>();
export function join(base: string, token: string): string {
  let e = encoded.get(token);
  if (e === undefined) {
    e = encodeURIComponent(escapeToken(token));
    if (encoded.size < 100_000) encoded.set(token, e);
  }
  return `${base.includes('#') ? base : `${base}#`}/${e}`;
}

/**
 * A path of a crawl of a document (`join(parent, key)`), made a string only when a `$ref` needs
 * it: a crawl visits every key of the document, and most have no `$ref` under them.
 */
export class LazyPath {
  #text: string | undefined;
  /** The string the path was built from: its part before `#` is the path's own (`join` never changes it). */
  readonly root: string;
  constructor(
    readonly parent: Path,
    readonly key: string,
  ) {
    this.root = typeof parent === 'string' ? parent : parent.root;
  }
  toString(): string {
    this.#text ??= join(String(this.parent), this.key);
    return this.#text;
  }
}
export type Path = string | LazyPath;
