import { type FileHandle, open, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { stringify } from 'yaml';
import type { ListOperation } from '../openapi/operations.js';
import { type CheckOptions, runCheck } from './checker.js';
import type { CrawlObserver } from './collection-check.js';
import { SchemaInferrer } from './infer-schema.js';
import type { Contract } from './load.js';
import { memberText, stringifyExact, withoutMember } from './json.js';
import { REDACTED, Redactor } from './redact.js';
import type { CheckReport, EndpointResult } from './report.js';
import { BaseScope } from './scope.js';
import { buildsUrl, describesFields, lookupField, writeOnlyFields } from '../openapi/item-schema.js';
import { isObject } from '../openapi/pointer.js';
import { PK_SEGMENT } from '../core/django/urls.js';
import { count, formatBytes } from './words.js';
import { DEFAULT_LOAD_LIMITS as LOADER_LIMITS } from '../load/limits.js';
import { carryOver, commitStage, discardStage, openStage, type Stage } from './record-folder.js';

export type RecordOptions = Omit<CheckOptions, 'itemUrls' | 'probes' | 'observer'> & {
  /** The folder the fixtures go to (created when missing, replaced whole at the end). */
  readonly outDir: string;
  /** Overwrite fixtures that exist. */
  readonly force: boolean;
  /** The largest fixture written (the loader's limit unless a test sets another). */
  readonly maxFileBytes?: number;
  /**
   * Told the staging folder when it is made, and undefined once it is in place or removed: what a
   * signal handler removes before the process ends (src/cli/record.ts).
   */
  readonly onStage?: (dir: string | undefined) => void;
};

export interface RecordedCollection {
  readonly resource: string;
  /** Where the fixture is once the recording is in place. */
  readonly file: string;
  items: number;
  written: boolean;
  /** Why the fixture was not written. */
  reason?: string;
  /** Items that break the item schema (the fixture would stop the stub). */
  invalid: number;
  /** Items in which a credential was found and redacted. */
  redacted: number;
}

export type RecordResult =
  | {
      ok: true;
      report: CheckReport;
      collections: RecordedCollection[];
      suggested: string | undefined;
      pageSize: number | undefined;
      metadata: string | undefined;
      /** Files of the folder before that this recording did not write, carried into it. */
      carried: string[];
    }
  | { ok: false; error: string };

/** The file a collection's fixture is read from by the stub: `<x-stub-fixture or resource>.json`. */
const fixtureFile = (list: ListOperation): string => `${list.fixtureName ?? list.resource}.json`;
const SUGGESTED_SCHEMAS = 'suggested-schemas.yaml';
// Not `.json`: the stub refuses a .json file in its fixtures folder that no collection reads.
const RECORDING_NOTE = 'recording.yaml';

interface Pending {
  readonly list: ListOperation;
  /** The fixture in the staging folder. */
  readonly staged: string;
  handle: FileHandle | undefined;
  readonly entry: RecordedCollection;
  readonly infer: SchemaInferrer | undefined;
  /** The stub builds the items' url: a recorded one is dropped wherever it points. */
  readonly buildsUrl: boolean;
  /** The item path's parameter, the first choice of the field items are looked up by (as the loader). */
  readonly pkParam: string;
  /** The field items are looked up by, once the first item told it. */
  lookup: string | undefined | null;
  /** Each pk written (as its text) and the page it came from: the loader refuses a pk twice. */
  readonly pks: Map<string, number>;
  bytes: number;
  /** Why the fixture cannot be written, found while items came (a pk twice, too large). */
  broken: string | undefined;
}

/**
 * Records a deployment into fixtures: crawls it as the checker does (same bounds, same rules,
 * credentials only to the base) and streams each collection's items into `<out>/<resource>.json`
 * as they arrive, each validated against the item schema, its url removed (the stub builds it per
 * request), any credential redacted, integers as the deployment wrote them. A fixture is written
 * only when its collection was crawled to the end and the stub would load it: every item valid, no
 * pk twice (an insert while crawling shifts an item onto the next page), within the loader's size;
 * a partial or refused fixture would serve a different deployment or stop the stub. For
 * collections whose item schema describes no field, a schema inferred from the items goes to
 * `suggested-schemas.yaml`, for a designer to review. Everything is written into a staging folder
 * that takes `--out`'s place at the end (record-folder.ts).
 */
export async function runRecord(contract: Contract, opts: RecordOptions): Promise<RecordResult> {
  const scope = new BaseScope(opts.baseUrl);
  const redactor = Redactor.forHeaders(opts.headers, [scope.password, `${scope.username}:${scope.password}`]);
  const doc = contract.spec.doc;
  const maxFileBytes = opts.maxFileBytes ?? LOADER_LIMITS.maxFileBytes;
  const lists = contract.operations.lists.filter((l) => opts.only.length === 0 || opts.only.includes(l.resource));
  const targets = [...lists.map(fixtureFile), SUGGESTED_SCHEMAS, RECORDING_NOTE];
  const opened = await openStage(opts.outDir, targets, opts.force);
  if (!opened.ok) return opened;
  const stage = opened.stage;
  opts.onStage?.(stage.dir);
  const pending = new Map<string, Pending>();
  for (const list of lists) {
    const route = contract.operations.itemRouteOf.get(list.path);
    const detail = contract.operations.detailOf.get(list.path);
    pending.set(list.path, {
      list,
      staged: path.join(stage.dir, fixtureFile(list)),
      handle: undefined,
      entry: {
        resource: list.resource,
        file: path.join(stage.out, fixtureFile(list)),
        items: 0,
        written: false,
        invalid: 0,
        redacted: 0,
      },
      infer: describesFields(doc, list.itemPointer) ? undefined : new SchemaInferrer(),
      buildsUrl: buildsUrl(doc, list, detail) && !writeOnlyFields(doc, list.itemPointer).includes('url'),
      pkParam: (route && /\{([^}]+)\}$/.exec(route.path)?.[1]) ?? 'pk',
      lookup: null,
      pks: new Map(),
      bytes: 0,
      broken: undefined,
    });
  }
  let pageSize: number | undefined;
  const observer: CrawlObserver = {
    items: async (list, items, page) => {
      const p = pending.get(list.path);
      if (!p) return;
      if (page.hasNext && page.number === 1) pageSize = Math.max(pageSize ?? 0, items.length);
      if (p.broken !== undefined) return;
      // Never through a link: the stage is this recording's own, and `wx` refuses any file there.
      p.handle ??= await open(p.staged, 'wx');
      let text = '';
      for (const item of items) {
        const line = fixtureItem(contract, scope, redactor, p, item, page.number);
        if (p.broken !== undefined) return;
        if (line === undefined) continue;
        const piece = `${p.entry.items === 0 ? '[\n' : ',\n'}${line}`;
        // The closing `\n]\n` is counted too: the file as the loader will find it.
        if (p.bytes + Buffer.byteLength(text) + Buffer.byteLength(piece) + 3 > maxFileBytes) {
          p.broken = `larger than ${formatBytes(maxFileBytes)}, the largest fixture the stub reads`;
          return;
        }
        text += piece;
        p.entry.items++;
      }
      if (text !== '') {
        p.bytes += Buffer.byteLength(text);
        await p.handle.write(text);
      }
    },
    done: async (list, result) => {
      const p = pending.get(list.path);
      if (p) await finish(p, result, opts.allowTruncated ?? false);
    },
  };
  let placed = false;
  try {
    const report = await runCheck(contract, { ...opts, itemUrls: 0, probes: false, observer });
    const collections = [...pending.values()].map((p) => p.entry);
    // Nothing was recorded: nothing is written (a second try needs no --force).
    if (report.unreachable !== undefined || report.refused)
      return { ok: true, report, collections, suggested: undefined, pageSize, metadata: undefined, carried: [] };
    const suggested = await writeSuggestions(stage, scope, [...pending.values()]);
    const carried = await carryOver(stage, targets);
    const note = recordingNote(stage.out, scope, report, collections, pageSize, suggested, carried);
    await writeFile(path.join(stage.dir, RECORDING_NOTE), note, { flag: 'wx' });
    await commitStage(stage);
    placed = true;
    for (const c of collections) c.written = c.reason === undefined;
    const metadata = path.join(stage.out, RECORDING_NOTE);
    return { ok: true, report, collections, suggested, pageSize, metadata, carried };
  } finally {
    for (const p of pending.values()) await p.handle?.close().catch(() => undefined);
    if (!placed) discardStage(stage.dir);
    opts.onStage?.(undefined);
  }
}

