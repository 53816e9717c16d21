// The bundle step of @apidevtools/json-schema-ref-parser 14.0.1 (lib/bundle.ts, MIT, © James
// Messinger and contributors), ported with its output unchanged and its cost made linear: the
// library looks each `$ref` up in its inventory by scanning the whole inventory (findInInventory),
// which is quadratic in the number of `$ref`s and took seconds on a spec of 2,000 paths. Here the
// lookup is a map from the `$ref`'s parent object and key; everything else (crawl order, which
// `$ref` receives the inlined value, the remapping) is the library's, step for step, using its own
// Ref, Pointer and URL functions. Its resolve-external step (lib/resolve-external.ts), which runs
// first, is ported the same way: it joined a path for every key of the document.
// test/unit/load/bundle.test.ts holds the output equal to the library's on every spec of the
// repository and on generated ones.
import {
  type $Refs,
  isHandledError,
  JSONParserErrorGroup,
  jsonSchemaParserNormalizeArgs,
} from '@apidevtools/json-schema-ref-parser';
import ParseModule from '@apidevtools/json-schema-ref-parser/dist/lib/parse.js';
import PointerModule from '@apidevtools/json-schema-ref-parser/dist/lib/pointer.js';
import RefModule from '@apidevtools/json-schema-ref-parser/dist/lib/ref.js';
import type * as UrlFunctions from '@apidevtools/json-schema-ref-parser/dist/lib/util/url.js';
import type SwaggerParser from '@apidevtools/swagger-parser';
import { createRequire } from 'node:module';
import { escapeToken } from '../openapi/pointer.js';

// CommonJS modules whose class is their `default` export: Node hands over the module (the class
// under `default`), a bundler applying interop the class itself.
const Pointer = ('default' in PointerModule ? PointerModule.default : PointerModule) as typeof PointerModule.default;
const Ref = ('default' in RefModule ? RefModule.default : RefModule) as typeof RefModule.default;
const parseFile = ('default' in ParseModule ? ParseModule.default : ParseModule) as typeof ParseModule.default;

interface InventoryEntry {
  $ref: { $ref: string } & Record<string, unknown>;
  readonly parent: Record<string, unknown>;
  readonly key: string | null;
  readonly pathFromRoot: string;
  readonly depth: number;
  readonly file: string;
  readonly hash: string;
  readonly value: unknown;
  readonly circular: boolean;
  readonly extended: boolean;
  readonly external: boolean;
  readonly indirections: number;
  /** Taken out of the inventory (replaced by a shorter path to the same `$ref`). */
  removed: boolean;
}

interface Inventory {
  /** In the order the library's array would hold them (removed entries skipped at the end). */
  readonly entries: InventoryEntry[];
  /** The entry of each `$ref` by its parent object and key (null: the parent is the `$ref`). */
  readonly byParent: Map<object, Map<string | null, InventoryEntry>>;
  /** Resolutions that met no `$ref` on their way, by resolved path (see `resolvePointer`). */
  readonly pointers: Map<string, ResolvedPointer>;
  /** Resolutions through `$ref`s, for a `$ref` anywhere but at the root, by path (see `resolvePointer`). */
  readonly followed: Map<string, ResolvedPointer>;
}

/**
 * The library resolves a `$ref` against the path of the place it stands (`file#/a/b/c`) with two
 * WHATWG URL parses, tens of thousands of times for a large spec (in its resolution, dereference
 * and this bundle step alike). The answer is a function of the two strings only, and never of the
 * base's fragment (RFC 3986 §5.2.2 takes none of it): it is memoized on the base without its
 * fragment and the reference, through the module's export that the library's own modules call
 * (`url.resolve(...)` reads the export on each call). Bounded: cleared past 200,000 answers.
 * test/unit/load/bundle.test.ts holds it to the original on every base, fragment and reference.
 */
