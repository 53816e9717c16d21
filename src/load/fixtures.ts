import path from 'node:path';
import type { LoadProblem } from './errors.js';
import { DEFAULT_LOAD_LIMITS, type LoadLimits } from './limits.js';
import { rel } from './paths.js';
import {
  batchTexts,
  type FlatTake,
  isStreamed,
  ItemStreamError,
  type StreamedItem,
  streamItemBatches,
} from './item-stream.js';
import { type Folder, folderOf, openConfined, readConfinedText } from './read-confined.js';
import { jsonTooDeepAt, linePlace, nestsDeeperThan, placeOfIndex } from './text-checks.js';

/** Where JSON.parse stopped: V8 says "position N" (and, from Node 22, also line and column). */
function jsonPosition(text: string, message: string): string {
  const m = /position (\d+)/.exec(message);
  return m ? placeOfIndex(text, Number(m[1])) : '';
}

export interface FixtureReadOptions {
  /** The fixtures folder the file must stay inside (default: the file's own folder). */
  readonly dir?: string;
  /** That folder, resolved already (one realpath for every fixture of a load). */
  readonly folder?: Folder;
  /** Stops the reading between two chunks (it throws the signal's reason). */
  readonly signal?: AbortSignal;
  readonly limits?: LoadLimits;
}

/**
 * Reads `<dir>/<resource>.json`: undefined when absent, problems when it is not a regular file
 * inside the fixtures folder (a symlink may lead only to a file inside it), larger than the size
 * limit, not UTF-8, nested deeper than the limit, not JSON, or not an array.
 */
export async function readFixtureFile(
  file: string,
  problems: LoadProblem[],
  opts: FixtureReadOptions = {},
): Promise<unknown[] | undefined> {
  const limits = opts.limits ?? DEFAULT_LOAD_LIMITS;
  const folder = await folderOf(opts.dir ?? path.dirname(file), 'the fixtures folder');
  const read = await readConfinedText(file, folder, limits);
  if (!read.ok) {
    if (read.kind !== 'missing') problems.push({ file: rel(file), pointer: read.place, reason: read.reason });
    return undefined;
  }
  const text = read.text;
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    const message = (e as Error).message;
    problems.push({ file: rel(file), pointer: jsonPosition(text, message), reason: `invalid JSON: ${message}` });
    return undefined;
  }
  // Checked on the parsed value (a fraction of the parse's time); the text is read again only to
  // say where.
  if (data !== null && typeof data === 'object' && nestsDeeperThan(data, limits.maxDepth)) {
    const at = jsonTooDeepAt(text, limits.maxDepth);
    problems.push({
      file: rel(file),
      pointer: at === -1 ? '' : placeOfIndex(text, at),
      reason: `nested deeper than ${limits.maxDepth} levels of arrays and objects`,
    });
    return undefined;
  }
  if (!Array.isArray(data)) {
    problems.push({ file: rel(file), pointer: '', reason: 'a fixture is a JSON array of items' });
    return undefined;
  }
  return data;
}

export type FixtureStream = 'missing' | 'read' | 'failed';

/** One item of a streamed fixture: its value, index, and text (and whether that text is canonical JSON). */
export interface FixtureItem {
  readonly value: unknown;
  readonly index: number;
  readonly text: string;
  readonly canonical: boolean;
}

/**
 * Reads a fixture a chunk of items at a time (load/item-stream.ts), with the same confinement,
 * size and nesting limits as readFixtureFile, handing each item to `onItem` with its place: a
 * million-item fixture is never held as an array, each chunk's items are parsed in one JSON.parse,
 * and the event loop gets a turn every few milliseconds, so that answers keep flowing while a
 * reload reads it.
 */
export async function streamFixtureFile<T extends object>(
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
    /** A batch's items are all handed over: its bytes are read again no more (the next chunk is read into them). */
    readonly batchDone?: () => void;
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
            const within = pos ? /^line (\d+):(\d+)$/.exec(placeOfIndex(text, Number(pos[1]))) : null;
            const line = within ? item.line + Number(within[1]) - 1 : item.line;
            const col = within
              ? Number(within[1]) === 1
                ? item.col + Number(within[2]) - 1
                : Number(within[2])
              : item.col;
            problems.push({
              file: rel(file),
              pointer: linePlace(line, col),
              reason: `invalid JSON in item ${item.index}: ${message}`,
            });
            f++;
            continue;
          }
        }
        f++;
        onItem({ value, index: item.index, text, canonical: item.canonical });
      }
      take?.batchDone?.();
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
