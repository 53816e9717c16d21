import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import SwaggerParser from '@apidevtools/swagger-parser';
import { ResolverError } from '@apidevtools/json-schema-ref-parser';
// The bundler's own URL functions: a `$ref` is checked where the bundler will resolve it, after
// the same trimming, backslash and percent-decoding (WHATWG URL, then decodeURI), not where a
// look-alike of that resolution would put it.
import * as refUrl from '@apidevtools/json-schema-ref-parser/dist/lib/util/url.js';
import { formatProblem, LoadError, type LoadProblem } from './errors.js';
import { type DocumentScan, ScanCollector, scanDocument } from '../openapi/document-scan.js';
import { pointerOf } from '../openapi/pointer.js';
import { DEFAULT_LOAD_LIMITS, type LoadLimits } from './limits.js';
import { rel } from './paths.js';
import { type Folder, folderOf, isInside, readConfinedText } from './read-confined.js';
import { parseYamlText } from './yaml-text.js';
import { bundle, forEachExternalRef } from './bundle.js';
import { failureOf, type ValidationFailure } from './oas-validate.js';
import { type OasSchemaError, oasSchemaProblems } from './oas-messages.js';
import { placeInSources } from './source-place.js';
import { SpecValidation, type Validated, type ValidationPlace } from './validate.js';
import { compactIndexKeys } from './index-keys.js';

/** The authored spec, loaded: one bundled document holding only internal `$ref`s. */
export interface LoadedSpec {
  readonly rootFile: string;
  /** Every file the root reaches through `$ref`, the root first (what `--watch` follows). */
  readonly files: readonly string[];
  /** The spec bundled by swagger-parser: external files inlined, cycles kept as internal refs. */
  readonly doc: Readonly<Record<string, unknown>>;
  /** The text of each file read, by path: a reload whose files all read the same keeps this spec. */
  readonly texts: ReadonlyMap<string, string>;
  /**
   * The parsed value of each file read, by path: a file whose text is unchanged is not parsed again.
   * Empty when the spec was loaded for no reload (`keepValues` false: nothing to parse again).
   */
  readonly values: ReadonlyMap<string, unknown>;
  /** The files whose value is exactly what the bundler's own parser makes of their text (js-yaml). */
  readonly asBundlerReads: ReadonlySet<string>;
  /** What each file read uses (core/spec/document-scan.ts), by path, gathered as it was parsed. */
  readonly scans: ReadonlyMap<string, DocumentScan>;
  /** The same for the whole spec: what the contract's Ajv registers it with. */
  readonly scan: DocumentScan;
}

interface FoundRef {
  /** Where the `$ref` stands, as a JSON pointer (for messages). */
  readonly pointer: string;
  /** The bundler's path of the object holding it (`<file url>#/a/b`): its base for resolution. */
  readonly base: string;
  readonly ref: string;
}

/** The package's own openapi/ (src/load and dist/load alike sit two folders below the package root). */
const BUNDLED_SPEC_DIR = fileURLToPath(new URL('../../openapi', import.meta.url));

/** Where the bundler reads a URL from: a file path, or why it is no file inside the folder. */
function fileOfUrl(target: string): { ok: true; file: string } | { ok: false; reason: string } {
  if (!refUrl.isFileSystemPath(target))
    return {
      ok: false,
      reason: `names a remote document (${target}): only files inside the spec's folder are read, nothing from the network`,
    };
  try {
    // The file resolver reads toFileSystemPath(url), relative to the working folder.
    return { ok: true, file: path.resolve(refUrl.toFileSystemPath(target)) };
  } catch (e) {
    return { ok: false, reason: `is not a valid URI (${(e as Error).message})` };
  }
}

/** One spec file read, decoded and parsed with its limits; its problems placed in it. */
async function readSpecFile(
  file: string,
  folder: Folder,
  limits: LoadLimits,
  previous?: LoadedSpec,
  onText?: (text: string) => void,
): Promise<
  | { ok: true; text: string; value: unknown; asBundlerReads: boolean; scan: DocumentScan }
  | { ok: false; kind: 'outside' | 'missing' | 'unreadable'; problems: LoadProblem[] }
