import path from 'node:path';
import { QuerysetOrder } from '../core/live.js';
import { type CollectionShape, prepareOptionsOf } from '../core/model.js';
import {
  carriesAny,
  type ItemSet,
  itemObject,
  itemSetOf,
  type PreparedItem,
  prepareItem,
  prepareItemFromText,
} from '../core/prepared-items.js';
import { isWholeTable, type Queryset } from '../openapi/queryset.js';
import { isObject } from '../openapi/pointer.js';
import type { LoadProblem } from './errors.js';
import { flatItemMatcher } from './flat-items.js';
import { type CheckContext, type ItemCheck, itemChecker } from './items.js';
import { DEFAULT_LOAD_LIMITS, type LoadLimits } from './limits.js';
import { rel } from './paths.js';
import {
  batchTexts,
  bytesAre,
  type FlatTake,
  isStreamed,
  ItemStreamError,
  type StreamedItem,
  streamItemBatches,
} from './item-stream.js';
import { type Folder, folderOf, openConfined } from './read-confined.js';
import { linePlace, placeOfIndex } from './text-checks.js';

export interface FixtureReadOptions {
  /** The fixtures folder the file must stay inside (default: the file's own folder). */
  readonly dir?: string;
  /** That folder, resolved already (one realpath for every fixture of a load). */
  readonly folder?: Folder;
  /** Stops the reading between two chunks (it throws the signal's reason). */
  readonly signal?: AbortSignal;
  readonly limits?: LoadLimits;
}

type FixtureStream = 'missing' | 'read' | 'failed';

/** One item of a streamed fixture: its value, index, and text (and whether that text is canonical JSON). */
interface FixtureItem {
  readonly value: unknown;
  readonly index: number;
  readonly text: string;
  readonly canonical: boolean;
}

/**
 * Reads a fixture a chunk of items at a time (load/item-stream.ts), confined to the fixtures
 * folder, within the size and nesting limits, handing each item to `onItem` with its place: a
 * million-item fixture is never held as an array, each chunk's items are parsed in one JSON.parse,
 * and the event loop gets a turn every few milliseconds, so that answers keep flowing while a
 * reload reads it.
 */
async function streamFixtureFile<T extends object>(
  file: string,
  problems: LoadProblem[],
  opts: FixtureReadOptions,
  onItem: (item: FixtureItem) => void,
  /**
   * An item can be taken unparsed (it is the same as before, or read from its bytes): `test`
   * answers what it is taken as, and `onTaken` is called with that, in the item's turn, instead of
   * onItem; undefined, and the item is parsed. Given the streamed item (its bytes valid during the
   * call only), so that nothing is decoded for an item taken.
   */
  take?: {
    readonly test: (item: StreamedItem) => T | undefined;
    readonly onTaken: (index: number, taken: T) => void;
    /** Takes flat items from their bytes as they are scanned (load/flat-items.ts): asked before each chunk. */
    readonly flat?: () => FlatTake<T> | undefined;
  },
): Promise<FixtureStream> {
  const limits = opts.limits ?? DEFAULT_LOAD_LIMITS;
  const folder = opts.folder ?? (await folderOf(opts.dir ?? path.dirname(file), 'the fixtures folder'));
  const opened = await openConfined(file, folder, limits);
  if (!opened.ok) {
    if (opened.kind === 'missing') return 'missing';
    problems.push({ file: rel(file), pointer: opened.place, reason: opened.reason });
    return 'failed';
  }
  const before = problems.length;
  let turn = performance.now();
  /** The array's index of the batch's next entry. */
  let next = 0;
  try {
    for await (const batch of streamItemBatches<T>(opened.handle, limits.maxDepth, undefined, take?.flat)) {
      opts.signal?.throwIfAborted();
      // Taken as scanned (flat), or read the usual way and then perhaps taken as it is (`test`).
      const taken = batch.map((e) => (isStreamed(e) ? take?.test(e) : e));
      const fresh = batch.filter((_, k) => taken[k] === undefined) as StreamedItem[];
      // Decoded outside the parse: a byte that is not UTF-8 is its own fault, with its own place.
      const { texts, array } = batchTexts(fresh);
      let values: unknown[] | undefined = texts.length === 0 ? [] : undefined;
      try {
        values ??= JSON.parse(array) as unknown[];
      } catch {
        values = undefined;
      }
      // In the file's order: items taken and parsed interleave as they stand.
      let f = 0;
      for (let k = 0; k < batch.length; k++, next++) {
        const took = taken[k];
        if (took !== undefined) {
          take?.onTaken(next, took);
          continue;
        }
        const item = batch[k] as StreamedItem;
        const text = texts[f] as string;
        let value: unknown;
        if (values) value = values[f];
        else {
          try {
            value = JSON.parse(text);
          } catch (e) {
            // V8 says "position N" within the item: the place in the file is the item's plus that.
            const message = (e as Error).message;
            const pos = /position (\d+)/.exec(message);
            problems.push({
              file: rel(file),
              pointer: pos ? placeOfIndex(text, Number(pos[1]), item.line, item.col) : linePlace(item.line, item.col),
              reason: `invalid JSON in item ${item.index}: ${message}`,
            });
            f++;
            continue;
          }
        }
        f++;
        onItem({ value, index: item.index, text, canonical: item.canonical });
      }
      if (performance.now() - turn > 8) {
        await new Promise((r) => setImmediate(r));
        turn = performance.now();
      }
    }
  } catch (e) {
    if (!(e instanceof ItemStreamError)) throw e;
    problems.push({ file: rel(file), pointer: linePlace(e.line, e.col), reason: e.message });
  } finally {
    await opened.handle.close();
  }
  return problems.length > before ? 'failed' : 'read';
}

