import { type Contract, loadContract } from '../contract/load.js';
import { printLoadError } from '../load/report.js';

/** The contract of `spec`; undefined once its problems are printed (the command then exits 2). */
export async function contractOf(spec: string): Promise<Contract | undefined> {
  try {
    return await loadContract(spec);
  } catch (e) {
    printLoadError(e);
    return undefined;
  }
}

/** The error for what `--only` names that the spec holds no collection of; undefined when none. */
export function unknownOnly(contract: Contract, only: readonly string[]): string | undefined {
  const unknown = only.filter((r) => !contract.operations.lists.some((l) => l.resource === r));
  return unknown.length > 0 ? `--only names no collection of the spec: ${unknown.join(', ')}` : undefined;
}

/** The settings `check` and `record` share, resolved (contract-config.ts): every value checked already. */
export interface CrawlFlags {
  baseUrl: string;
  spec: string;
  headers?: Record<string, string>;
  timeout: number;
  maxBody: number;
  concurrency: number;
  maxPages: number;
  allowTruncated: boolean;
  only: string[];
  format: string;
}

/** The crawl's options from those settings (`--format none`: no format parameter). */
export function crawlOptions(flags: CrawlFlags) {
  return {
    baseUrl: flags.baseUrl,
    headers: flags.headers ?? {},
    timeoutMs: flags.timeout,
    concurrency: flags.concurrency,
    maxPages: flags.maxPages,
    maxBody: flags.maxBody,
    allowTruncated: flags.allowTruncated,
    only: flags.only,
    format: flags.format === 'none' ? '' : flags.format,
  };
}