> {
  const read = await readConfinedText(file, folder, limits);
  if (!read.ok)
    return { ok: false, kind: read.kind, problems: [{ file: rel(file), pointer: read.place, reason: read.reason }] };
  onText?.(read.text);
  // The same text as the last load: the same value (a reload for a fixture's sake parses no YAML).
  const scan = previous?.scans.get(file);
  if (previous?.texts.get(file) === read.text && previous.values.has(file) && scan !== undefined)
    return {
      ok: true,
      text: read.text,
      value: previous.values.get(file),
      asBundlerReads: previous.asBundlerReads.has(file),
      scan,
    };
  const parsed = parseYamlText(read.text, limits);
  if (!parsed.ok)
    return {
      ok: false,
      kind: 'unreadable',
      problems: parsed.problems.map((p) => ({ file: rel(file), pointer: p.place, reason: p.reason })),
    };
  return { ok: true, text: read.text, value: parsed.value, asBundlerReads: parsed.asBundlerReads, scan: parsed.scan };
}

/**
 * The bundler's resolve options: no HTTP resolver at all, and one file resolver that answers
 * every URL and reads only what the confinement allows (from the texts already read and checked,
 * else through the same checks), so that a reference the pre-scan did not foresee still cannot
 * reach a host or a file outside the spec's folder. A file parsed already exactly as the bundler
 * would parse it (`parsed`) is handed over as its value, not as text to parse again: as a fresh
 * copy (the bundler's parsers take a value as it is, and the bundler changes what it is given),
 * or, with `copy` false, as it is, once (its owner keeps nothing of it).
 */
export function confinedResolveOptions(
  folder: Folder | ((file: string) => Folder),
  limits: LoadLimits,
  known: ReadonlyMap<string, string>,
  parsed: ReadonlyMap<string, unknown> = new Map(),
  copy = true,
  onUnforeseen?: () => void,
) {
  const handed = new Set<string>();
  return {
    resolve: {
      external: true,
      http: false as const,
      file: {
        order: 1,
        canRead: () => true,
        read: async (file: { url: string }): Promise<unknown> => {
          const where = fileOfUrl(file.url);
          if (!where.ok) throw new ResolverError(new Error(`${file.url} ${where.reason}`), file.url);
          const value = parsed.get(where.file);
          // A JSON-schema YAML value is JSON: a round trip copies it (twice as fast as structuredClone).
          if (value !== null && typeof value === 'object') {
            if (copy) return JSON.parse(JSON.stringify(value)) as unknown;
            if (!handed.has(where.file)) {
              handed.add(where.file);
              return value;
            }
          }
          const text = known.get(where.file);
          if (text !== undefined) return text;
          onUnforeseen?.();
          const read = await readSpecFile(
            where.file,
            typeof folder === 'function' ? folder(where.file) : folder,
            limits,
          );
          // Its problems have no line: each reads `file at /pointer: reason`.
          if (!read.ok) throw new ResolverError(new Error(read.problems.map(formatProblem).join('; ')), file.url);
          return read.text;
        },
      },
    },
  };
}

/** A spec read and bundled, its validation under way (see `bundleSpec`). */
export interface BundledSpec {
  readonly spec: LoadedSpec;
  /** Settles when validation has, with the thread that validated; rejects with the LoadError of an invalid spec. */
  readonly validated: Promise<Validated['thread']>;
}

/**
 * Reads the root and every file it `$ref`s, each resolved exactly as the bundler will: only
 * regular files inside the root's folder (symlinks resolved), UTF-8, within the size, nesting and
 * alias limits, parsing cleanly; then bundles the whole with swagger-parser through a resolver
 * that enforces the same, and validates it (OpenAPI 3.1 schema), on a worker thread for a large
 * spec (`place`), so that a caller can go on with the bundled document meanwhile. Throws a
 * LoadError naming file, place and reason for every problem found before validation; a caller
 * must await `validated` before it uses or reports anything it made of the document.
 * `keepValues`: keep each file's parsed value for a later reload (`previous`) to take over; false
 * where nothing will reload (a start without `--watch`), so that the bundler is handed the values
 * themselves, not copies (a second copy in memory, and the time to make it).
 */
