import path from 'node:path';
import { type Contract, loadContract } from '../contract/load.js';
import { runRecord } from '../contract/record.js';
import { exitCode } from '../contract/report.js';
import { textReport } from '../contract/reporters.js';
import { printable } from '../contract/safe-text.js';
import { printLoadError } from '../load/report.js';
import { checkBaseUrl, parseHeaders } from './contract-options.js';
import { reason } from './report-files.js';

export interface RecordFlags {
  baseUrl: string;
  out: string;
  force: boolean;
  spec: string;
  header: string[];
  timeout: number;
  maxBody: number;
  concurrency: number;
  maxPages: number;
  allowTruncated: boolean;
  only: string[];
  format: string;
}

const fail = (message: string): number => {
  process.stderr.write(`error: ${printable(message)}\n`);
  return 2;
};

/**
 * `record`: exit 0 when every collection was recorded, 1 when one was not (cut short, invalid
 * items, an error answer), 2 on bad arguments, an existing fixture without --force, or nothing
 * reachable, 3 when the recorder failed itself.
 */
export async function record(flags: RecordFlags): Promise<number> {
  const base = checkBaseUrl(flags.baseUrl, '--base-url');
  if (!base.ok) return fail(base.error);
  const headers = parseHeaders(flags.header);
  if (!headers.ok) return fail(headers.error);
  let contract: Contract;
  try {
    contract = await loadContract(flags.spec);
  } catch (e) {
    printLoadError(e);
    return 2;
  }
  const unknown = flags.only.filter((r) => !contract.operations.lists.some((l) => l.resource === r));
  if (unknown.length > 0) return fail(`--only names no collection of the spec: ${unknown.join(', ')}`);
  try {
    const result = await runRecord(contract, {
      baseUrl: flags.baseUrl,
      headers: headers.headers,
      timeoutMs: flags.timeout,
      maxBody: flags.maxBody,
      concurrency: flags.concurrency,
      maxPages: flags.maxPages,
      allowTruncated: flags.allowTruncated,
      only: flags.only,
      format: flags.format === 'none' ? '' : flags.format,
      outDir: flags.out,
      force: flags.force,
    });
    if (!result.ok) return fail(result.error);
    const code = exitCode(result.report);
    if (code === 2) {
      process.stdout.write(textReport(result.report));
      return 2;
    }
    const rel = (f: string) => path.relative(process.cwd(), f) || f;
    const lines = [`Recording of ${result.report.baseUrl} into ${rel(flags.out)}`, ''];
    for (const c of result.collections) {
      lines.push(
        c.written
          ? `✓ ${c.resource}: ${c.items} items → ${rel(c.file)}${c.redacted ? ` (${c.redacted} with a credential redacted)` : ''}`
          : `✗ ${c.resource}: not written: ${c.reason ?? ''}`,
      );
    }
    if (result.suggested)
      lines.push(
        '',
        `Suggested schemas for collections whose items the spec does not describe: ${rel(result.suggested)} (review; never applied)`,
      );
    const violations = result.report.violations.length;
    if (violations > 0)
      lines.push(
        '',
        `${violations} contract violations seen while recording: run \`workplace-stub check --base-url ${result.report.baseUrl}\` for them`,
      );
    lines.push(
      '',
      `Serve it: workplace-stub --fixtures ${rel(flags.out)}${result.pageSize ? ` --page-size ${result.pageSize}` : ''}`,
      '',
    );
    process.stdout.write(lines.join('\n'));
    return result.collections.every((c) => c.written) ? 0 : 1;
  } catch (e) {
    process.stderr.write(`error: the recorder failed: ${printable(reason(e))}\n`);
    return 3;
  }
}
