import type SwaggerParser from '@apidevtools/swagger-parser';
import { LazyPath, type Path } from './ref-path.js';

/**
 * Bundles the file at `path` with the parser's own `bundle(path, options)` (a SwaggerParser checks
 * the document's version as it parses): every external `$ref` inlined once, the others remapped to
 * it. The library's bundle step is quadratic in the number of `$ref`s and joined a pointer for every
 * key of the document; the patch applied at install (patches/, docs/performance.md) makes it
 * linear with the same output, which test/unit/load/bundle.test.ts holds to the library's own.
 */
export async function bundle(parser: SwaggerParser, path: string, options: unknown): Promise<Record<string, unknown>> {
  return (await parser.bundle(path, options as never)) as unknown as Record<string, unknown>;
}

/** An external `$ref` (json-schema-ref-parser's $Ref.isExternal$Ref): a non-empty `$ref` text not starting with `#`. */
function isExternal$Ref(value: object): value is { $ref: string } {
  const $ref: unknown = '$ref' in value ? value.$ref : undefined;
  return typeof $ref === 'string' && $ref.length > 0 && !$ref.startsWith('#');
}

/**
 * Every external `$ref` under `node` as the bundler's resolve-external crawl meets them (depth first
 * in key order, a `$ref` object told before what it holds, objects only, each once): `path` is the
 * bundler's path of `node`, `tokens` its pointer's tokens, pushed and popped as the walk goes (read
 * them only while `found` runs). `seen`: the objects visited, where one may be reached twice; none
 * for a tree. The pre-scan that reads, with their confinement, the files the bundler will ask for
 * (spec.ts) walks with it.
 */
export function forEachExternalRef(
  node: unknown,
  path: Path,
  tokens: (string | number)[],
  seen: Set<object> | undefined,
  found: ($ref: { $ref: string }, path: Path, tokens: readonly (string | number)[]) => void,
): void {
  if (!crawlable(node) || seen?.has(node as object)) return;
  seen?.add(node as object);
  if (isExternal$Ref(node as object)) found(node as { $ref: string }, path, tokens);
  const record = node as Record<string, unknown>;
  const array = Array.isArray(node);
  // for…in, not Object.keys: no array of keys made for each of a spec's hundred thousand objects
  // (own members only, as Object.keys).
  for (const key in record) {
    const value = record[key];
    if (!crawlable(value) || !Object.hasOwn(record, key)) continue;
    tokens.push(array ? Number(key) : key);
    forEachExternalRef(value, new LazyPath(path, key), tokens, seen, found);
    tokens.pop();
  }
}

/** What a crawl enters: an object that is no typed array or buffer view. */
function crawlable(value: unknown): boolean {
  return Boolean(value) && typeof value === 'object' && !ArrayBuffer.isView(value);
}
