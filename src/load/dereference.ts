// The dereference step of @apidevtools/json-schema-ref-parser 14.0.1 (lib/dereference.ts, MIT, ©
// James Messinger and contributors), as swagger-parser's `validate` runs it on a bundled spec
// (internal `$ref`s only, `dereference.circular: "ignore"`), ported with its output unchanged and
// its cost cut: the library builds two pointer strings (`Pointer.join`, an encodeURIComponent per
// token) for every key of the document, where only a `$ref` ever reads one. Here a key's paths are
// made strings only when a `$ref` needs them (ref-path.ts), and the library's URL resolution is
// memoized (by the patch applied at install: patches/). Every step, its order, its cache and its
// circular handling are the library's. test/unit/load/dereference.test.ts holds the output equal to
// the library's on every spec of the repository and on generated ones.
import RefModule from '@apidevtools/json-schema-ref-parser/dist/lib/ref.js';
import * as url from '@apidevtools/json-schema-ref-parser/dist/lib/util/url.js';
import { LazyPath, type Path } from './ref-path.js';

const Ref = ('default' in RefModule ? RefModule.default : RefModule) as typeof RefModule.default;

/** What the parser holds: its document and its resolver of `$ref`s. */
export interface DereferencingParser {
  schema: unknown;
  readonly $refs: {
    circular: boolean;
    readonly _root$Ref: { readonly path: string | undefined };
    _resolve(
      path: string,
      pathFromRoot: string,
      options: never,
    ): { readonly value: unknown; readonly path: string; readonly circular: boolean } | null;
  };
}

interface Dereferenced {
  circular: boolean;
  value: unknown;
}

/**
 * What the library's `dereference(parser, options)` does to a parser whose options ask for
 * internal `$ref`s only and leave circular ones in place (`resolve.external: false`,
 * `dereference.circular: "ignore"`, nothing else of `dereference` set): the document's `$ref`s
 * replaced by their values, in place, `$refs.circular` set when a cycle was met.
 */
export function dereferenceInternal(parser: DereferencingParser, options: unknown): void {
  const o = options as { resolve?: { external?: unknown }; dereference?: Record<string, unknown>; timeoutMs?: unknown };
  const d = o.dereference ?? {};
  if (
    o.resolve?.external ||
    d.circular !== 'ignore' ||
    d.excludedPathMatcher ||
    d.preservedProperties ||
    d.onDereference ||
    d.onCircular ||
    d.externalReferenceResolution === 'root' ||
    o.timeoutMs
  ) {
    throw new Error('dereferenceInternal: only internal $refs, circular ones ignored, without callbacks or a timeout');
  }
  const root = parser.$refs._root$Ref.path as string;
  const dereferenced = crawl(parser.schema, root, '#', new Set(), new Map(), parser, options);
  parser.$refs.circular = dereferenced.circular;
  parser.schema = dereferenced.value;
}

function crawl(
  obj: unknown,
  path: Path,
  pathFromRoot: Path,
  parents: Set<unknown>,
  cache: Map<string, Dereferenced>,
  parser: DereferencingParser,
  options: unknown,
): Dereferenced {
  const result: Dereferenced = { value: obj, circular: false };
  // Under "ignore" the library crawls an object however often it is met (its processedObjects
  // set is then never read).
  if (obj && typeof obj === 'object' && !ArrayBuffer.isView(obj)) {
    parents.add(obj);
    if (Ref.isAllowed$Ref(obj, options as never)) {
      const dereferenced = dereference$Ref(
        obj as { $ref: string },
        path,
        pathFromRoot,
        parents,
        cache,
        parser,
        options,
      );
      result.circular = dereferenced.circular;
      result.value = dereferenced.value;
    } else {
      const record = obj as Record<string, unknown>;
      for (const key of Object.keys(record)) {
        const keyPath = new LazyPath(path, key);
        const keyPathFromRoot = new LazyPath(pathFromRoot, key);
        const value = record[key];
        let circular: boolean;
        if (Ref.isAllowed$Ref(value, options as never)) {
          const dereferenced = dereference$Ref(
            value as { $ref: string },
            keyPath,
            keyPathFromRoot,
            parents,
            cache,
            parser,
            options,
          );
          circular = dereferenced.circular;
          if (record[key] !== dereferenced.value) record[key] = dereferenced.value;
        } else if (!parents.has(value)) {
          const dereferenced = crawl(value, keyPath, keyPathFromRoot, parents, cache, parser, options);
          circular = dereferenced.circular;
          if (record[key] !== dereferenced.value) record[key] = dereferenced.value;
        } else {
          circular = foundCircularReference(parser);
        }
        result.circular = result.circular || circular;
      }
    }
    parents.delete(obj);
  }
  return result;
}

function dereference$Ref(
  $ref: { $ref: string },
  path: Path,
  pathFromRoot: Path,
  parents: Set<unknown>,
  cache: Map<string, Dereferenced>,
  parser: DereferencingParser,
  options: unknown,
): Dereferenced {
  const at = String(path);
  const $refPath = url.resolve(at, $ref.$ref);
  const cached = cache.get($refPath);
  if (cached) {
    if (!cached.circular) {
      const refKeys = Object.keys($ref);
      if (refKeys.length > 1) {
        const extraKeys: Record<string, unknown> = {};
        for (const key of refKeys) {
          if (key !== '$ref' && !(key in (cached.value as object)))
            extraKeys[key] = ($ref as Record<string, unknown>)[key];
        }
        return { circular: cached.circular, value: Object.assign({}, cached.value, extraKeys) };
      }
      return cached;
    }
    const value = cached.value;
    if (typeof value === 'object' && value !== null && '$ref' in value && '$ref' in $ref) {
      if ((value as { $ref: unknown }).$ref === $ref.$ref) return cached;
    } else {
      return cached;
    }
  }
  const pointer = parser.$refs._resolve($refPath, at, options as never);
  if (pointer === null) return { circular: false, value: null };
  const directCircular = pointer.circular;
  let circular = directCircular || parents.has(pointer.value);
  if (circular) foundCircularReference(parser);
  let dereferencedValue = Ref.dereference($ref as never, pointer.value as never) as unknown;
  if (!circular) {
    const dereferenced = crawl(dereferencedValue, pointer.path, pathFromRoot, parents, cache, parser, options);
    circular = dereferenced.circular;
    dereferencedValue = dereferenced.value;
  }
  // Circular references are ignored: the value stays the `$ref`.
  if (circular && !directCircular) dereferencedValue = $ref;
  // A direct cycle (a `$ref` to itself): its `$ref` becomes its path from the root.
  if (directCircular) (dereferencedValue as { $ref: string }).$ref = String(pathFromRoot);
  const dereferencedObject = { circular, value: dereferencedValue };
  if (Object.keys($ref).length === 1) cache.set($refPath, dereferencedObject);
  return dereferencedObject;
}

/** The library's: the parser learns of a cycle (under "ignore", nothing is thrown). */
function foundCircularReference(parser: DereferencingParser): true {
  parser.$refs.circular = true;
  return true;
}
