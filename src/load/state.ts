import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { ContractAjv } from '../contract/ajv.js';
import { LoadError, type LoadProblem } from '../core/errors.js';
import { compileSnapshot, type Model } from '../core/model.js';
import { SNAPSHOT_FORMAT, type Snapshot, type SnapshotCollection } from '../core/snapshot.js';
import { type ListOperation, readOperations } from '../core/spec/operations.js';
import { follow, isObject } from '../core/spec/pointer.js';
import { buildsUrl, describesFields, lookupField } from '../core/store.js';
import { generatedBodies } from './declared.js';
import { readFixtureFile } from './fixtures.js';
import { generateItems } from './generate.js';
import { checkItems } from './items.js';
import { rel } from './paths.js';
import { type LoadedSpec, loadSpec } from './spec.js';

/** Everything one version of the spec and fixtures gives: built whole, then swapped in whole. */
export interface StubState {
  readonly spec: LoadedSpec;
  /** What the core answers from, serialisable (`workplace-stub snapshot`). */
  readonly snapshot: Snapshot;
  /** The snapshot compiled (operations, items serialized once). */
  readonly model: Model;
  readonly ajv: ContractAjv;
  /** The spec files and fixture files this state was read from (what `--watch` follows). */
  readonly files: readonly string[];
  /** What the stub serves but a designer should know (an unused fixture, a detail path without lookup field). */
  readonly warnings: readonly LoadProblem[];
}

export interface StateOptions {
  readonly specFile: string;
  readonly fixturesDir: string;
  readonly seed: number;
  readonly defaultGenerateCount: number;
}