function memoizeUrlResolve(): UrlModule {
  const exports = createRequire(import.meta.url)(
    '@apidevtools/json-schema-ref-parser/dist/lib/util/url.js',
  ) as UrlModule;
  if (exports.__memoized) return exports;
  const original = exports.resolve;
  const answers = new Map<string, string>();
  const memo = (key: string, from: string, to: string): string => {
    let answer = answers.get(key);
    if (answer === undefined) {
      answer = original(from, to);
      if (answers.size >= 200_000) answers.clear();
      answers.set(key, answer);
    }
    return answer;
  };
  // The last base a fragment was resolved against, and its answer: one file's `$ref`s in a row.
  let lastBase = '';
  let lastAnswer = '';
  exports.resolve = (from: string, to: string): string => {
    const hash = from.indexOf('#');
    // A reference that is a fragment the URL parser keeps as it is (WHATWG URL's fragment
    // percent-encode set, the parser's trimming, the library's backslashes: none of them in it)
    // resolves to the base, its fragment dropped, then the reference: most `$ref`s of a spec,
    // tens of thousands of times, each with a base of its own fragment.
    if (to.length > 1 && to.charCodeAt(0) === 35 && VERBATIM_FRAGMENT.test(to)) {
      const length = hash === -1 ? from.length : hash;
      if (length !== lastBase.length || !from.startsWith(lastBase)) {
        lastBase = from.slice(0, length);
        lastAnswer = memo(`${lastBase}\u0000`, lastBase, '');
      }
      return lastAnswer + to;
    }
    const base = hash === -1 ? from : from.slice(0, hash);
    return memo(`${base}\u0000${to}`, from, to);
  };
  exports.__memoized = true;
  exports.__unmemoized = original;
  return exports;
}
/** `#` then printable ASCII but space, `"`, `<`, `>`, `\\` and a backquote. */
const VERBATIM_FRAGMENT = /^#[\x21\x23-\x3b\x3d\x3f-\x5b\x5d-\x5f\x61-\x7e]+$/;
type UrlModule = typeof UrlFunctions & { __memoized?: true; __unmemoized?: (from: string, to: string) => string };
/** The library's URL module, its resolve memoized (the original kept as `__unmemoized`, for tests). */
export const refParserUrl: Readonly<UrlModule> = memoizeUrlResolve();
const url = refParserUrl;

type Resolver = Pick<$Refs, '_root$Ref'> & {
  readonly _$refs: Record<
    string,
    { resolve(path: string, options: never, friendlyPath: string, pathFromRoot: string): ResolvedPointer | null }
  >;
};
type ResolvedPointer = NonNullable<ReturnType<$Refs['_resolve']>>;

/**
 * Bundles the file at `path` as the parser's own `bundle(path, options)` does (a SwaggerParser
 * checks the document's version as it parses): every external `$ref` inlined once, the others
 * remapped to it.
 */
export async function bundle(
  parser: SwaggerParser,
  path: string,
  options: unknown,
  scanned?: ExternalRefsByFile,
): Promise<Record<string, unknown>> {
  // As $RefParser.prototype.bundle: normalized options, resolve, bundle, then the errors kept
  // under continueOnError.
  const args = jsonSchemaParserNormalizeArgs([path, options] as unknown as IArguments);
  await resolve(parser, args.path, args.schema, args.options, scanned);
  bundleResolved(parser, args.options);
  if (JSONParserErrorGroup.getParserErrors(parser as never).length > 0) throw new JSONParserErrorGroup(parser as never);
  return (parser as unknown as { schema: Record<string, unknown> }).schema;
}

/**
 * `$RefParser.prototype.resolve` (which the bundle step runs first): the parse of the root by the
 * parser given (swagger-parser's, with its version checks), then the library's resolve-external
 * step, ported below, then its check for errors kept under continueOnError.
 */
async function resolve(
  parser: SwaggerParser,
  path: string,
  schema: unknown,
  options: unknown,
  scanned: ExternalRefsByFile | undefined,
): Promise<void> {
  const args = jsonSchemaParserNormalizeArgs([path, schema, options] as unknown as IArguments);
  await parser.parse(args.path, args.schema as never, args.options as never);
  await resolveExternal(parser, args.options as ExternalOptions, scanned);
  if (JSONParserErrorGroup.getParserErrors(parser as never).length > 0) throw new JSONParserErrorGroup(parser as never);
}

