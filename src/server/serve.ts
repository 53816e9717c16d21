import type { FastifyInstance } from 'fastify';
import { formatWarnings, printLoadError } from '../load/report.js';
import { loadState, type StubState } from '../load/state.js';
import { watchState } from '../load/watch.js';
import { buildApp, type StateHolder } from './app.js';
import { type StubConfig, stateOptions } from './config.js';
import { colors } from './log.js';
import { servedTable } from './served-table.js';

/**
 * Loads, builds and listens; stops cleanly on SIGINT/SIGTERM (in-flight requests finish, exit 0).
 * Answers the exit code when start-up fails.
 */
export async function serve(config: StubConfig): Promise<{ app: FastifyInstance; url: string } | number> {
  let holder: StateHolder;
  const started = performance.now();
  try {
    holder = { current: await loadState(stateOptions(config)) };
  } catch (e) {
    printLoadError(e);
    return 1;
  }
  const app = await buildApp(config, holder);
  try {
    await app.listen({ host: config.host, port: config.port });
  } catch (e) {
    process.stderr.write(`${colors.red('error')}: cannot listen on ${config.host}:${config.port}: ${(e as Error).message}\n`);
    return 1;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  const url = `http://${host}:${port}`;
  const describe = (state: StubState) => [...servedTable(state), ...formatWarnings(state.warnings)].join('\n');
  process.stdout.write(
    `Workplace Administration Service stub listening on ${colors.bold(url)}\n` +
      `  ${holder.current.model.collections.size} collections under ${url}/api/v1/, ready in ${Math.round(performance.now() - started)} ms\n${describe(holder.current)}\n`,
  );
  const say = (line: string) => (app.requestLog ? app.requestLog.message(line) : process.stdout.write(`${line}\n`));
  const watcher = config.watch
    ? watchState(holder.current, {
        state: stateOptions(config),
        typesFile: config.typesFile,
        onState: (next) => {
          holder.current = next;
          say(describe(next));
        },
        log: say,
      })
    : undefined;
  if (watcher) process.stdout.write(`  watching ${holder.current.files.length} spec and fixture files for changes\n`);
  let closing = false;
  const stop = (signal: string) => {
    if (closing) return;
    closing = true;
    process.stdout.write(`${signal}: closing, letting requests in flight finish\n`);
    watcher?.close();
    app.close().then(
      async () => {
        await app.requestLog?.drain();
        process.exit(0);
      },
      () => process.exit(1),
    );
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
  return { app, url };
}
