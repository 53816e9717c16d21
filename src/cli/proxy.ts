import { type Contract, loadContract } from '../contract/load.js';
import { junitFromEndpoints } from '../contract/junit.js';
import { corsOrigin } from '../contract/proxy/cors.js';
import { startProxy } from '../contract/proxy/proxy-server.js';
import { printable } from '../contract/safe-text.js';
import { printLoadError } from '../load/report.js';
import { checkBaseUrl } from './contract-options.js';
import { prepareReportFile, reason, writeReportFile } from './report-files.js';

export interface ProxyFlags {
  upstream: string;
  port: number;
  host: string;
  spec: string;
  errors: boolean;
  corsOrigin: string[];
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
  const upstream = checkBaseUrl(flags.upstream, '--upstream');
  if (!upstream.ok) {
    process.stderr.write(`error: ${upstream.error}\n`);
    return 2;
  }
  const corsOrigins: string[] = [];
  for (const value of flags.corsOrigin) {
    const o = corsOrigin(value);
    if (!o.ok) {
      process.stderr.write(`error: ${printable(o.error)}\n`);
      return 2;
    }
    corsOrigins.push(o.origin);
  }
  if (flags.junit !== undefined) {
    const why = await prepareReportFile(flags.junit);
    if (why) {
      process.stderr.write(`error: --junit: ${printable(why)}\n`);
      return 2;
    }
  }
  let contract: Contract;
  try {
    contract = await loadContract(flags.spec);
  } catch (e) {
    printLoadError(e);
    return 2;
  }
  let running;
  try {
    running = await startProxy({
      contract,
      upstream: flags.upstream,
      host: flags.host,
      port: flags.port,
      errors: flags.errors,
      timeoutMs: flags.timeout,
      maxBody: flags.maxBody,
      corsOrigins,
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
    try {
      await writeReportFile(
        flags.junit,
        junitFromEndpoints(`proxy ${session.upstream}`, session.endpoints, session.durationMs),
      );
    } catch (e) {
      process.stderr.write(
        `error: the proxy failed: cannot write the JUnit report to ${printable(flags.junit)}: ${printable(reason(e))}\n`,
      );
      return 3;
    }
  }
  return session.violations > 0 ? 1 : 0;
}