/** How a fixture's items are checked and served, known from its first item (which may name the lookup field). */
export interface FixtureCheck {
  readonly shape: CollectionShape;
  readonly ctx: CheckContext;
}

export interface ReadFixtureOptions extends FixtureReadOptions {
  /** The spec the items are checked against (the flat way reads the item schema in it). */
  readonly doc: unknown;
  /** The check of the items, given the first one (undefined for an empty fixture). */
  readonly checkOf: (sample: unknown) => FixtureCheck;
  /**
   * The items this file gave the state before, under the same spec (a reload): an item whose text
   * is the one at its place then is taken over as it is, without a new check or a new copy.
   */
  readonly previous?: readonly PreparedItem[];
  /** The collection's queryset (`x-queryset`): whether the items stand in it is followed as they are read. */
  readonly queryset?: Queryset;
}

export type FixtureRead =
  | { readonly kind: 'missing' }
  | { readonly kind: 'failed' }
  | {
      readonly kind: 'read';
      readonly set: ItemSet;
      /** The first item, as parsed. */
      readonly sample: unknown;
      /** The first item carrying writeOnly members (served without them), for a warning. */
      readonly carried?: { readonly index: number; readonly names: readonly string[] };
      /** Every item passes the queryset's filter, each in its ordering after the one before. */
      readonly inQuerysetOrder: boolean;
    };

/**
 * A fixture file's items, checked against the item schema and prepared to serve, with their pk
 * index; or 'missing'; or 'failed', its problems (file, place, reason) added to `problems`.
 * Streamed (nothing but the prepared items kept), and, where the item schema lets it, read the fast
 * way: a flat item (load/flat-items.ts) is checked and prepared straight from its bytes. Each way
 * gives the items the other gives; this is the only door to either.
 */
export async function readFixture(
  file: string,
  problems: LoadProblem[],
  opts: ReadFixtureOptions,
): Promise<FixtureRead> {
  const old = opts.previous;
  const items: PreparedItem[] = [];
  const before = problems.length;
  let sample: unknown;
  let carried: { index: number; names: string[] } | undefined;
  let check: ItemCheck | undefined;
  let options: ReturnType<typeof prepareOptionsOf> | undefined;
  let flat: FlatTake<PreparedItem> | undefined;
  const q = opts.queryset;
  const order = q === undefined || isWholeTable(q) ? undefined : new QuerysetOrder(q);
  // Flat items are taken as the scanner meets them, before the batch's parsed items are handed
  // over: their queryset values wait here (the index, then the values) until their turn.
  const waiting: unknown[] = [];
  let head = 0;
  // The first item sets the shape (parsed, always); flat items are read from their bytes after it.
  // An item that is exactly its place's text of before is taken over as it is.
  const start = (value: unknown) => {
    sample = value;
    const first = opts.checkOf(value);
    options = prepareOptionsOf(first.shape);
    check = itemChecker(first.ctx, problems);
    const matcher =
      options.writeOnly.length > 0 ? undefined : flatItemMatcher(opts.doc, first.ctx, options.fields, order?.fields);
    flat = matcher && {
      scan: (bytes, from, limit) => matcher.scan(bytes, from, limit),
      take: (bytes, from, end, index) => {
        const was = old?.[index];
        const item =
          was !== undefined && bytesAre(bytes, from, end, was.json) ? was : matcher.prepare(bytes, from, end);
        if (item !== undefined && order !== undefined) {
          waiting.push(index);
          matcher.pushKept(bytes, waiting);
        }
        return item;
      },
    };
  };
  const outcome = await streamFixtureFile<PreparedItem>(
    file,
    problems,
    opts,
    ({ value, index, text, canonical }) => {
      if (check === undefined) start(value);
      const o = options as ReturnType<typeof prepareOptionsOf>;
      const was = old?.[index];
      const prepared = isObject(value)
        ? canonical
          ? prepareItemFromText(value, text, o)
          : prepareItem(value, o)
        : undefined;
      if (carried === undefined && isObject(value) && carriesAny(value, o.writeOnly))
        carried = { index, names: o.writeOnly.filter((f) => Object.hasOwn(value, f)) };
      const same =
        was !== undefined &&
        prepared !== undefined &&
        was.json === prepared.json &&
        was.pk === prepared.pk &&
        was.urlAt === prepared.urlAt;
      if ((check as ItemCheck)(value, index, same) === undefined || prepared === undefined) return;
      items.push(same ? was : prepared);
      // The core reads an item's served members: writeOnly ones are not among them.
      order?.nextMembers(o.writeOnly.length > 0 ? itemObject(prepared) : (value as Record<string, unknown>));
    },
    {
      test: (item) => {
        const was = check === undefined ? undefined : old?.[item.index];
        return was !== undefined && item.canonical && item.isText(was.json) ? was : undefined;
      },
      onTaken: (index, item) => {
        if (order !== undefined) {
          if (waiting[head] === index) {
            order.next(waiting, head + 1);
            head += 1 + order.fields.length;
            if (head === waiting.length) waiting.length = head = 0;
          } else order.nextMembers(itemObject(item));
        }
        if ((check as ItemCheck).reused(item.pk, index)) items.push(item);
      },
      flat: () => flat,
    },
  );
  if (outcome !== 'read') return { kind: outcome };
  // Every item passed (else the read failed): the checker's pk index is the set's.
  const pks = problems.length === before && check !== undefined ? check.pks : undefined;
  return {
    kind: 'read',
    set: itemSetOf(items, pks),
    sample,
    ...(carried ? { carried } : {}),
    inQuerysetOrder: order?.holds ?? true,
  };
}
