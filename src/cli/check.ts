import { type CheckOptions, runCheck } from '../contract/checker.js';
import { compareExitCode, runCompare } from '../contract/compare.js';
import { contractOf, type CrawlFlags, crawlOptions, unknownOnly } from './contract-load.js';
import { type CheckReport, type EndpointResult, exitCode } from '../contract/report.js';
import { jsonCompareReport, jsonReport, junitReport, textReport } from '../contract/reporters.js';
import { printable } from '../contract/safe-text.js';
import { badArgument, prepareReportFile, reason, writeJunit, writeReportFile } from './report-files.js';

/** The settings of `check`, resolved (contract-config.ts): every value checked already. */
export interface CheckFlags extends CrawlFlags {
  compare?: string;
  compareHeaders?: Record<string, string>;
  failOnDrift: boolean;
  itemUrls: number | undefined;
  probes: boolean;
  json: boolean;
  junit?: string;
}

/**
 * `check`: answers the exit code. 0 the contract holds; 1 violations (drift only with
 * --fail-on-drift); 2 bad arguments, nothing reachable, or every collection refused access;
 * 3 the checker itself failed: one line on stderr saying why, after the reports of what was done.
 */
export async function check(flags: CheckFlags): Promise<number> {
  if (flags.junit !== undefined) {
    const why = await prepareReportFile(flags.junit);
    if (why) return badArgument(`--junit: ${why}`);
  }
  const contract = await contractOf(flags.spec);
  if (contract === undefined) return 2;
  const unknown = unknownOnly(contract, flags.only);
  if (unknown !== undefined) return badArgument(unknown);

  const progress = process.stderr.isTTY && !flags.json;
  const done: EndpointResult[] = [];
  const opts: CheckOptions = {
    ...crawlOptions(flags),
    itemUrls: flags.itemUrls,
    probes: flags.probes,
    onEndpoint: (e) => done.push(e),
    // Progress names only paths of the spec, never a url a deployment wrote.
    onProgress: progress ? (m) => process.stderr.write(`\r\x1b[2Kchecking ${printable(m)}`) : undefined,
  };
  // A defect of the checker (or of the machine) anywhere, even in a callback: the reports of
  // what was done, then one line and exit 3; never a stack trace that CI reads as violations.
  const aborted = async (e: unknown): Promise<number> => {
    const why = reason(e);
    if (progress) process.stderr.write('\r\x1b[2K');
    const partial: CheckReport = {
      baseUrl: new URL(flags.baseUrl).href,
      specFile: contract.spec.rootFile,
      durationMs: 0,
      requests: 0,
      endpoints: done,
      violations: done.flatMap((x) => x.violations),
      unreachable: undefined,
      hints: [],
      refused: false,
      aborted: why,
    };
    try {
      process.stdout.write(flags.json ? jsonReport(partial) : textReport(partial));
      if (flags.junit) await writeReportFile(flags.junit, junitReport(partial));
    } catch {
      // The reports could not be written either: the one line below is all there is.
    }
    process.stderr.write(`error: the checker failed: ${printable(why)}\n`);
    return 3;
  };
  const onCrash = (e: unknown) => void aborted(e).then((code) => process.exit(code));
  process.once('uncaughtException', onCrash);
  process.once('unhandledRejection', onCrash);
  try {
    let code: number;
    let outputs: { text: string; json: string; junit: string };
    if (flags.compare !== undefined) {
      const result = await runCompare(
        contract,
        opts,
        { ...opts, baseUrl: flags.compare, headers: flags.compareHeaders ?? {} },
        flags.failOnDrift,
      );
      code = compareExitCode(result);
      outputs = {
        text: textReport(result.a) + textReport(result.b, result.drift),
        json: jsonCompareReport(result.a, result.b, result.drift, code),
        junit: junitReport([result.a, result.b], result.drift),
      };
    } else {
      const report = await runCheck(contract, opts);
      code = exitCode(report);
      outputs = { text: textReport(report), json: jsonReport(report), junit: junitReport(report) };
    }
    if (progress) process.stderr.write('\r\x1b[2K');
    process.stdout.write(flags.json ? outputs.json : outputs.text);
    if (flags.junit && !(await writeJunit(flags.junit, outputs.junit, 'the checker'))) return 3;
    return code;
  } catch (e) {
    return aborted(e);
  } finally {
    process.off('uncaughtException', onCrash);
    process.off('unhandledRejection', onCrash);
  }
}
