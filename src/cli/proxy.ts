import { contractOf } from './contract-load.js';
import { junitFromEndpoints } from '../contract/junit.js';
import { startProxy } from '../contract/proxy/proxy-server.js';
import { printable } from '../contract/safe-text.js';
import { badArgument, prepareReportFile, reason, writeJunit } from './report-files.js';

/** The settings of `proxy`, resolved (contract-config.ts): every value checked already. */
export interface ProxyFlags {
  /** The upstream (--upstream). */
  baseUrl: string;
  port: number;
  host: string;
  spec: string;
  errors: boolean;
  /** Origins checked by corsOrigin already. */
  corsOrigins?: string[];
  junit?: string;
  timeout: number;
  maxBody: number;
}

/**
 * `proxy`: listens until SIGINT or SIGTERM, then prints the session's summary (and writes
 * --junit). Exit 0 when no answer broke the contract, 1 when one did, 2 on bad arguments or a
 * port it cannot listen on, 3 when it failed itself.
 */
export async function proxy(flags: ProxyFlags): Promise<number> {
  if (flags.junit !== undefined) {
    const why = await prepareReportFile(flags.junit);
    if (why) return badArgument(`--junit: ${why}`);
  }
  const contract = await contractOf(flags.spec);
  if (contract === undefined) return 2;
  let running;
  try {
    running = await startProxy({
      contract,
      upstream: flags.baseUrl,
      host: flags.host,
      port: flags.port,
      errors: flags.errors,
      timeoutMs: flags.timeout,
      maxBody: flags.maxBody,
      corsOrigins: flags.corsOrigins ?? [],
      log: (line) => process.stderr.write(`${printable(line)}\n`),
    });
  } catch (e) {
    process.stderr.write(`error: cannot listen on ${flags.host}:${flags.port}: ${printable(reason(e))}\n`);
    return 2;
  }
  process.stdout.write(
    `Validating proxy of ${running.session.upstream}${flags.errors ? ' (--errors: broken answers become 502)' : ''} listening on ${running.url}\n`,
  );
  await new Promise<void>((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
  const session = await running.stop();
  process.stdout.write(session.text());
  if (flags.junit) {
    const xml = junitFromEndpoints(`proxy ${session.upstream}`, session.endpoints, session.durationMs);
    if (!(await writeJunit(flags.junit, xml, 'the proxy'))) return 3;
  }
  return session.violations > 0 ? 1 : 0;
}
