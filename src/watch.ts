import { type FSWatcher, watch } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { StateHolder } from './app.js';
import type { StubConfig } from './config.js';
import { colors } from './log.js';
import { printLoadError } from './print-load-error.js';
import { loadState, stateOptions } from './state.js';

export interface Watcher {
  close(): void;
  /** Resolves when no reload is running or pending (for tests). */
  idle(): Promise<void>;
}

/**
 * `--watch`: follows the folders of the spec, every file it `$ref`s, and the fixtures. A change
 * loads a whole new state and swaps it in with one assignment, so a request sees the old state or
 * the new, never half of one. An invalid edit keeps the last good state and prints why; the next
 * valid edit is picked up. With `typesFile`, the generated types follow the spec.
 */
export function watchState(config: StubConfig, holder: StateHolder, log: (line: string) => void = (l) => process.stdout.write(`${l}\n`)): Watcher {
  const watchers = new Map<string, FSWatcher>();
  let timer: NodeJS.Timeout | undefined;
  let scheduled = false;
  let running: Promise<void> | undefined;
  let pending = false;
  let closed = false;

  const sync = () => {
    const dirs = new Set([...holder.current.files.map((f) => path.dirname(f)), path.resolve(config.fixturesDir)]);
    for (const [dir, w] of watchers) {
      if (!dirs.has(dir)) {
        w.close();
        watchers.delete(dir);
      }
    }
    for (const dir of dirs) {
      if (watchers.has(dir)) continue;
      try {
        const w = watch(dir, () => schedule());
        w.on('error', () => undefined);
        watchers.set(dir, w);
      } catch {
        // A folder that does not exist yet is watched once a reload names it again.
      }
    }
  };

  const reload = async () => {
    const before = holder.current;
    try {
      const next = await loadState(stateOptions(config));
      if (closed) return;
      holder.current = next;
      log(`${colors.green('reloaded')}: ${next.collections.size} collections from ${path.relative(process.cwd(), next.spec.rootFile)}`);
      if (config.typesFile) await writeTypes(config.typesFile, next.spec.rootFile, log);
    } catch (e) {
      printLoadError(e, (s) => log(s.trimEnd()));
      log(colors.yellow(`still serving the last good state (${before.collections.size} collections)`));
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

  const schedule = () => {
    if (closed) return;
    clearTimeout(timer);
    scheduled = true;
    timer = setTimeout(() => {
      scheduled = false;
      run();
    }, 100);
  };

  sync();
  return {
    close() {
      closed = true;
      scheduled = false;
      pending = false;
      clearTimeout(timer);
      for (const w of watchers.values()) w.close();
      watchers.clear();
    },
    async idle() {
      while (scheduled || running || pending) await new Promise((r) => setTimeout(r, 50));
    },
  };
}

async function writeTypes(file: string, specFile: string, log: (line: string) => void): Promise<void> {
  try {
    // Loaded only here: openapi-typescript brings the TypeScript compiler (~80 MiB).
    const { generateTypes } = await import('./spec/generate-types.js');
    const types = await generateTypes(specFile);
    const current = await readFile(file, 'utf8').catch(() => '');
    if (current !== types) {
      await writeFile(file, types);
      log(`types regenerated: ${path.relative(process.cwd(), file)}`);
    }
  } catch (e) {
    log(`types not regenerated: ${(e as Error).message}`);
  }
}