type ExternalOptions = {
  resolve?: { external?: boolean };
  dereference?: { externalReferenceResolution?: string };
  continueOnError?: boolean;
};
type ExternalRefs = { _root$Ref: { path: string }; _$refs: Record<string, { value: unknown } | undefined> };

/** An external `$ref` where the resolve-external crawl meets it: its text, and the bundler's path of the object holding it. */
export interface ExternalRef {
  readonly ref: string;
  readonly base: string;
}

/**
 * The external `$ref`s of files the caller has walked already (spec.ts reads every file first, to
 * confine what the bundler will read), by the bundler's URL of the file (no `#`), in crawl order:
 * for a file whose value the bundler is handed (itself, or a JSON copy of it), the crawl reads the
 * list instead of walking the document a second time. Only a `$ref`'s text and its base are read
 * by the crawl; a file not in the map is walked.
 */
export type ExternalRefsByFile = ReadonlyMap<string, readonly ExternalRef[]>;

/**
 * The library's resolve-external step (lib/resolve-external.ts): every external `$ref` found by a
 * crawl of the document, in the crawl's order, its file parsed and crawled in turn. The library
 * joins a path for every key of the document and concatenates an array at every value; here a
 * path is made a string only where an external `$ref` stands, scalars are not visited (the
 * library's crawl returns at once from them) and the promises go to one array, in the same order.
 */
function resolveExternal(
  parser: SwaggerParser,
  options: ExternalOptions,
  scanned: ExternalRefsByFile | undefined,
): Promise<unknown> {
  if (!options.resolve?.external) return Promise.resolve();
  try {
    const promises: Promise<unknown>[] = [];
    const refs = parser.$refs as unknown as ExternalRefs;
    crawlExternal(
      (parser as unknown as { schema: unknown }).schema,
      refs._root$Ref.path,
      refs,
      options,
      promises,
      scanned,
    );
    return Promise.all(promises);
  } catch (e) {
    return Promise.reject(e);
  }
}

/** The crawl of one file's value (`fileUrl`: the bundler's URL of it), or the list its caller's walk found. */
function crawlExternal(
  obj: unknown,
  fileUrl: string,
  refs: ExternalRefs,
  options: ExternalOptions,
  promises: Promise<unknown>[],
  scanned: ExternalRefsByFile | undefined,
): void {
  const known = scanned?.get(fileUrl);
  if (known)
    for (const { ref, base } of known) promises.push(resolveExternal$Ref({ $ref: ref }, base, refs, options, scanned));
  else
    forEachExternalRef(obj, `${fileUrl}#`, [], new Set(), ($ref, at) =>
      promises.push(resolveExternal$Ref($ref, String(at), refs, options, scanned)),
    );
}

