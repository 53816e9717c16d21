import { writeFile } from 'node:fs/promises';
import { printLoadError } from '../load/report.js';
import { exitCode, runCheck } from '../contract/checker.js';
import { loadContract } from '../contract/load.js';
import { jsonReport, junitReport, textReport } from '../contract/reporters.js';

export interface CheckFlags {
  baseUrl: string;
  spec: string;
  header: string[];
  timeout: number;
  concurrency: number;
  maxPages: number;
  only: string[];
  itemUrls: number | undefined;
  format: string;
  json: boolean;
  junit?: string;
}

/** `check`: answers the exit code (0 holds, 1 violations, 2 unreachable or bad arguments). */
export async function check(flags: CheckFlags): Promise<number> {
  const headers: Record<string, string> = {};
  for (const h of flags.header) {
    const i = h.indexOf(':');
    if (i <= 0) {
      process.stderr.write(`error: --header takes "Name: value" (got a value without a colon)\n`);
      return 2;
    }
    headers[h.slice(0, i).trim().toLowerCase()] = h.slice(i + 1).trim();
  }
  let base: URL;
  try {
    base = new URL(flags.baseUrl);
    if (base.protocol !== 'http:' && base.protocol !== 'https:') throw new Error('not http(s)');
  } catch {
    process.stderr.write(`error: --base-url must be an absolute http(s) URL\n`);
    return 2;
  }
  let contract;
  try {
    contract = await loadContract(flags.spec);
  } catch (e) {
    printLoadError(e);
    return 2;
  }
  const unknown = flags.only.filter((r) => !contract.operations.lists.some((l) => l.resource === r));
  if (unknown.length > 0) {
    process.stderr.write(`error: --only names no collection of the spec: ${unknown.join(', ')}\n`);
    return 2;
  }
  const progress = process.stderr.isTTY && !flags.json;
  const report = await runCheck(contract, {
    baseUrl: flags.baseUrl,
    headers,
    timeoutMs: flags.timeout,
    concurrency: flags.concurrency,
    maxPages: flags.maxPages,
    only: flags.only,
    itemUrls: flags.itemUrls,
    format: flags.format === 'none' ? '' : flags.format,
    onProgress: progress ? (m) => process.stderr.write(`\r\x1b[2Kchecking ${m}`) : undefined,
  });
  if (progress) process.stderr.write('\r\x1b[2K');
  process.stdout.write(flags.json ? jsonReport(report) : textReport(report));
  if (flags.junit) await writeFile(flags.junit, junitReport(report));
  return exitCode(report);
}