/**
 * Loads spec and fixtures, checks everything, and builds the snapshot. The items of a collection
 * come from the first of these that gives any (docs/response-selection.md):
 *   1. its fixture file `<fixturesDir>/<x-stub-fixture or resource>.json`;
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
  const doc = spec.doc;
  const { operations, problems } = readOperations(doc, specFile);
  const ajv = new ContractAjv(doc);
  // Compile every declared schema now: a schema Ajv rejects stops start-up, not the first request.
  const pointers = [
    ...operations.all.flatMap((op) => Object.values(op.responses).map((r) => r.schemaPointer)),
    ...operations.writes.flatMap((w) => [w.bodyPointer, ...Object.values(w.responses).map((r) => r.schemaPointer)]),
  ];
  for (const pointer of new Set(pointers)) {
    if (pointer === undefined) continue;
    try {
      ajv.validator(pointer);
    } catch (e) {
      problems.push({ file: specFile, pointer: pointer.slice(1), reason: `invalid JSON Schema: ${(e as Error).message}` });
    }
  }
  if (problems.length > 0) throw new LoadError(problems);

  const collections: Record<string, SnapshotCollection> = {};
  const fixtureFiles: string[] = [];
  const fixtureProblems: LoadProblem[] = [];
  const warnings: LoadProblem[] = [];
  for (const list of operations.lists) {
    const detail = operations.detailOf.get(list.path);
    const itemRoute = operations.routes.find((r) => r.kind === 'detail' && r.collectionPath === list.path);
    const pkParam = itemRoute ? (/\{([^}]+)\}$/.exec(itemRoute.path)?.[1] ?? 'pk') : 'pk';
    const file = path.resolve(opts.fixturesDir, `${list.fixtureName ?? list.resource}.json`);
    fixtureFiles.push(file);
    const stored = await readFixtureFile(file, fixtureProblems);
    const lookup = lookupField(doc, list, { pkParam }, stored?.[0]);
    if (itemRoute && lookup === undefined) {
      warnings.push({
        file: specFile,
        pointer: `${list.itemPointer.slice(1)}`,
        reason: `the items of ${itemRoute.path} carry no "${pkParam}", "pk" or "id" field to look them up by: every pk answers 404 until ${list.itemName} describes one`,
      });
    }
    const withUrl = buildsUrl(doc, list, detail);
    const check = (raw: readonly unknown[], from: string, isStored: boolean) => checkItems(raw, { ajv, list, detail, withUrl, lookup, file: from, stored: isStored }, fixtureProblems);
    const generatedFrom = `${specFile} (generated from ${list.itemPointer}, seed ${opts.seed})`;
    const dynamic = describesFields(doc, list.itemPointer)
      ? check(await generateItems(doc, list, lookup, { seed: opts.seed, count: list.generateCount ?? opts.defaultGenerateCount }), generatedFrom, false)
      : undefined;
    const examples: Record<string, unknown[]> = {};
    for (const [name, value] of envelopeExamples(list)) examples[name] = check(value, `${specFile} example ${name}`, false);
    const firstExample = Object.entries(examples)[0];
    const fromItems = `${specFile} at ${list.itemPointer.slice(1)}/examples`;
    const ownExamples = itemExamples(doc, list);
    let chosen: Pick<SnapshotCollection, 'source' | 'from' | 'items'>;
    if (stored !== undefined) chosen = { source: 'fixture', from: rel(file), items: check(stored, rel(file), true) };
    else if (firstExample !== undefined) chosen = { source: 'examples', from: `${specFile} example ${firstExample[0]}`, items: firstExample[1] };
    else if (ownExamples !== undefined) chosen = { source: 'examples', from: fromItems, items: check(ownExamples, fromItems, false) };
    else if (dynamic !== undefined) chosen = { source: 'generated', from: generatedFrom, items: dynamic };
    else chosen = { source: 'empty', from: 'nothing (no fixture, example or described field)', items: [] };
    collections[list.path] = { ...chosen, ...(dynamic ? { dynamic } : {}), examples };
  }
  if (fixtureProblems.length > 0) throw new LoadError(fixtureProblems);
  warnings.push(...(await unusedFixtures(opts.fixturesDir, fixtureFiles)));
  const snapshot: Snapshot = { format: SNAPSHOT_FORMAT, spec: doc, collections, generatedBodies: generatedBodies(doc, operations, opts.seed) };
  const model = compileSnapshot(snapshot);
  // A declared parameter the stub cannot apply: accepted and ignored, as DRF would; said once here.
  for (const c of model.collections.values()) {
    for (const u of c.filters.unsupported) {
      const param = c.list.parameters.find((p) => p.name === u.param);
      warnings.push({ file: specFile, pointer: (param?.pointer ?? c.list.pointer).slice(1), reason: `query parameter "${u.param}" of ${c.list.operationId} is not applied: ${u.why}` });
    }
  }
  return Object.freeze({ spec, snapshot, model, ajv, files: [...spec.files, ...fixtureFiles], warnings });
}

/** A `.json` file in the fixtures folder that no collection reads (a renamed path, a typo). */
async function unusedFixtures(dir: string, used: readonly string[]): Promise<LoadProblem[]> {
  const names = await readdir(dir).catch(() => [] as string[]);
  const usedSet = new Set(used);
  return names
    .filter((n) => n.endsWith('.json') && !usedSet.has(path.resolve(dir, n)))
    .sort()
    .map((n) => ({
      file: rel(path.resolve(dir, n)),
      pointer: '',
      reason: `no collection of the spec reads this fixture (a renamed path? name it with x-stub-fixture: ${n.replace(/\.json$/, '')} on the list operation)`,
    }));
}

/** Step 2a: the 200 answer's named examples whose value is an envelope (their `results`). */
function envelopeExamples(list: ListOperation): [string, unknown[]][] {
  const out: [string, unknown[]][] = [];
  for (const [name, value] of Object.entries(list.responses['200']?.examples ?? {})) {
    if (isObject(value) && Array.isArray(value.results)) out.push([name, value.results]);
  }
  return out;
}

/** Step 2b: the item schema's own `examples` (each an item). */
function itemExamples(doc: unknown, list: ListOperation): unknown[] | undefined {
  const item = follow(doc, list.itemPointer).node;
  return isObject(item) && Array.isArray(item.examples) && item.examples.length > 0 ? item.examples : undefined;
}

/** The state options of a configuration. */
export function stateOptions(config: StateOptions): StateOptions {
  return { specFile: config.specFile, fixturesDir: config.fixturesDir, seed: config.seed, defaultGenerateCount: config.defaultGenerateCount };
}