/**
 * Every external `$ref` under `node` as the library's resolve-external crawl meets them (depth first
 * in key order, a `$ref` object told before what it holds, objects only, each once): `path` is the
 * bundler's path of `node`, `tokens` its pointer's tokens, pushed and popped as the walk goes (read
 * them only while `found` runs). `seen`: the objects visited, where one may be reached twice; none
 * for a tree. The bundler's own resolution crawls with it, and so does the pre-scan that reads,
 * with their confinement, the files the bundler will ask for (spec.ts).
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
  if (Ref.isExternal$Ref(node)) found(node as { $ref: string }, path, tokens);
  const record = node as Record<string, unknown>;
  const array = Array.isArray(node);
  // for…in, not Object.keys: no array of keys made for each of a spec's hundred thousand objects
  // (own members only, as Object.keys: a parsed document's objects inherit no enumerable one,
  // which hasOwn checks all the same).
  for (const key in record) {
    const value = record[key];
    if (!crawlable(value) || !Object.hasOwn(record, key)) continue;
    tokens.push(array ? Number(key) : key);
    forEachExternalRef(value, new LazyPath(path, key), tokens, seen, found);
    tokens.pop();
  }
}

async function resolveExternal$Ref(
  $ref: { $ref: string },
  path: string,
  refs: ExternalRefs,
  options: ExternalOptions,
  scanned: ExternalRefsByFile | undefined,
): Promise<unknown> {
  const resolvedPath = url.resolve(
    options.dereference?.externalReferenceResolution === 'root' ? url.cwd() : path,
    $ref.$ref,
  );
  const withoutHash = url.stripHash(resolvedPath);
  const known = refs._$refs[withoutHash];
  if (known) return known.value;
  try {
    const result = await parseFile(resolvedPath, refs as never, options as never);
    const promises: Promise<unknown>[] = [];
    crawlExternal(result, withoutHash, refs, options, promises, scanned);
    // Not awaited here, as the library has it: a failure further down is not caught below.
    return Promise.all(promises);
  } catch (err) {
    if (!options.continueOnError || !isHandledError(err)) throw err;
    if (refs._$refs[withoutHash]) {
      const e = err as { source?: string; path?: unknown };
      e.source = decodeURI(url.stripHash(path));
      e.path = url.safePointerToPath(url.getHash(path));
    }
    return [];
  }
}

function bundleResolved(parser: SwaggerParser, options: unknown): void {
  const refs = parser.$refs as unknown as Resolver;
  const inventory: Inventory = { entries: [], byParent: new Map(), pointers: new Map(), followed: new Map() };
  crawl(
    parser as unknown as Record<string, unknown>,
    'schema',
    `${refs._root$Ref.path}#`,
    '#',
    0,
    inventory,
    refs,
    options,
  );
  remap(inventory.entries.filter((e) => !e.removed));
}

/** The library's Pointer.join(base, token), with each token's encoding computed once. */
const encoded = new Map<string, string>();
export function join(base: string, token: string): string {
  let e = encoded.get(token);
  if (e === undefined) {
    e = encodeURIComponent(escapeToken(token));
    if (encoded.size < 100_000) encoded.set(token, e);
  }
  return `${base.includes('#') ? base : `${base}#`}/${e}`;
}

/** The number of tokens of a pointer built by `join` from '#' (Pointer.parse(p).length). */
function depthOf(pathFromRoot: string): number {
  let n = 0;
  for (let i = pathFromRoot.indexOf('#') + 1; i < pathFromRoot.length; i++) if (pathFromRoot.charCodeAt(i) === 47) n++;
  return n;
}

/**
 * Are `keys` (at most one of `definitions` and `$defs` among them) in crawlOrder already: that
 * one first, the others by length, not decreasing? Then the library's stable sort keeps them so.
 */
function inCrawlOrder(keys: readonly string[]): boolean {
  for (let i = 1; i < keys.length; i++) {
    const a = keys[i - 1] as string;
    const b = keys[i] as string;
    if (b === 'definitions' || b === '$defs') return false;
    if (a !== 'definitions' && a !== '$defs' && a.length > b.length) return false;
  }
  return true;
}

/** The library's crawl order: `definitions`/`$defs` first, then keys by length (a stable sort). */
function crawlOrder(a: string, b: string): number {
  if (a === 'definitions' || a === '$defs') return -1;
  if (b === 'definitions' || b === '$defs') return 1;
  return a.length - b.length;
}

/**
 * A path of the crawl (`join(parent, key)`), made a string only when a `$ref` needs it: the crawl
 * visits every key of the document, and most have no `$ref` under them.
 */
