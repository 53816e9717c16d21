import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { ContractAjv } from '../openapi/ajv.js';
import { formatProblem, LoadError, type LoadProblem } from './errors.js';
import { type CollectionInput, compileModel, type ItemsInput, type Model, shapeOf } from '../core/model.js';
import { prepareQueryset, standsAsQueryset } from '../core/live.js';
import { SNAPSHOT_FORMAT, type Snapshot, type SnapshotCollection } from '../core/snapshot.js';
import { type ListOperation, readOperations } from '../openapi/operations.js';
import { follow, isObject } from '../openapi/pointer.js';
import { itemObject } from '../core/prepared-items.js';
import { generatedBodies } from './declared.js';
import { readOperationFixtures } from './operation-fixtures.js';
import { loadHandlers } from './handlers.js';
import { routeWarnings } from './route-warnings.js';
import { loadKeys } from './keys.js';
import type { Handlers } from '../core/stub/handler-types.js';
import { readFixture } from './fixtures.js';
import { generateItemsSync } from './generate.js';
import { type CheckContext, checkItems } from './items.js';
import type { LoadLimits } from './limits.js';
import { rel } from './paths.js';
import { type Folder, folderOf } from './read-confined.js';
import { lintSchemas } from './schema-lint.js';
import { placeInFixtures, placeInSources } from './source-place.js';
import { bundleSpec, type LoadedSpec, whileValidating } from './spec.js';
import { describesFields } from '../openapi/item-schema.js';

/** Everything one version of the spec and fixtures gives: built whole, then swapped in whole. */
export interface StubState {
  readonly spec: LoadedSpec;
  /** What the core answers from: operations read once, items prepared (generated ones on first use). */
  readonly model: Model;
  readonly ajv: ContractAjv;
  /** The spec files and fixture files this state was read from (what `--watch` follows). */
  readonly files: readonly string[];
  /** What the stub serves but a designer should know (an unused fixture, a parameter it cannot apply). */
  readonly warnings: readonly LoadProblem[];
  /**
   * The state as a serialisable snapshot (`workplace-stub snapshot`), made when asked for: every
   * collection's items, generated ones included.
   */
  readonly snapshot: Snapshot;
  /** The designer's handlers by operationId (`--handlers`), if any. */
  readonly handlers: Handlers | undefined;
  /** The token keys TokenAuthentication accepts (`--tokens`); any key when undefined. */
  readonly tokens: ReadonlySet<string> | undefined;
  /** The session keys of logged-in users (`--sessions`); none when undefined. */
  readonly sessions: ReadonlySet<string> | undefined;
}

export interface StateOptions {
  readonly specFile: string;
  readonly fixturesDir: string;
  readonly seed: number;
  readonly defaultGenerateCount: number;
  /** `--handlers`: the module of handlers by operationId. */
  readonly handlersFile?: string | undefined;
  /** `--tokens`: a JSON array of valid token keys. */
  readonly tokensFile?: string | undefined;
  /** `--sessions`: a JSON array of the session keys of logged-in users. */
  readonly sessionsFile?: string | undefined;
  readonly limits?: LoadLimits;
  /**
   * The state being served, when this one replaces it (`--watch`): items that did not change are
   * taken over as they are (checked and serialized once, kept once in memory).
   */
  readonly previous?: StubState;
  /** Told of a problem found after start-up: generated items that break their own schema. */
  readonly onLateProblem?: (problem: LoadProblem) => void;
  /**
   * No state will be loaded after this one with it as `previous` (a start without `--watch`): the
   * spec files' parsed values are not kept for it (spec.ts, `keepValues`). Default false.
   */
  readonly final?: boolean;
}

/**
 * Loads spec and fixtures, checks everything, and builds the model. The items of a collection
 * come from the first of these that gives any (docs/response-selection.md):
 *   1. its fixture file `<fixturesDir>/<x-stub-fixture or resource>.json`;
 *   2. the spec's examples: the 200 answer's first named example (its `results`), else the item
 *      schema's `examples`;
 *   3. data generated from the item schema with the seed, when the schema describes fields
 *      (`x-stub-count` items, else the default count), made on the collection's first request;
 *   4. nothing: the empty collection (§2.1 rule 1).
 * Throws a LoadError with every problem found.
 */