export async function bundleSpec(
  rootFile: string,
  limits: LoadLimits = DEFAULT_LOAD_LIMITS,
  previous?: LoadedSpec,
  place: ValidationPlace = 'auto',
  keepValues = true,
): Promise<BundledSpec> {
  const root = path.resolve(rootFile);
  const own = await folderOf(path.dirname(root), "the spec's folder");
  // A designer's spec may $ref the bundled spec's files (the package's published openapi/), and nothing else outside its folder.
  const bundled = await folderOf(BUNDLED_SPEC_DIR, "the bundled spec's folder");
  const folder = (file: string): Folder =>
    !isInside(file, own.lexical) && (isInside(file, bundled.lexical) || isInside(file, bundled.real)) ? bundled : own;
  const problems: LoadProblem[] = [];
  const texts = new Map<string, string>();
  const values = new Map<string, unknown>();
  const asBundlerReads = new Set<string>();
  const scans = new Map<string, DocumentScan>();
  // The external `$ref`s of each file the bundler will be handed as a value, by its URL.
  const scanned = new Map<string, readonly { ref: string; base: string }[]>();
  const files: string[] = [root];
  // As $RefParser.parse names its root: a file path made a URL, resolved against the working folder.
  const queue: { file: string; url: string; from?: { file: string; pointer: string; ref: string } }[] = [
    { file: root, url: refUrl.resolve(refUrl.cwd(), refUrl.fromFileSystemPath(root)) },
  ];
  const seen = new Set([root]);
  // Started as the files are read (a large spec's worker prepares meanwhile); stopped if the spec fails first.
  const validation = new SpecValidation(place);
  try {
    return await readAndBundle();
  } catch (e) {
    validation.close();
    throw e;
  }

  async function readAndBundle(): Promise<BundledSpec> {
    for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
      const { file, url, from } = next;
      // The root is the file named on the command line, wherever a symlink of that name leads; what
      // it references must be inside its folder.
      const within = from ? folder(file) : { ...own, real: path.dirname(await realpath(file).catch(() => file)) };
      // A text new since the last load counts towards the worker, told before it is parsed.
      const read = await readSpecFile(file, within, limits, previous, (text) => {
        if (previous?.texts.get(file) !== text) validation.read(text.length);
      });
      if (!read.ok) {
        // A name leading out of the folder is told where the $ref stands; a missing file, with it.
        if (from && read.kind === 'outside')
          problems.push({
            file: rel(from.file),
            pointer: from.pointer,
            reason: `$ref ${JSON.stringify(from.ref)} resolves to ${rel(file)}, ${read.problems[0]?.reason ?? ''}`,
          });
        else if (from && read.kind === 'missing')
          problems.push(
            ...read.problems.map((p) => ({
              ...p,
              reason: `${p.reason}, named by $ref ${JSON.stringify(from.ref)} in ${rel(from.file)} at ${from.pointer}`,
            })),
          );
        else problems.push(...read.problems);
        continue;
      }
      texts.set(file, read.text);
      values.set(file, read.value);
      if (read.asBundlerReads) asBundlerReads.add(file);
      scans.set(file, read.scan);
      // Every external `$ref`, as the bundler's resolution will meet them. A tree js-yaml read cleanly
      // reaches no object twice (yaml-text.ts checked): no set of them is kept.
      const refs: FoundRef[] = [];
      forEachExternalRef(
        read.value,
        `${url}#`,
        [],
        read.asBundlerReads ? undefined : new Set(),
        ($ref, base, tokens) => {
          refs.push({ pointer: pointerOf([...tokens, '$ref']), base: String(base), ref: $ref.$ref });
        },
      );
      // The bundler is handed this very value (or a JSON copy): its crawl takes these, not a second
      // walk (the patch's resolve.externalRefs).
      if (read.asBundlerReads) scanned.set(url, refs);
      for (const { pointer, base, ref } of refs) {
        const target = refUrl.stripHash(refUrl.resolve(base, ref));
        const where = fileOfUrl(target);
        if (!where.ok) {
          problems.push({ file: rel(file), pointer, reason: `$ref ${JSON.stringify(ref)} ${where.reason}` });
        } else if (!seen.has(where.file)) {
          seen.add(where.file);
          files.push(where.file);
          queue.push({ file: where.file, url: target, from: { file, pointer, ref } });
        }
      }
    }
    if (problems.length > 0) throw new LoadError(problems);
    // Every file reads as before (a reload for a fixture's sake): the bundle and its validation hold.
    if (
      previous &&
      previous.rootFile === root &&
      previous.texts.size === texts.size &&
      [...texts].every(([f, t]) => previous.texts.get(f) === t)
    ) {
      validation.close();
      return { spec: previous, validated: Promise.resolve('main') };
    }

    // A file the pre-scan did not read (none is known to be possible) has no scan: the document is then walked instead.
    let unforeseen = false;
    const options = confinedResolveOptions(
      folder,
      limits,
      texts,
      new Map([...asBundlerReads].map((f) => [f, values.get(f)])),
      keepValues,
      () => (unforeseen = true),
    );
    if (!keepValues) values.clear();
    let doc: Record<string, unknown>;
    try {
      // json-schema-ref-parser's bundle, made linear by the patch applied at install (src/load/bundle.ts).
      doc = await bundle(new SwaggerParser(), root, {
        ...options,
        resolve: { ...options.resolve, externalRefs: (url: string) => scanned.get(url) },
      });
    } catch (e) {
      throw new LoadError(swaggerProblems(rel(root), failureOf(e)));
    }
    compactIndexKeys(doc);
    const validated = validation.validate(doc).then(({ failure, thread }) => {
      if (failure) throw new LoadError(placeInSources(swaggerProblems(rel(root), failure), { rootFile: root, texts }));
      return thread;
    });
    // Awaited by the caller; a caller that stops early on an error of its own leaves no unhandled rejection.
    validated.catch(() => undefined);
    const scan = new ScanCollector();
    for (const s of scans.values()) scan.add(s);
    return {
      spec: {
        rootFile: root,
        files,
        doc,
        texts,
        values,
        asBundlerReads,
        scans,
        scan: unforeseen ? scanDocument(doc) : scan.finish(),
      },
      validated,
    };
  }
}

