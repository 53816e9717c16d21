import type { FastifyInstance } from 'fastify';
import { buildApp, type StateHolder } from './app.js';
import type { StubConfig } from './config.js';
import { LoadError } from './errors.js';
import { colors } from './log.js';
import { loadState } from './state.js';

export function stateOptions(config: StubConfig) {
  return { specFile: config.specFile, fixturesDir: config.fixturesDir, seed: config.seed, defaultGenerateCount: config.generateCount };
}

/** Prints a LoadError's problems, one per line: file, place, reason. */
export function printLoadError(e: unknown, write: (s: string) => void = (s) => process.stderr.write(s)): void {
  if (e instanceof LoadError) {
    write(`${colors.red('error')}: the spec or fixtures cannot be served:\n`);
    for (const p of e.problems) write(`  ${p.file}${p.pointer ? ` at ${p.pointer}` : ''}: ${p.reason}\n`);
  } else {
    write(`${colors.red('error')}: ${e instanceof Error ? e.message : String(e)}\n`);
  }
}

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
  let closing = false;
  const stop = (signal: string) => {
    if (closing) return;
    closing = true;
    process.stdout.write(`${signal}: closing, letting requests in flight finish\n`);
    app.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
  return { app, url };
}