export async function loadState(opts: StateOptions): Promise<StubState> {
  // Built while the spec is validated (on a worker thread for a large spec).
  return whileValidating(
    await bundleSpec(opts.specFile, opts.limits, opts.previous?.spec, 'auto', opts.final !== true),
    (spec, signal) => buildState(spec, opts, signal),
  );
}

/** The state of a bundled spec; `signal` stops it (the spec turned out invalid: nothing built counts). */
async function buildState(spec: LoadedSpec, given: StateOptions, signal: AbortSignal): Promise<StubState> {
  // The state before is read here and never kept: the closures this state keeps (its lazy
  // snapshot, its collections' generated items) see `opts`, and through it would hold every
  // state before this one, each with its items.
  const previous = given.previous;
  const opts: StateOptions = { ...given, previous: undefined };
  const specFile = rel(spec.rootFile);
  const doc = spec.doc;
  const { operations, problems } = readOperations(doc, specFile);
  const sameSpec =
    previous !== undefined && (previous.spec === spec || JSON.stringify(previous.spec.doc) === JSON.stringify(doc));
  // The same spec again (a fixture edited): its validators, compiled already, serve again.
  const ajv = sameSpec && previous ? previous.ajv : new ContractAjv(doc, spec.scan);
  // What Ajv's strict compilation would refuse stops start-up; validators compile when first used.
  const pointers = [
    ...operations.all.flatMap((op) => [op.itemPointer, ...Object.values(op.responses).map((r) => r.schemaPointer)]),
    ...[...operations.writes, ...operations.customs].flatMap((w) => [
      w.bodyPointer,
      ...Object.values(w.responses).map((r) => r.schemaPointer),
    ]),
  ].filter((p): p is string => p !== undefined);
  const lint = lintSchemas(doc, ajv, pointers, specFile);
  problems.push(...lint.problems);
  if (problems.length > 0) throw new LoadError(placeInSources(problems, spec));

  const inputs: Record<string, CollectionInput> = {};
  const fixtureFiles: string[] = [];
  const fixtureProblems: LoadProblem[] = [];
  const warnings: LoadProblem[] = placeInSources(lint.warnings, spec);
  const fixtures = await fixturesFolder(opts.fixturesDir);
  /** Collections whose fixture was read in its queryset's order (filter and ordering), all kept. */
  const inQuerysetOrder = new Set<string>();
  for (const list of operations.lists) {
    signal.throwIfAborted();
    const file = path.resolve(opts.fixturesDir, `${list.fixtureName ?? list.resource}.json`);
    fixtureFiles.push(file);
    const ctxOf = (from: string, stored: boolean, sample?: unknown): CheckContext => {
      const shape = shapeOf(doc, operations, list, sample);
      return {
        ajv,
        list,
        detail: operations.detailOf.get(list.path),
        withUrl: shape.withUrl,
        lookup: shape.lookup,
        writeOnly: shape.writeOnly,
        file: from,
        stored,
      };
    };
    // The items served before under the same spec: a reload takes over those that did not change.
    const before = sameSpec ? previous?.model.collections.get(list.path) : undefined;
    const read = fixtures.absent(file)
      ? undefined
      : await readFixture(file, fixtureProblems, {
          dir: opts.fixturesDir,
          folder: fixtures.folder,
          limits: opts.limits,
          signal,
          doc,
          checkOf: (sample) => ({ shape: shapeOf(doc, operations, list, sample), ctx: ctxOf(rel(file), true, sample) }),
          previous: before?.source === 'fixture' ? before.items.items : undefined,
          queryset: list.queryset,
        });
    const stored = read?.kind === 'read' ? read : undefined;
    const lookup = shapeOf(doc, operations, list, stored?.sample).lookup;
    const carried = stored?.carried;
    if (carried) {
      warnings.push({
        file: rel(file),
        pointer: `/${carried.index}`,
        reason: `${carried.names.map((f) => `"${f}"`).join(', ')}: writeOnly in ${list.itemName}, so never served (DRF never represents a write_only field): the items are served without ${carried.names.length > 1 ? 'them' : 'it'}`,
      });
    }
    const generatedFrom = `${specFile} (generated from ${list.itemPointer}, seed ${opts.seed})`;
    const count = list.generateCount ?? opts.defaultGenerateCount;
    const dynamic: ItemsInput | undefined = describesFields(doc, list.itemPointer)
      ? {
          count,
          lazy: () => {
            const late: LoadProblem[] = [];
            const items = checkItems(
              generateItemsSync(doc, list, lookup, { seed: opts.seed, count }),
              ctxOf(generatedFrom, false),
              late,
            );
            for (const p of late) opts.onLateProblem?.({ ...p, reason: `generated item left out: ${p.reason}` });
            return items;
          },
        }
      : undefined;
    const examples: Record<string, unknown[]> = {};
    for (const [name, value] of envelopeExamples(list))
      examples[name] = checkItems(value, ctxOf(`${specFile} example ${name}`, false, value[0]), fixtureProblems);
    const firstExample = Object.entries(examples)[0];
    const fromItems = `${specFile} at ${list.itemPointer.slice(1)}/examples`;
    const ownExamples = itemExamples(doc, list);
    let chosen: Pick<CollectionInput, 'source' | 'from' | 'items'>;
    if (stored?.inQuerysetOrder) inQuerysetOrder.add(list.path);
    if (stored !== undefined) chosen = { source: 'fixture', from: rel(file), items: { prepared: stored.set } };
    else if (firstExample !== undefined)
      chosen = { source: 'examples', from: `${specFile} example ${firstExample[0]}`, items: firstExample[1] };
    else if (ownExamples !== undefined)
      chosen = {
        source: 'examples',
        from: fromItems,
        items: checkItems(ownExamples, ctxOf(fromItems, false, ownExamples[0]), fixtureProblems),
      };
    else if (dynamic !== undefined) chosen = { source: 'generated', from: generatedFrom, items: dynamic };
    else chosen = { source: 'empty', from: 'nothing (no fixture, example or described field)', items: [] };
    inputs[list.path] = { ...chosen, ...(dynamic ? { dynamic } : {}), examples };
  }
  const operationFixtures = await readOperationFixtures(operations, opts.fixturesDir, ajv, opts.limits);
  fixtureProblems.push(...operationFixtures.problems);
  fixtureFiles.push(...operationFixtures.files);
  const code = opts.handlersFile === undefined ? undefined : await loadHandlers(opts.handlersFile, operations);
  const tokens = opts.tokensFile === undefined ? undefined : await loadKeys(opts.tokensFile);
  const sessions = opts.sessionsFile === undefined ? undefined : await loadKeys(opts.sessionsFile);
  fixtureProblems.push(...(code?.problems ?? []), ...(tokens?.problems ?? []), ...(sessions?.problems ?? []));
  warnings.push(...(code?.warnings ?? []));
  for (const extra of [opts.handlersFile, opts.tokensFile, opts.sessionsFile])
    if (extra !== undefined) fixtureFiles.push(path.resolve(extra));
  if (fixtureProblems.length > 0) throw new LoadError(await placeInFixtures(fixtureProblems, fixtures.folder));
  warnings.push(...unusedFixtures(opts.fixturesDir, fixtures.names, fixtureFiles));
  const bodies = generatedBodies(doc, operations, opts.seed);
  const model = compileModel(doc, operations, inputs, bodies, operationFixtures.bodies);
  warnings.push(...routeWarnings(model, code?.handlers, specFile));
  // A declared parameter the stub cannot apply: accepted and ignored, as DRF would; said once here.
  for (const c of model.collections.values()) {
    for (const u of c.filters.unsupported) {
      const param = c.list.parameters.find((p) => p.name === u.param);
      warnings.push({
        file: specFile,
        pointer: (param?.pointer ?? c.list.pointer).slice(1),
        reason: `query parameter "${u.param}" of ${c.list.operationId} is not applied: ${u.why}`,
      });
    }
  }
  // A fixture's queryset (`x-queryset`: its filter and ordering): known as read when the fixture
  // stands in it; else a large one's made now, a turn of the event loop at a time, not by the
  // collection's first request.
  for (const c of model.collections.values()) {
    if (c.source !== 'fixture') continue;
    if (inQuerysetOrder.has(c.list.path)) standsAsQueryset(c);
    else if (c.count >= 10_000) await prepareQueryset(c, nextTurn);
  }
  let snapshot: Snapshot | undefined;
  return Object.freeze({
    spec,
    model,
    ajv,
    files: [...spec.files, ...fixtureFiles],
    warnings,
    handlers: code?.handlers,
    tokens: tokens?.keys,
    sessions: sessions?.keys,
    get snapshot(): Snapshot {
      snapshot ??= snapshotOf(doc, model, inputs, bodies, operationFixtures.bodies);
      return snapshot;
    },
  });
}

