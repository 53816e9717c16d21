import { access, type FileHandle, mkdir, open, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { stringify } from 'yaml';
import type { ListOperation } from '../openapi/operations.js';
import { type CheckOptions, runCheck } from './checker.js';
import type { CrawlObserver } from './collection-check.js';
import { SchemaInferrer } from './infer-schema.js';
import type { Contract } from './load.js';
import { stringifyExact, withoutMember } from './json.js';
import { REDACTED, Redactor } from './redact.js';
import type { CheckReport, EndpointResult } from './report.js';
import { BaseScope } from './scope.js';
import { buildsUrl, describesFields } from '../openapi/item-schema.js';

export type RecordOptions = Omit<CheckOptions, 'itemUrls' | 'probes' | 'observer'> & {
  /** The folder the fixtures go to (created when missing). */
  readonly outDir: string;
  /** Overwrite fixtures that exist. */
  readonly force: boolean;
};

export interface RecordedCollection {
  readonly resource: string;
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
    }
  | { ok: false; error: string };

/** The file a collection's fixture is read from by the stub: `<x-stub-fixture or resource>.json`. */
export const fixtureFile = (list: ListOperation): string => `${list.fixtureName ?? list.resource}.json`;
export const SUGGESTED_SCHEMAS = 'suggested-schemas.yaml';
// Not `.json`: the stub refuses a .json file in its fixtures folder that no collection reads.
export const RECORDING_NOTE = 'recording.yaml';

interface Pending {
  readonly list: ListOperation;
  readonly tmp: string;
  readonly final: string;
  handle: FileHandle | undefined;
  readonly entry: RecordedCollection;
  readonly infer: SchemaInferrer | undefined;
  /** The stub builds the items' url: a recorded one is dropped wherever it points. */
  readonly buildsUrl: boolean;
}

/**
 * Records a deployment into fixtures: crawls it as the checker does (same bounds, same rules,
 * credentials only to the base) and streams each collection's items into `<out>/<resource>.json`
 * as they arrive, each validated against the item schema, its url removed (the stub builds it per
 * request), any credential redacted. A fixture is written only when its collection was crawled to
 * the end and every item is valid: a partial or invalid fixture would serve a different
 * deployment or stop the stub. For collections whose item schema describes no field, a schema
 * inferred from the items goes to `suggested-schemas.yaml`, for a designer to review.
 */
export async function runRecord(contract: Contract, opts: RecordOptions): Promise<RecordResult> {
  const scope = new BaseScope(opts.baseUrl);
  const redactor = Redactor.forHeaders(opts.headers, [scope.password, `${scope.username}:${scope.password}`]);
  const doc = contract.spec.doc;
  const lists = contract.operations.lists.filter((l) => opts.only.length === 0 || opts.only.includes(l.resource));
  const out = path.resolve(opts.outDir);
  await mkdir(out, { recursive: true });
  const targets = [...lists.map(fixtureFile), SUGGESTED_SCHEMAS, RECORDING_NOTE];
  if (!opts.force) {
    const existing: string[] = [];
    for (const name of targets)
      if (
        await access(path.join(out, name)).then(
          () => true,
          () => false,
        )
      )
        existing.push(name);
    if (existing.length > 0)
      return { ok: false, error: `${out} already holds ${existing.join(', ')} (--force overwrites)` };
  }
  const pending = new Map<string, Pending>();
  for (const list of lists) {
    const final = path.join(out, fixtureFile(list));
    pending.set(list.path, {
      list,
      final,
      tmp: `${final}.partial-${process.pid}`,
      handle: undefined,
      entry: { resource: list.resource, file: final, items: 0, written: false, invalid: 0, redacted: 0 },
      infer: describesFields(doc, list.itemPointer) ? undefined : new SchemaInferrer(),
      buildsUrl: buildsUrl(doc, list, contract.operations.detailOf.get(list.path)),
    });
  }
  let pageSize: number | undefined;
  const observer: CrawlObserver = {
    items: async (list, items, page) => {
      const p = pending.get(list.path);
      if (!p) return;
      if (page.hasNext && page.number === 1) pageSize = Math.max(pageSize ?? 0, items.length);
      p.handle ??= await open(p.tmp, 'w');
      let text = '';
      for (const item of items) {
        const line = fixtureItem(contract, scope, redactor, p, item);
        if (line === undefined) continue;
        text += `${p.entry.items === 0 ? '[\n' : ',\n'}${line}`;
        p.entry.items++;
      }
      if (text !== '') await p.handle.write(text);
    },
    done: async (list, result) => {
      const p = pending.get(list.path);
      if (p) await finish(p, result, opts.allowTruncated ?? false);
    },
  };
  try {
    const report = await runCheck(contract, { ...opts, itemUrls: 0, probes: false, observer });
    const collections = [...pending.values()].map((p) => p.entry);
    // Nothing was recorded: nothing is written (a second try needs no --force).
    if (report.unreachable !== undefined || report.refused)
      return { ok: true, report, collections, suggested: undefined, pageSize, metadata: undefined };
    const suggested = await writeSuggestions(out, scope, [...pending.values()]);
    const metadata = path.join(out, RECORDING_NOTE);
    await writeFile(metadata, recordingNote(scope, report, collections, pageSize, suggested));
    return { ok: true, report, collections, suggested, pageSize, metadata };
  } finally {
    for (const p of pending.values()) {
      await p.handle?.close().catch(() => undefined);
      await rm(p.tmp, { force: true });
    }
  }
}

/** One item as its fixture holds it (indented JSON), or undefined when it cannot be recorded. */
function fixtureItem(
  contract: Contract,
  scope: BaseScope,
  redactor: Redactor,
  p: Pending,
  item: unknown,
): string | undefined {
  if (item === null || typeof item !== 'object' || Array.isArray(item)) {
    p.entry.invalid++;
    return undefined;
  }
  p.infer?.add(item);
  if (contract.ajv.validate(p.list.itemPointer, item).length > 0) p.entry.invalid++;
  // The item's own url names the recorded deployment: the stub builds it per request (§9.2).
  const { url } = item as Record<string, unknown>;
  const kept =
    p.buildsUrl || (typeof url === 'string' && scope.holdsLink(url))
      ? withoutMember(item as Record<string, unknown>, 'url')
      : item;
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
  else if (e.invalid > 0) e.reason = `${e.invalid} items break the item schema (the stub would refuse the fixture)`;
  const handle = p.handle ?? (await open(p.tmp, 'w'));
  p.handle = undefined;
  try {
    await handle.write(e.items === 0 ? '[]\n' : '\n]\n');
  } finally {
    await handle.close();
  }
  if (e.reason !== undefined) return;
  await rename(p.tmp, p.final);
  e.written = true;
}

async function writeSuggestions(
  out: string,
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
  const file = path.join(out, SUGGESTED_SCHEMAS);
  const header = [
    `# Item schemas inferred from a recording of ${scope.href} on ${new Date().toISOString().slice(0, 10)}, for the`,
    '# collections whose item schema in the spec describes no field. For a designer to review and copy into',
    `# openapi/schemas/items.yaml: nothing reads this file. Types and required members come from the items`,
    '# seen, so a member that happened to be absent or null in every recorded item is missed or loose.',
    '',
  ].join('\n');
  await writeFile(file, `${header}${stringify(schemas, { lineWidth: 0 })}`);
  return file;
}

function recordingNote(
  scope: BaseScope,
  report: CheckReport,
  collections: readonly RecordedCollection[],
  pageSize: number | undefined,
  suggested: string | undefined,
): string {
  const note = {
    recorded: scope.href,
    at: new Date().toISOString(),
    // The stub pages with its own PAGE_SIZE: serve with the deployment's to answer the same pages.
    serve: `workplace-stub --fixtures ${path.dirname(collections[0]?.file ?? '.')}${pageSize ? ` --page-size ${pageSize}` : ''}`,
    pageSize: pageSize ?? null,
    contractViolations: report.violations.length,
    collections: Object.fromEntries(
      collections.map((c) => [
        c.resource,
        c.written
          ? { items: c.items, file: path.basename(c.file), ...(c.redacted ? { redacted: c.redacted } : {}) }
          : { written: false, reason: c.reason },
      ]),
    ),
    suggestedSchemas: suggested ? path.basename(suggested) : null,
    secrets: `every --header value is replaced by ${REDACTED} wherever an item held it`,
  };
  return stringify(note, { lineWidth: 0 });
}