export class LazyPath {
  #text: string | undefined;
  /** The string the path was built from: its part before `#` is the path's own (see `rootOf`). */
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

/**
 * A string with the same part before `#` as `path` (`join` never changes that part: a token's `#`
 * is percent-encoded), which is all that resolving a reference against `path` reads of it (see
 * memoizeUrlResolve): a `$ref` is resolved against it without its path made a string.
 */
function rootOf(path: Path): string {
  return typeof path === 'string' ? path : path.root;
}

function crawl(
  parent: Record<string, unknown>,
  key: string | null,
  path: Path,
  pathFromRoot: Path,
  indirections: number,
  inventory: Inventory,
  refs: Resolver,
  options: unknown,
): void {
  const obj = key === null ? parent : parent[key];
  if (!crawlable(obj)) return;
  if (Ref.isAllowed$Ref(obj)) {
    inventory$Ref(parent, key, rootOf(path), String(pathFromRoot), indirections, inventory, refs, options);
    return;
  }
  crawlMembers(obj as Record<string, unknown>, path, pathFromRoot, indirections, inventory, refs, options);
}

/** `crawl` of an object that is no `$ref`: its members, in the library's order. */
function crawlMembers(
  record: Record<string, unknown>,
  path: Path,
  pathFromRoot: Path,
  indirections: number,
  inventory: Inventory,
  refs: Resolver,
  options: unknown,
): void {
  // Only a member that is an object is crawled (the library's crawl returns at once from any other),
  // so only those are ordered, as the library orders every key: a stable sort, so the members'
  // order among themselves is the same either way, but for an object holding both `definitions`
  // and `$defs` (each comes before the other in crawlOrder: the order is the sort's own), whose
  // keys are all sorted, as the library sorts them.
  let members: string[] = [];
  for (const k in record) if (crawlable(record[k]) && Object.hasOwn(record, k)) members.push(k);
  if (members.length > 1) {
    if (Object.hasOwn(record, 'definitions') && Object.hasOwn(record, '$defs'))
      members = Object.keys(record)
        .sort(crawlOrder)
        .filter((k) => crawlable(record[k]));
    // Already in the sort's order (the common case): the stable sort would leave it as it is.
    else if (!inCrawlOrder(members)) members.sort(crawlOrder);
  }
  for (const k of members) {
    const value = record[k] as Record<string, unknown>;
    const keyPathFromRoot = new LazyPath(pathFromRoot, k);
    if (Ref.isAllowed$Ref(value))
      inventory$Ref(record, k, rootOf(path), String(keyPathFromRoot), indirections, inventory, refs, options);
    else crawlMembers(value, new LazyPath(path, k), keyPathFromRoot, indirections, inventory, refs, options);
  }
}

/** What `crawl` does not return from at once: an object that is no typed array or buffer view. */
function crawlable(value: unknown): boolean {
  return Boolean(value) && typeof value === 'object' && !ArrayBuffer.isView(value);
}

/**
 * `$refs._resolve(path, pathFromRoot, options)`, the library's steps, each answer kept and handed
 * again, read-only, to the next `$ref` with the same path where it would be the same: nothing the
 * crawl changes is read (the crawl changes nothing; the remapping comes after it), and of
 * `pathFromRoot` the library's pointer reads only whether it is the root (a `$ref` met on the way
 * that names the very place it stands is a cycle, but for the root's): compared with the absolute
 * path a `$ref` resolves to, a `#/…` path never equals it. Kept:
 * - a resolution that met no `$ref` on its way (no indirection, no cycle, its path unchanged)
 *   and ends on an object that is no `$ref`, whatever `pathFromRoot` (it reads none of it);
 * - one through `$ref`s, for a `$ref` not at the root, when it ends on an object that is no
 *   `$ref` and no cycle, and that is the document's own object at the path it ends on: not a
 *   value the library makes anew on each resolution (an extended `$ref`'s merge).
 */
function resolvePointer(
  inventory: Inventory,
  refs: Resolver,
  path: string,
  pathFromRoot: string,
  atRoot: boolean,
  options: unknown,
): ResolvedPointer | null {
  const known = inventory.pointers.get(path) ?? (atRoot ? undefined : inventory.followed.get(path));
  if (known !== undefined) return known;
  const absPath = url.resolve(refs._root$Ref.path as string, path);
  const withoutHash = url.stripHash(absPath);
  const $ref = refs._$refs[withoutHash];
  if (!$ref) throw new Error(`Error resolving $ref pointer "${path}". \n"${withoutHash}" not found.`);
  const pointer = $ref.resolve(absPath, options as never, path, pathFromRoot);
  if (
    pointer === null ||
    pointer.circular ||
    pointer.value === null ||
    typeof pointer.value !== 'object' ||
    Ref.isAllowed$Ref(pointer.value)
  )
    return pointer;
  if (pointer.indirections === 0 && pointer.path === absPath) inventory.pointers.set(path, pointer);
  else if (!atRoot && pointer.value === plainValueAt(refs, pointer.path)) inventory.followed.set(path, pointer);
  return pointer;
}

/** The value at `path` in its file, its pointer walked token by token without following a `$ref`. */
function plainValueAt(refs: Resolver, path: string): unknown {
  let value = (refs._$refs[url.stripHash(path)] as { value?: unknown } | undefined)?.value;
  try {
    for (const token of Pointer.parse(path)) {
      if (value === null || typeof value !== 'object') return undefined;
      value = (value as Record<string, unknown>)[token];
    }
  } catch {
    return undefined;
  }
  return value;
}

/** `path`: the path of the `$ref`'s parent, or any with the same part before `#` (rootOf). */
function inventory$Ref(
  parent: Record<string, unknown>,
  key: string | null,
  path: string,
  pathFromRoot: string,
  indirections: number,
  inventory: Inventory,
  refs: Resolver,
  options: unknown,
): void {
  const $ref = (key === null ? parent : parent[key]) as InventoryEntry['$ref'];
  const $refPath = url.resolve(path, $ref.$ref);
  const depth = depthOf(pathFromRoot);
  const pointer = resolvePointer(inventory, refs, $refPath, pathFromRoot, depth === 0, options);
  if (pointer === null) return;
  const file = url.stripHash(pointer.path);
  const hash = url.getHash(pointer.path);
  const external = file !== refs._root$Ref.path;
  const extended = Ref.isExtended$Ref($ref);
  const through = indirections + pointer.indirections;
  let byKey = inventory.byParent.get(parent);
  const existing = byKey?.get(key);
  if (existing) {
    // Inventoried already: kept unless this path is shorter or more direct.
    if (depth < existing.depth || through < existing.indirections) existing.removed = true;
    else return;
  }
  const entry: InventoryEntry = {
    $ref,
    parent,
    key,
    pathFromRoot,
    depth,
    file,
    hash,
    value: pointer.value,
    circular: pointer.circular,
    extended,
    external,
    indirections: through,
    removed: false,
  };
  inventory.entries.push(entry);
  if (!byKey) {
    byKey = new Map();
    inventory.byParent.set(parent, byKey);
  }
  byKey.set(key, entry);
  if (!existing || external)
    crawl(
      pointer.value as Record<string, unknown>,
      null,
      pointer.path,
      pathFromRoot,
      through + 1,
      inventory,
      refs,
      options,
    );
}

function remap(inventory: InventoryEntry[]): void {
  inventory.sort((a, b) => {
    if (a.file !== b.file) return a.file < b.file ? -1 : +1;
    if (a.hash !== b.hash) return a.hash < b.hash ? -1 : +1;
    if (a.circular !== b.circular) return a.circular ? -1 : +1;
    if (a.extended !== b.extended) return a.extended ? +1 : -1;
    if (a.indirections !== b.indirections) return a.indirections - b.indirections;
    if (a.depth !== b.depth) return a.depth - b.depth;
    const aDefinitions = Math.max(a.pathFromRoot.lastIndexOf('/definitions'), a.pathFromRoot.lastIndexOf('/$defs'));
    const bDefinitions = Math.max(b.pathFromRoot.lastIndexOf('/definitions'), b.pathFromRoot.lastIndexOf('/$defs'));
    if (aDefinitions !== bDefinitions) return bDefinitions - aDefinitions;
    return a.pathFromRoot.length - b.pathFromRoot.length;
  });
  let file: string | undefined;
  let hash: string | undefined;
  let pathFromRoot: string | undefined;
  for (const entry of inventory) {
    if (!entry.external) {
      entry.$ref.$ref = entry.hash;
    } else if (entry.file === file && entry.hash === hash) {
      entry.$ref.$ref = pathFromRoot as string;
    } else if (entry.file === file && entry.hash.indexOf(`${hash}/`) === 0) {
      entry.$ref.$ref = Pointer.join(pathFromRoot as string, Pointer.parse(entry.hash.replace(hash as string, '#')));
    } else {
      file = entry.file;
      hash = entry.hash;
      pathFromRoot = entry.pathFromRoot;
      const inlined = Ref.dereference(entry.$ref as never, entry.value as never) as InventoryEntry['$ref'];
      entry.$ref = inlined;
      // As the library writes it, also for a key of null (a `$ref` reached as a resolved value).
      entry.parent[String(entry.key)] = inlined;
      if (entry.circular) entry.$ref.$ref = entry.pathFromRoot;
    }
  }
}