/**
 * The fixtures folder, resolved once, and the names in it: a collection whose fixture file is not
 * among them has none, known without a system call (2,000 collections without fixtures cost
 * nothing). Only for plain names (letters, digits, `.`, `_`, `-`, at most 200) in a folder whose
 * names are all ASCII, compared without regard to case (a case-insensitive file system opens
 * `Desk.json` as `desk.json`); any other name is looked for on disk as always, so that one the
 * system refuses (too long) is still told why. A file created after the listing is read by
 * `--watch`'s next load.
 */
async function fixturesFolder(
  dir: string,
): Promise<{ folder: Folder; names: readonly string[]; absent: (file: string) => boolean }> {
  const folder = await folderOf(dir, 'the fixtures folder');
  const names = await readdir(dir).catch(() => undefined);
  const plain = (name: string) => /^[A-Za-z0-9._-]{1,200}$/.test(name);
  const lower = names?.every((n) => /^[\x00-\x7f]*$/.test(n)) ? new Set(names.map((n) => n.toLowerCase())) : undefined;
  return {
    folder,
    names: names ?? [],
    absent: (file) =>
      lower !== undefined && plain(path.basename(file)) && !lower.has(path.basename(file).toLowerCase()),
  };
}

/** The serialisable snapshot of a loaded state (every item set made, as plain JSON values). */
function snapshotOf(
  doc: Readonly<Record<string, unknown>>,
  model: Model,
  inputs: Readonly<Record<string, CollectionInput>>,
  bodies: Readonly<Record<string, unknown>>,
  fixtureBodies: Readonly<Record<string, unknown>>,
): Snapshot {
  const collections: Record<string, SnapshotCollection> = {};
  for (const [p, input] of Object.entries(inputs)) {
    const c = model.collections.get(p);
    if (!c) continue;
    const examples: Record<string, unknown[]> = {};
    for (const name of c.examples.keys()) examples[name] = Array.from(c.examples.get(name)?.items ?? [], itemObject);
    const dynamic = c.dynamic && Array.from(c.dynamic.items, itemObject);
    collections[p] = {
      source: input.source,
      from: input.from,
      items: Array.from(c.items.items, itemObject),
      ...(dynamic ? { dynamic } : {}),
      examples,
    };
  }
  return {
    format: SNAPSHOT_FORMAT,
    spec: doc,
    collections,
    generatedBodies: bodies,
    ...(Object.keys(fixtureBodies).length > 0 ? { fixtureBodies } : {}),
  };
}

/** A `.json` file in the fixtures folder that no collection reads (a renamed path, a typo). */
function unusedFixtures(dir: string, names: readonly string[], used: readonly string[]): LoadProblem[] {
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

/** Prints a problem found after start-up (for onLateProblem). */
export function latePrinter(log: (line: string) => void): (p: LoadProblem) => void {
  return (p) => log(`warning: ${formatProblem(p)}`);
}

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
