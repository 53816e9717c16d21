import path from 'node:path';
import type * as Yaml from 'yaml';
import type { LoadProblem } from './errors.js';
import { isObject, pointerOf, unescapeToken } from '../openapi/pointer.js';
import { rel } from './paths.js';
import { type Folder, readConfinedText } from './read-confined.js';
import { DEFAULT_LOAD_LIMITS } from './limits.js';
import { yamlPackage } from './yaml-package.js';

/** Where a place of the bundled document was written: the file, the pointer in it, line and column. */
export interface SourcePlace {
  readonly file: string;
  readonly pointer: string;
  readonly line: number;
  readonly column: number;
}

/** What of a loaded spec places its problems: the root file and the text of each file read. */
export interface SpecTexts {
  readonly rootFile: string;
  readonly texts: ReadonlyMap<string, string>;
}

/**
 * The problems of a spec, each told where the designer wrote it. Checks run on the bundled
 * document, in which every `$ref`'d file is inlined under the root: a pointer into it is walked
 * again through the files as written, following each external `$ref` on the way (the bundler
 * inlines a file where such a `$ref` stands), and the place is then found in that file's text.
 * A problem of another file, or not placed by a JSON pointer, is left as it is.
 */
export function placeInSources(problems: readonly LoadProblem[], spec: SpecTexts): LoadProblem[] {
  const root = rel(spec.rootFile);
  const sources = new SourceFiles(spec);
  return problems.map((p) => {
    if (p.file !== root || !p.pointer.startsWith('/') || p.line !== undefined) return p;
    const place = sources.place(p.pointer);
    return place ? { ...p, file: rel(place.file), pointer: place.pointer, line: place.line, column: place.column } : p;
  });
}

/** The files of a spec as written, each parsed once, when a problem first asks for it. */
class SourceFiles {
  readonly #spec: SpecTexts;
  readonly #values = new Map<string, unknown>();
  readonly #documents = new Map<string, { doc: Yaml.Document; lines: Yaml.LineCounter } | undefined>();

  constructor(spec: SpecTexts) {
    this.#spec = spec;
  }

  /** Where the bundled document's `pointer` was written, if it is found again. */
  place(pointer: string): SourcePlace | undefined {
    let file = this.#spec.rootFile;
    let tokens: string[] = [];
    let node = this.#value(file);
    for (const token of pointer.split('/').slice(1).map(unescapeToken)) {
      ({ file, tokens, node } = this.#followExternal(file, tokens, node));
      if (!isObject(node) && !Array.isArray(node)) return undefined;
      node = (node as Record<string, unknown>)[token];
      tokens = [...tokens, token];
    }
    // A problem of the whole of an inlined file (its root schema) is placed at its start.
    ({ file, tokens } = this.#followExternal(file, tokens, node));
    const at = this.#position(file, tokens);
    return at
      ? {
          file,
          pointer: pointerOf(tokens),
          ...at,
        }
      : undefined;
  }

  /** Through an external `$ref` standing at `node` (one after another), to what the bundler inlined there. */
  #followExternal(file: string, tokens: string[], node: unknown): { file: string; tokens: string[]; node: unknown } {
    for (let hops = 0; hops < 32 && isObject(node) && typeof node.$ref === 'string'; hops++) {
      const ref = node.$ref;
      if (ref.startsWith('#')) break;
      const [target = '', fragment = ''] = ref.split('#');
      try {
        file = path.resolve(path.dirname(file), decodeURI(target));
      } catch {
        break;
      }
      tokens = fragment === '' ? [] : fragment.split('/').slice(1).map(unescapeToken);
      node = this.#value(file);
      for (const t of tokens)
        node = isObject(node) || Array.isArray(node) ? (node as Record<string, unknown>)[t] : undefined;
    }
    return { file, tokens, node };
  }

  #value(file: string): unknown {
    if (!this.#values.has(file)) this.#values.set(file, this.#document(file)?.doc.toJS());
    return this.#values.get(file);
  }

  #document(file: string): { doc: Yaml.Document; lines: Yaml.LineCounter } | undefined {
    if (!this.#documents.has(file)) {
      const text = this.#spec.texts.get(file);
      const { LineCounter, parseDocument } = yamlPackage();
      const lines = new LineCounter();
      this.#documents.set(
        file,
        text === undefined ? undefined : { doc: parseDocument(text, { lineCounter: lines, uniqueKeys: false }), lines },
      );
    }
    return this.#documents.get(file);
  }

  /** The line and column of the node at `tokens` in `file`: of its key, when it is a member of a map. */
  #position(file: string, tokens: readonly string[]): { line: number; column: number } | undefined {
    const parsed = this.#document(file);
    if (!parsed) return undefined;
    const { isMap, isSeq, isPair, isScalar } = yamlPackage();
    let node: unknown = parsed.doc.contents;
    let start = (node as Yaml.Node | null)?.range?.[0];
    for (const token of tokens) {
      if (isMap(node)) {
        const pair = node.items.find((p) => isPair(p) && isScalar(p.key) && String(p.key.value) === token);
        if (!pair) return undefined;
        start = (pair.key as Yaml.Node).range?.[0];
        node = pair.value;
      } else if (isSeq(node)) {
        node = node.items[Number(token)];
        start = (node as Yaml.Node | null)?.range?.[0];
      } else return undefined;
    }
    if (start === undefined) return undefined;
    const { line, col } = parsed.lines.linePos(start);
    return { line, column: col };
  }
}

/** The largest fixture read again to place its problems (a failed load only): 32 MiB of JSON. */
const PLACE_MAX_BYTES = 32 * 2 ** 20;

/**
 * The problems of fixture files (JSON, under `folder`), each given the line and column of the item
 * or member its pointer names, the file read again through the folder's confinement (a failed
 * load only, and a file of at most PLACE_MAX_BYTES: a larger one keeps its pointer alone).
 */
export async function placeInFixtures(problems: readonly LoadProblem[], folder: Folder): Promise<LoadProblem[]> {
  const files = new Map<string, SourceFiles | undefined>();
  const out: LoadProblem[] = [];
  for (const p of problems) {
    if (p.line !== undefined || !p.pointer.startsWith('/') || !p.file.endsWith('.json')) {
      out.push(p);
      continue;
    }
    const file = path.resolve(p.file);
    if (!files.has(file)) {
      const read = await readConfinedText(file, folder, { ...DEFAULT_LOAD_LIMITS, maxFileBytes: PLACE_MAX_BYTES });
      files.set(file, read.ok ? new SourceFiles({ rootFile: file, texts: new Map([[file, read.text]]) }) : undefined);
    }
    const place = files.get(file)?.place(p.pointer);
    out.push(place ? { ...p, line: place.line, column: place.column } : p);
  }
  return out;
}
