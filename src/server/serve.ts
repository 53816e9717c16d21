import { CONTROL_PAGE } from './pages.js';
import type { FastifyInstance } from 'fastify';
import { formatWarnings, printLoadError } from '../load/report.js';
import { latePrinter, loadState, type StubState } from '../load/state.js';
import { watchState } from '../load/watch.js';
import { writeTypes } from '../load/write-types.js';
import { buildApp, handlersOf, type StateHolder } from './app.js';
import { checkServePaths, type StubConfig, stateOptions } from './config.js';
import { colors } from './log.js';
import { answersTable, servedTable } from './served-table.js';
import { compactNow, compactSoon } from './heap.js';
import { createShutdown, trackConnections } from './shutdown.js';
import { count } from '../openapi/words.js';

/**
 * Loads, builds and listens; stops on SIGINT/SIGTERM within the shutdown grace (src/server/shutdown.ts).
 * Answers the exit code when start-up fails: 2 when `--spec` or `--fixtures` names nothing to
 * read, 1 when what they name cannot be served.
 */
export async function serve(config: StubConfig): Promise<{ app: FastifyInstance; url: string } | number> {
  const pathErrors = checkServePaths(config);
  if (pathErrors.length > 0) {
    for (const e of pathErrors) process.stderr.write(`${colors.red('error')}: ${e}\n`);
    return 2;
  }
  let holder: StateHolder;
  const started = performance.now();
  // Problems found after start-up (generated items made on a first request) go to the log.
  let sayLate: (line: string) => unknown = (line) => process.stdout.write(`${line}\n`);
  // Without --watch nothing reloads: the first state keeps nothing for a next one.
  const options = {
    ...stateOptions(config),
    onLateProblem: latePrinter((line) => sayLate(line)),
    final: !config.watch,
  };
  try {
    holder = { current: await loadState(options) };
  } catch (e) {
    printLoadError(e);
    return 1;
  }
  // What reading a large spec left behind, given back before the first request: a full
  // collection once requests have run leaves the code that served them on slower paths
  // (docs/performance.md).
  if (largeSpec(holder.current)) compactNow();
  const app = await buildApp(config, holder);
  const connections = trackConnections(app.server);
  try {
    await app.listen({ host: config.host, port: config.port });
  } catch (e) {
    process.stderr.write(
      `${colors.red('error')}: cannot listen on ${config.host}:${config.port}: ${(e as Error).message}\n`,
    );
    return 1;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  const url = `http://${host}:${port}`;
  const describe = (state: StubState) =>
    [...servedTable(state), ...answersTable(state, handlersOf(config, state)), ...formatWarnings(state.warnings)].join(
      '\n',
    );
  process.stdout.write(
    `Workplace Administration Service stub listening on ${colors.bold(url)}\n` +
      `  ${count(holder.current.model.collections.size, 'collection')} under ${url}/api/v1/, ready in ${Math.round(performance.now() - started)} ms\n` +
      `  control page (operations, switches, requests): ${url}${CONTROL_PAGE} · API reference: ${url}/docs\n` +
      `${describe(holder.current)}\n`,
  );
  const say = (line: string) => (app.requestLog ? app.requestLog.message(line) : process.stdout.write(`${line}\n`));
  sayLate = say;
  const watcher = config.watch
    ? watchState(holder.current, {
        state: options,
        typesFile: config.typesFile,
        onState: (next, before) => {
          holder.current = next;
          // Nothing of the state replaced is kept: the core of the last request is the new state's
          // from now (not at the next request), and answers kept from the old one go.
          app.coreOf(next);
          app.answerCache.clear();
          giveMemoryBack(before, next);
          // The table was printed at start-up (the reload's difference is told by the watcher): only new warnings.
          const told = new Set(formatWarnings(before.warnings));
          for (const w of formatWarnings(next.warnings)) if (!told.has(w)) say(w);
        },
        log: say,
      })
    : undefined;
  if (watcher)
    process.stdout.write(`  watching ${count(holder.current.files.length, 'spec and fixture file')} for changes\n`);
  // The types follow the spec from the start, not from its first change.
  if (config.typesFile) void writeTypes(config.typesFile, holder.current.spec.rootFile, say);
  const shutdown = createShutdown({
    graceMs: config.shutdownGraceMs,
    connections,
    close: () => app.close(),
    stopOthers: () => watcher?.close(),
    flush: async () => app.requestLog?.drain(),
    say: (line) => process.stdout.write(`${line}\n`),
    exit: (code) => process.exit(code),
  });
  process.on('SIGINT', () => shutdown.signal('SIGINT'));
  process.on('SIGTERM', () => shutdown.signal('SIGTERM'));
  return { app, url };
}

/**
 * After a reload the state replaced is garbage, and an idle server allocates nothing that would
 * make V8 collect it. Where the new state holds far fewer items (a large fixture replaced by a
 * small one: most of the heap is now garbage), or a large spec was read again (what its reading
 * made lies in the old generation: see `largeSpec`), one compacting collection gives the pages
 * back, a second after the reload (when the reload's own work, which still holds the state
 * before, is done). Not otherwise: a full collection stops the process for as long as it takes
 * to mark what lives (longest with a large fixture), and a state as large as the one before has
 * just made V8 collect, loading.
 */
function giveMemoryBack(before: StubState, next: StubState): void {
  const items = (s: StubState) => {
    let n = 0;
    for (const c of s.model.collections.values()) n += c.count;
    return n;
  };
  if (items(next) * 4 < items(before) || (next.spec !== before.spec && largeSpec(next))) compactSoon();
}

/**
 * A spec whose files hold more than LARGE_SPEC_CHARS characters together. Reading one leaves its
 * working copies (each file parsed, the bundler's copies, the scans) in the old generation,
 * promoted while it was read and collected by no full collection after it: pages of old generation
 * that every scavenge visits, several times those what lives fills (docs/performance.md).
 */
export function largeSpec(state: StubState): boolean {
  let chars = 0;
  for (const text of state.spec.texts.values()) chars += text.length;
  return chars > LARGE_SPEC_CHARS;
}

/** About seven times the bundled spec's files (138,503 characters). */
const LARGE_SPEC_CHARS = 1_000_000;