/** One item as its fixture holds it (indented JSON), or undefined when it cannot be recorded. */
function fixtureItem(
  contract: Contract,
  scope: BaseScope,
  redactor: Redactor,
  p: Pending,
  item: unknown,
  page: number,
): string | undefined {
  if (!isObject(item)) {
    p.entry.invalid++;
    return undefined;
  }
  p.infer?.add(item);
  // The field the loader looks items up by: the item path's parameter, pk or id, among the
  // schema's fields and the first item's members.
  if (p.lookup === null) p.lookup = lookupField(contract.spec.doc, p.list, { pkParam: p.pkParam }, item);
  const pk = p.lookup === undefined ? undefined : memberText(item, p.lookup);
  // What the loader refuses: an item against its schema, or (where the stub builds the url from
  // the pk) a pk that cannot be a path segment. The collection will not be written.
  if (
    contract.ajv.validate(p.list.itemPointer, item).length > 0 ||
    (p.buildsUrl && (pk === undefined || !PK_SEGMENT.test(pk)))
  ) {
    p.entry.invalid++;
    return undefined;
  }
  if (pk !== undefined) {
    const before = p.pks.get(pk);
    if (before !== undefined) {
      p.broken = `${p.lookup ?? 'pk'} ${pk} came on page ${before} and again on page ${page}: the collection changed while it was crawled (record it again)`;
      return undefined;
    }
    p.pks.set(pk, page);
  }
  // The item's own url names the recorded deployment: the stub builds it per request (§9.2).
  const kept = p.buildsUrl || scope.holdsLink(item.url) ? withoutMember(item, 'url') : item;
  // Integers exactly as the deployment sent them (a BigAutoField pk past 2^53 is not rounded).
  const json = stringifyExact(kept, 2);
  const safe = redactor.redact(json);
  if (safe !== json) {
    p.entry.redacted++;
    // A secret that spanned JSON's own syntax: better no item than a broken file.
    if (!parses(safe)) {
      p.entry.invalid++;
      return undefined;
    }
  }
  return safe.replace(/^/gm, '  ');
}

