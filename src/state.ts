import path from 'node:path';
import { ContractAjv } from './contract/ajv.js';
import { LoadError, type LoadProblem } from './errors.js';
import { generateItems } from './fixtures/generate.js';
import { type Collection, describesFields, prepareItems, readFixtureFile } from './fixtures/store.js';
import { type LoadedSpec, loadSpec } from './spec/load.js';
import { type Operations, readOperations } from './spec/operations.js';
import { follow, isObject } from './spec/pointer.js';

/** Everything one version of the spec and fixtures gives: built whole, then swapped in whole. */
export interface StubState {
  readonly spec: LoadedSpec;
  readonly operations: Operations;
  readonly ajv: ContractAjv;
  /** By collection path (`/api/v1/desk`). */
  readonly collections: ReadonlyMap<string, Collection>;
  /** The spec files and fixture files this state was read from (what `--watch` follows). */
  readonly files: readonly string[];
}

export interface StateOptions {
  readonly specFile: string;
  readonly fixturesDir: string;
  readonly seed: number;
  readonly defaultGenerateCount: number;
}

function rel(file: string): string {
  const r = path.relative(process.cwd(), file);
  return r.startsWith('..') ? file : r;
}

/**
 * Loads spec and fixtures and prepares every answer's parts. The items of a collection come from
 * the first of these that gives any (docs/response-selection.md):
 *   1. its fixture file `<fixturesDir>/<resource>.json`;
 *   2. the spec's examples: the 200 answer's first named example (its `results`), else the item
 *      schema's `examples`;
 *   3. data generated from the item schema with the seed, when the schema describes fields
 *      (`x-stub-count` items, else the default count);
 *   4. nothing: the empty collection (§2.1 rule 1).
 * Throws a LoadError with every problem found.
 */
export async function loadState(opts: StateOptions): Promise<StubState> {
  const spec = await loadSpec(opts.specFile);
  const specFile = rel(spec.rootFile);
  const { operations, problems } = readOperations(spec.doc, specFile);
  const ajv = new ContractAjv(spec.doc);
  // Compile every declared schema now: a schema Ajv rejects stops start-up, not the first request.
  for (const op of operations.all) {
    for (const r of Object.values(op.responses)) {
      if (!r.schemaPointer) continue;
      try {
        ajv.validator(r.schemaPointer);
      } catch (e) {
        problems.push({ file: specFile, pointer: r.schemaPointer.slice(1), reason: `invalid JSON Schema: ${(e as Error).message}` });
      }
    }
  }
  if (problems.length > 0) throw new LoadError(problems);

  const collections = new Map<string, Collection>();
  const fixtureFiles: string[] = [];
  const fixtureProblems: LoadProblem[] = [];
  for (const list of operations.lists) {
    const detail = operations.detailOf.get(list.path);
    const file = path.resolve(opts.fixturesDir, `${list.resource}.json`);
    fixtureFiles.push(file);
    const stored = await readFixtureFile(file, fixtureProblems);
    let source: Collection['source'] = 'empty';
    let raw: readonly unknown[] = [];
    let from = rel(file);
    if (stored !== undefined) {
      source = 'fixture';
      raw = stored;
    } else {
      const examples = exampleItems(spec.doc, list);
      if (examples !== undefined) {
        source = 'examples';
        raw = examples.items;
        from = `${specFile} at ${examples.pointer}`;
      } else if (describesFields(spec.doc, list.itemPointer)) {
        source = 'generated';
        raw = await generateItems(spec.doc, list, detail, { seed: opts.seed, count: list.generateCount ?? opts.defaultGenerateCount });
        from = `${specFile} (generated, seed ${opts.seed})`;
      }
    }
    const prepared = prepareItems(raw, { doc: spec.doc, ajv, list, detail, file: from, stored: source === 'fixture' }, fixtureProblems);
    collections.set(list.path, Object.freeze({ list, detail, source, file: from, ...prepared }));
  }
  if (fixtureProblems.length > 0) throw new LoadError(fixtureProblems);
  return Object.freeze({ spec, operations, ajv, collections, files: [...spec.files, ...fixtureFiles] });
}

/** Step 2: items from the spec's examples, without the urls the stub builds itself. */
function exampleItems(doc: unknown, list: Collection['list']): { items: unknown[]; pointer: string } | undefined {
  const ok = list.responses['200'];
  for (const [name, value] of Object.entries(ok?.examples ?? {})) {
    if (value !== null && typeof value === 'object' && Array.isArray((value as { results?: unknown }).results)) {
      return { items: (value as { results: unknown[] }).results.map(stripUrl), pointer: `${ok?.schemaPointer ?? ''} examples/${name}` };
    }
  }
  const item = follow(doc, list.itemPointer).node;
  if (isObject(item) && Array.isArray(item.examples) && item.examples.length > 0) {
    return { items: item.examples.map(stripUrl), pointer: `${list.itemPointer.slice(1)}/examples` };
  }
  return undefined;
}

function stripUrl(item: unknown): unknown {
  if (item === null || typeof item !== 'object' || Array.isArray(item)) return item;
  const { url: _url, ...rest } = item as Record<string, unknown>;
  return rest;
}