/**
 * What `build` makes of a bundled spec while it is validated, given once validation has passed.
 * An invalid spec's problems come first, whatever `build` made or threw meanwhile, as if nothing
 * had been built from it; and at once: `build`'s signal is aborted and nothing waits for it.
 */
export async function whileValidating<T>(
  { spec, validated }: BundledSpec,
  build: (spec: LoadedSpec, signal: AbortSignal) => T | Promise<T>,
): Promise<T> {
  const stop = new AbortController();
  validated.catch(() => stop.abort());
  const building = (async () => build(spec, stop.signal))();
  // Left behind when validation fails first: its outcome is nobody's.
  building.catch(() => undefined);
  let built: T;
  try {
    built = await Promise.race([building, validated.then(() => building)]);
  } catch (e) {
    await validated;
    throw e;
  }
  await validated;
  return built;
}

/** The spec read, bundled and validated (`bundleSpec`, its validation awaited). */
export async function loadSpec(
  rootFile: string,
  limits: LoadLimits = DEFAULT_LOAD_LIMITS,
  previous?: LoadedSpec,
): Promise<LoadedSpec> {
  const { spec, validated } = await bundleSpec(rootFile, limits, previous, 'inline');
  await validated;
  return spec;
}

function swaggerProblems(file: string, failure: ValidationFailure): LoadProblem[] {
  const details = failure.details as OasSchemaError[] | undefined;
  if (Array.isArray(details) && details.length > 0) return oasSchemaProblems(file, details);
  return [{ file, pointer: '', reason: failure.message.split('\n')[0] ?? failure.message }];
}