function parses(json: string): boolean {
  try {
    JSON.parse(json);
    return true;
  } catch {
    return false;
  }
}

async function finish(p: Pending, result: EndpointResult, allowTruncated: boolean): Promise<void> {
  const e = p.entry;
  if (result.pages === 0) e.reason = 'no page of the collection could be read';
  else if (result.truncated && !allowTruncated)
    e.reason = `the crawl stopped at --max-pages before the last page (--allow-truncated records what was read)`;
  else if (!result.reachedEnd && !result.truncated)
    e.reason = `the crawl stopped at page ${result.pages + 1} (see the check's violations)`;
  else if (p.broken !== undefined) e.reason = p.broken;
  else if (e.invalid > 0)
    e.reason = `${count(e.invalid, 'item')} the stub would refuse (against the item schema, or a pk that cannot be a path segment)`;
  const handle = p.handle ?? (e.reason === undefined ? await open(p.staged, 'wx') : undefined);
  p.handle = undefined;
  if (handle) {
    try {
      if (e.reason === undefined) await handle.write(e.items === 0 ? '[]\n' : '\n]\n');
    } finally {
      await handle.close();
    }
  }
  if (e.reason !== undefined) await rm(p.staged, { force: true });
}

async function writeSuggestions(
  stage: Stage,
  scope: BaseScope,
  pending: readonly Pending[],
): Promise<string | undefined> {
  const schemas: Record<string, unknown> = {};
  for (const p of pending) {
    if (!p.infer || p.infer.count === 0 || p.infer.fields.length === 0) continue;
    schemas[p.list.itemName] = {
      ...p.infer.schema(),
      description: `An item of ${p.list.path}, inferred from ${p.infer.count} recorded items. Review before use.`,
    };
  }
  if (Object.keys(schemas).length === 0) return undefined;
  const file = path.join(stage.dir, SUGGESTED_SCHEMAS);
  const header = [
    `# Item schemas inferred from a recording of ${scope.href} on ${new Date().toISOString().slice(0, 10)}, for the`,
    '# collections whose item schema in the spec describes no field. For a designer to review and copy into',
    `# openapi/schemas/items.yaml: nothing reads this file. Types and required members come from the items`,
    '# seen, so a member that happened to be absent or null in every recorded item is missed or loose.',
    '',
  ].join('\n');
  await writeFile(file, `${header}${stringify(schemas, { lineWidth: 0 })}`, { flag: 'wx' });
  return path.join(stage.out, SUGGESTED_SCHEMAS);
}

function recordingNote(
  out: string,
  scope: BaseScope,
  report: CheckReport,
  collections: readonly RecordedCollection[],
  pageSize: number | undefined,
  suggested: string | undefined,
  carried: readonly string[],
): string {
  const complete = collections.every((c) => c.reason === undefined);
  const note = {
    recorded: scope.href,
    at: new Date().toISOString(),
    // The stub pages with its own PAGE_SIZE: serve with the deployment's to answer the same pages.
    // Only a complete recording is one to serve: the stub would make up the collections missing.
    ...(complete
      ? { serve: `workplace-stub --fixtures ${out}${pageSize ? ` --page-size ${pageSize}` : ''}` }
      : {
          incomplete: `${count(collections.filter((c) => c.reason !== undefined).length, 'collection')} not recorded`,
        }),
    pageSize: pageSize ?? null,
    contractViolations: report.violations.length,
    collections: Object.fromEntries(
      collections.map((c) => [
        c.resource,
        c.reason === undefined
          ? { items: c.items, file: path.basename(c.file), ...(c.redacted ? { redacted: c.redacted } : {}) }
          : { written: false, reason: c.reason },
      ]),
    ),
    suggestedSchemas: suggested ? path.basename(suggested) : null,
    // Files of the folder before that this recording did not write (--only, a README), kept.
    ...(carried.length > 0 ? { keptFromBefore: carried } : {}),
    secrets: `every --header value is replaced by ${REDACTED} wherever an item held it`,
  };
  return stringify(note, { lineWidth: 0 });
}
