import path from 'node:path';
import type { StubConfig } from './config.js';
import { ContractAjv } from './contract/ajv.js';
import { LoadError, type LoadProblem } from './errors.js';
import { generateItems } from './fixtures/generate.js';
import { type Collection, describesFields, EMPTY_SET, type ItemSet, prepareItems, readFixtureFile } from './fixtures/store.js';
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

/** The state options of a configuration. */
export function stateOptions(config: StubConfig): StateOptions {
  return { specFile: config.specFile, fixturesDir: config.fixturesDir, seed: config.seed, defaultGenerateCount: config.generateCount };
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
    const prepare = (raw: readonly unknown[], from: string, stored: boolean) =>
      prepareItems(raw, { doc: spec.doc, ajv, list, detail, file: from, stored }, fixtureProblems);
    const generatedFrom = `${specFile} (generated from ${list.itemPointer}, seed ${opts.seed})`;
    const dynamic = describesFields(spec.doc, list.itemPointer)
      ? prepare(await generateItems(spec.doc, list, detail, { seed: opts.seed, count: list.generateCount ?? opts.defaultGenerateCount }), generatedFrom, false)
      : undefined;
    const examples = new Map<string, ItemSet>();
    for (const [name, value] of envelopeExamples(list)) examples.set(name, prepare(value.map(stripUrl), `${specFile} example ${name}`, false));
    const stored = await readFixtureFile(file, fixtureProblems);
    const fromItems = `${specFile} at ${list.itemPointer.slice(1)}/examples`;
    const ownExamples = itemExamples(spec.doc, list);
    const firstExample = [...examples][0];
    let chosen: { source: Collection['source']; from: string; set: ItemSet };
    if (stored !== undefined) chosen = { source: 'fixture', from: rel(file), set: prepare(stored, rel(file), true) };
    else if (firstExample !== undefined) chosen = { source: 'examples', from: `${specFile} example ${firstExample[0]}`, set: firstExample[1] };
    else if (ownExamples !== undefined) chosen = { source: 'examples', from: fromItems, set: prepare(ownExamples, fromItems, false) };
    else if (dynamic !== undefined) chosen = { source: 'generated', from: generatedFrom, set: dynamic };
    else chosen = { source: 'empty', from: 'nothing (no fixture, example or described field)', set: EMPTY_SET };
    collections.set(list.path, Object.freeze({ list, detail, source: chosen.source, file: chosen.from, ...chosen.set, dynamic, examples }));
  }
  if (fixtureProblems.length > 0) throw new LoadError(fixtureProblems);
  return Object.freeze({ spec, operations, ajv, collections, files: [...spec.files, ...fixtureFiles] });
}

/** Step 2a: the 200 answer's named examples whose value is an envelope (their `results`). */
function envelopeExamples(list: Collection['list']): [string, unknown[]][] {
  const out: [string, unknown[]][] = [];
  for (const [name, value] of Object.entries(list.responses['200']?.examples ?? {})) {
    if (isObject(value) && Array.isArray(value.results)) out.push([name, value.results]);
  }
  return out;
}

/** Step 2b: the item schema's own `examples` (each an item). */
function itemExamples(doc: unknown, list: Collection['list']): unknown[] | undefined {
  const item = follow(doc, list.itemPointer).node;
  return isObject(item) && Array.isArray(item.examples) && item.examples.length > 0 ? item.examples.map(stripUrl) : undefined;
}

function stripUrl(item: unknown): unknown {
  if (item === null || typeof item !== 'object' || Array.isArray(item)) return item;
  const { url: _url, ...rest } = item as Record<string, unknown>;
  return rest;
}
