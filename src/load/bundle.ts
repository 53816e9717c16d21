// The bundle step of @apidevtools/json-schema-ref-parser 14.0.1 (lib/bundle.ts, MIT, © James
// Messinger and contributors), ported with its output unchanged and its cost made linear: the
// library looks each `$ref` up in its inventory by scanning the whole inventory (findInInventory),
// which is quadratic in the number of `$ref`s and took seconds on a spec of 2,000 paths. Here the
// lookup is a map from the `$ref`'s parent object and key; everything else (crawl order, which
// `$ref` receives the inlined value, the remapping) is the library's, step for step, using its own
// Ref, Pointer and URL functions. test/unit/load/bundle.test.ts holds the output equal to the
// library's on every spec of the repository and on generated ones.
import { type $Refs, JSONParserErrorGroup, jsonSchemaParserNormalizeArgs } from '@apidevtools/json-schema-ref-parser';
import PointerModule from '@apidevtools/json-schema-ref-parser/dist/lib/pointer.js';
import RefModule from '@apidevtools/json-schema-ref-parser/dist/lib/ref.js';
import * as url from '@apidevtools/json-schema-ref-parser/dist/lib/util/url.js';
import type SwaggerParser from '@apidevtools/swagger-parser';

// CommonJS modules whose class is their `default` export: Node hands over the module (the class
// under `default`), a bundler applying interop the class itself.
const Pointer = ('default' in PointerModule ? PointerModule.default : PointerModule) as typeof PointerModule.default;
const Ref = ('default' in RefModule ? RefModule.default : RefModule) as typeof RefModule.default;

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
  /** url.resolve's answers, by base (its fragment, which resolution never reads, left out) and ref. */
  readonly resolved: Map<string, string>;
  /** The entry of each `$ref` by its parent object and key (null: the parent is the `$ref`). */
  readonly byParent: Map<object, Map<string | null, InventoryEntry>>;
}

type Resolver = Pick<$Refs, '_resolve' | '_root$Ref'>;

/**
 * Bundles the file at `path` as the parser's own `bundle(path, options)` does (a SwaggerParser
 * checks the document's version as it parses): every external `$ref` inlined once, the others
 * remapped to it.
 */
export async function bundle(parser: SwaggerParser, path: string, options: unknown): Promise<Record<string, unknown>> {
  // As $RefParser.prototype.bundle: normalized options, resolve, bundle, then the errors kept
  // under continueOnError.
  const args = jsonSchemaParserNormalizeArgs([path, options] as unknown as IArguments);
  await parser.resolve(args.path, args.schema as never, args.options as never);
  bundleResolved(parser, args.options);
  if (JSONParserErrorGroup.getParserErrors(parser as never).length > 0) throw new JSONParserErrorGroup(parser as never);
  return (parser as unknown as { schema: Record<string, unknown> }).schema;
}

function bundleResolved(parser: SwaggerParser, options: unknown): void {
  const refs = parser.$refs as unknown as Resolver;
  const inventory: Inventory = { entries: [], byParent: new Map(), resolved: new Map() };
  crawl(parser as unknown as Record<string, unknown>, 'schema', `${refs._root$Ref.path}#`, '#', 0, inventory, refs, options);
  remap(inventory.entries.filter((e) => !e.removed));
}

// Pointer.join(base, token), with each token's encoding computed once.
const encoded = new Map<string, string>();
function join(base: string, token: string): string {
  let e = encoded.get(token);
  if (e === undefined) {
    e = encodeURIComponent(token.replace(/~/g, '~0').replace(/\//g, '~1'));
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

/** The library's crawl order: `definitions`/`$defs` first, then keys by length (a stable sort). */
function crawlOrder(a: string, b: string): number {
  if (a === 'definitions' || a === '$defs') return -1;
  if (b === 'definitions' || b === '$defs') return 1;
  return a.length - b.length;
}

function crawl(parent: Record<string, unknown>, key: string | null, path: string, pathFromRoot: string, indirections: number, inventory: Inventory, refs: Resolver, options: unknown): void {
  const obj = key === null ? parent : parent[key];
  if (!obj || typeof obj !== 'object' || ArrayBuffer.isView(obj)) return;
  if (Ref.isAllowed$Ref(obj)) {
    inventory$Ref(parent, key, path, pathFromRoot, indirections, inventory, refs, options);
    return;
  }
  const record = obj as Record<string, unknown>;
  for (const k of Object.keys(record).sort(crawlOrder)) {
    const keyPath = join(path, k);
    const keyPathFromRoot = join(pathFromRoot, k);
    if (Ref.isAllowed$Ref(record[k])) inventory$Ref(record, k, path, keyPathFromRoot, indirections, inventory, refs, options);
    else crawl(record, k, keyPath, keyPathFromRoot, indirections, inventory, refs, options);
  }
}

function inventory$Ref(parent: Record<string, unknown>, key: string | null, path: string, pathFromRoot: string, indirections: number, inventory: Inventory, refs: Resolver, options: unknown): void {
  const $ref = (key === null ? parent : parent[key]) as InventoryEntry['$ref'];
  const memo = `${url.stripHash(path)}\u0000${$ref.$ref}`;
  let $refPath = inventory.resolved.get(memo);
  if ($refPath === undefined) {
    $refPath = url.resolve(path, $ref.$ref);
    inventory.resolved.set(memo, $refPath);
  }
  const pointer = refs._resolve($refPath, pathFromRoot, options as never);
  if (pointer === null) return;
  const depth = depthOf(pathFromRoot);
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
  const entry: InventoryEntry = { $ref, parent, key, pathFromRoot, depth, file, hash, value: pointer.value, circular: pointer.circular, extended, external, indirections: through, removed: false };
  inventory.entries.push(entry);
  if (!byKey) {
    byKey = new Map();
    inventory.byParent.set(parent, byKey);
  }
  byKey.set(key, entry);
  if (!existing || external) crawl(pointer.value as Record<string, unknown>, null, pointer.path, pathFromRoot, through + 1, inventory, refs, options);
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
