import { type FSWatcher, realpathSync, watch } from 'node:fs';
import path from 'node:path';
import pc from 'picocolors';
import { reloadSummary } from './reload-summary.js';
import { printLoadError } from './report.js';
import { loadState, type StateOptions, type StubState } from './state.js';
import { writeTypes } from './write-types.js';
import { count } from '../openapi/words.js';

export interface Watcher {
  close(): void;
  /** Resolves when no reload is running or pending (for tests). */
  idle(): Promise<void>;
}

export interface WatchOptions {
  readonly state: StateOptions;
  /** Regenerate the TypeScript types into this file when the spec changes. */
  readonly typesFile?: string | undefined;
  /** Called with each new state, after it is built whole (and its difference told to `log`). */
  readonly onState: (next: StubState, before: StubState) => void;
  readonly log: (line: string) => void;
}

/**
 * `--watch`: follows the folders of the spec, every file it `$ref`s, and the fixtures. A change
 * loads a whole new state and hands it over in one call, so a request sees the old state or the
 * new, never half of one. An invalid edit keeps the last good state and prints why; the next
 * valid edit is picked up. With `typesFile`, the generated types follow the spec.
 */
const SETTLE_MS = 100;
const MAX_WAIT_MS = 1000;

export function watchState(initial: StubState, opts: WatchOptions): Watcher {
  const watchers = new Map<string, FSWatcher>();
  let current = initial;
  let timer: NodeJS.Timeout | undefined;
  let scheduled = false;
  let running: Promise<void> | undefined;
  let pending = false;
  let closed = false;
  // The files the folders' watchers named since the last reload began: what the reload tells.
  const changed = new Set<string>();

  // The folders of what the state reads, and their parents: a folder replaced whole (renamed over,
  // removed and made again, as a checkout or a build tool does) is a new folder, which the old
  // watcher never reports on; its parent names it, and it is watched again.
  const parents = new Map<string, FSWatcher>();
  const fixturesDir = path.resolve(opts.state.fixturesDir);
  let read = new Set<string>();

  /** A file this reload could read: one the state read, or a new fixture or handler module. */
  const relevant = (dir: string, name: string | null): boolean => {
    if (name === null) return true;
    const file = path.join(dir, name);
    if (read.has(file)) return true;
    return dir === fixturesDir && !name.startsWith('.') && /\.(json|ya?ml|[cm]?[jt]s)$/.test(name);
  };

  const sync = () => {
    const dirs = new Set([...current.files.map((f) => path.dirname(f)), fixturesDir]);
    read = new Set(current.files.map((f) => path.resolve(f)));
    // A symlinked file is followed to its target (inside the folder, or it is not loaded): an edit
    // there changes no entry of the link's folder.
    for (const f of current.files) {
      try {
        const real = realpathSync(f);
        read.add(real);
        dirs.add(path.dirname(real));
      } catch {
        // Not there (yet): its folder is watched already.
      }
    }
    watchFolders(watchers, dirs, (dir) => (_event, name) => {
      const file = name === null ? null : name.toString();
      if (!relevant(dir, file)) return;
      if (file !== null) changed.add(path.join(dir, file));
      schedule();
    });
    watchFolders(parents, new Set([...dirs].map((d) => path.dirname(d))), (parent) => (_event, name) => {
      const dir = name === null ? undefined : path.join(parent, name.toString());
      if (dir === undefined || !watchers.has(dir)) return;
      // The folder under that name may be another one now: watch whatever is there.
      watchers.get(dir)?.close();
      watchers.delete(dir);
      sync();
      schedule();
    });
  };

  const reload = async () => {
    const before = current;
    const touched = [...changed];
    changed.clear();
    try {
      // The state served so far lends its unchanged items: a reload keeps them, not a second copy.
      const next = await loadState({ ...opts.state, previous: current });
      if (closed) return;
      current = next;
      // Of the files named, those the states read (an editor's swap file is none of them).
      const read = new Set([...before.files, ...next.files].map((f) => path.resolve(f)));
      const summary = reloadSummary(
        before.model,
        next.model,
        touched.filter((f) => read.has(f)),
        next.spec.rootFile,
      );
      opts.log(summary.replace(/^reloaded/, pc.green('reloaded')));
      opts.onState(next, before);
      if (opts.typesFile && next.spec !== before.spec) await writeTypes(opts.typesFile, next.spec.rootFile, opts.log);
    } catch (e) {
      printLoadError(e, (s) => opts.log(s.trimEnd()));
      opts.log(pc.yellow(`still serving the last good state (${count(before.model.collections.size, 'collection')})`));
    }
    sync();
  };

  const run = () => {
    if (running) {
      pending = true;
      return;
    }
    running = reload().finally(() => {
      running = undefined;
      if (pending && !closed) {
        pending = false;
        run();
      }
    });
  };

  // A reload waits for the changes to settle (100 ms without one), but never longer than a second
  // after the first: files written without a pause (a generator, a sync) still reload.
  let firstAt = 0;
  const schedule = () => {
    if (closed) return;
    clearTimeout(timer);
    if (!scheduled) firstAt = Date.now();
    scheduled = true;
    const wait = Math.max(0, Math.min(SETTLE_MS, firstAt + MAX_WAIT_MS - Date.now()));
    timer = setTimeout(() => {
      scheduled = false;
      run();
    }, wait);
  };

  sync();
  return {
    close() {
      closed = true;
      scheduled = false;
      pending = false;
      clearTimeout(timer);
      for (const w of [...watchers.values(), ...parents.values()]) w.close();
      watchers.clear();
      parents.clear();
    },
    async idle() {
      while (scheduled || running || pending) await new Promise((r) => setTimeout(r, 50));
    },
  };
}

/**
 * Watches each folder of `wanted` (its events to `listen(folder)`), and no longer those of `map`
 * that are not wanted. A folder that is not there (yet) is watched once a later call names it.
 */
function watchFolders(
  map: Map<string, FSWatcher>,
  wanted: ReadonlySet<string>,
  listen: (dir: string) => (event: string, name: string | Buffer | null) => void,
): void {
  for (const [dir, w] of map) {
    if (!wanted.has(dir)) {
      w.close();
      map.delete(dir);
    }
  }
  for (const dir of wanted) {
    if (map.has(dir)) continue;
    try {
      const w = watch(dir, listen(dir));
      w.on('error', () => undefined);
      map.set(dir, w);
    } catch {
      // Not there: watched when a reload names it again.
    }
  }
}
