import path from 'node:path';
import { contractOf, type CrawlFlags, crawlOptions, unknownOnly } from './contract-load.js';
import { runRecord } from '../contract/record.js';
import { discardStage } from '../contract/record-folder.js';
import { count } from '../contract/words.js';
import { exitCode } from '../contract/report.js';
import { textReport } from '../contract/reporters.js';
import { printable } from '../contract/safe-text.js';
import { badArgument, reason } from './report-files.js';

/** The settings of `record`, resolved (contract-config.ts): every value checked already. */
export interface RecordFlags extends CrawlFlags {
  out: string;
  force: boolean;
}

/**
 * `record`: exit 0 when every collection was recorded, 1 when one was not (cut short, invalid
 * items, an error answer), 2 on bad arguments, an existing fixture without --force, or nothing
 * reachable, 3 when the recorder failed itself.
 */
export async function record(flags: RecordFlags): Promise<number> {
  const contract = await contractOf(flags.spec);
  if (contract === undefined) return 2;
  const unknown = unknownOnly(contract, flags.only);
  if (unknown !== undefined) return badArgument(unknown);
  // Interrupted (Ctrl-C, a CI job cancelled): the staging folder goes, --out is left as it was;
  // then the process ends by the same signal, as it would have without this handler.
  let stage: string | undefined;
  const interrupted = (signal: NodeJS.Signals) => {
    if (stage !== undefined) discardStage(stage);
    process.off('SIGINT', interrupted);
    process.off('SIGTERM', interrupted);
    process.kill(process.pid, signal);
  };
  process.on('SIGINT', interrupted);
  process.on('SIGTERM', interrupted);
  try {
    const result = await runRecord(contract, {
      ...crawlOptions(flags),
      outDir: flags.out,
      force: flags.force,
      onStage: (dir) => {
        stage = dir;
      },
    });
    if (!result.ok) return badArgument(result.error);
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
          ? `✓ ${c.resource}: ${count(c.items, 'item')} → ${rel(c.file)}${c.redacted ? ` (${c.redacted} with a credential redacted)` : ''}`
          : `✗ ${c.resource}: not written: ${c.reason ?? ''}`,
      );
    }
    if (result.carried.length > 0)
      lines.push('', `Kept from the folder before (not recorded this time): ${result.carried.join(', ')}`);
    if (result.suggested)
      lines.push(
        '',
        `Suggested schemas for collections whose items the spec does not describe: ${rel(result.suggested)} (review; never applied)`,
      );
    const violations = result.report.violations.length;
    if (violations > 0)
      lines.push(
        '',
        `${count(violations, 'contract violation')} seen while recording: run \`workplace-stub check --base-url ${result.report.baseUrl}\` for them`,
      );
    const missing = result.collections.filter((c) => !c.written);
    // Only a whole recording is one to serve: in place of a collection missing, the stub would
    // serve the spec's examples beside the recorded ones.
    lines.push(
      '',
      missing.length === 0
        ? `Serve it: workplace-stub --fixtures ${rel(flags.out)}${result.pageSize ? ` --page-size ${result.pageSize}` : ''}`
        : `Not a complete recording: ${count(missing.length, 'collection')} of ${result.collections.length} not recorded (${missing.map((c) => c.resource).join(', ')}). Record again when the reasons above are gone (--only names the collections to record; the others are kept).`,
      '',
    );
    process.stdout.write(lines.join('\n'));
    return missing.length === 0 ? 0 : 1;
  } catch (e) {
    process.stderr.write(`error: the recorder failed: ${printable(reason(e))}\n`);
    return 3;
  } finally {
    process.off('SIGINT', interrupted);
    process.off('SIGTERM', interrupted);
  }
}
