import type { FastifyInstance } from 'fastify';
import { buildApp, type StateHolder } from './app.js';
import type { StubConfig } from './config.js';
import { colors } from './log.js';
import { printLoadError } from './print-load-error.js';
import { loadState, stateOptions } from './state.js';
import { watchState } from './watch.js';

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
  const { collections } = holder.current;
  process.stdout.write(
    `Workplace Administration Service stub listening on ${colors.bold(url)}\n` +
      `  ${collections.size} collections under ${url}/api/v1/, ready in ${Math.round(performance.now() - started)} ms\n`,
  );
  const watcher = config.watch ? watchState(config, holder) : undefined;
  if (watcher) process.stdout.write(`  watching ${holder.current.files.length} spec and fixture files for changes\n`);
  let closing = false;
  const stop = (signal: string) => {
    if (closing) return;
    closing = true;
    process.stdout.write(`${signal}: closing, letting requests in flight finish\n`);
    watcher?.close();
    app.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
  return { app, url };
}
