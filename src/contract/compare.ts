import { type CheckOptions, runCheck } from './checker.js';
import { DriftCollector, type DriftReport } from './drift.js';
import type { Contract } from './load.js';
import { Redactor, secretsOfHeader } from './redact.js';
import { type CheckReport, exitCode } from './report.js';
import { BaseScope } from './scope.js';

export interface CompareResult {
  readonly a: CheckReport;
  readonly b: CheckReport;
  /** Undefined when either deployment could not be checked at all. */
  readonly drift: DriftReport | undefined;
}

/**
 * Two deployments of the service (§9.2: each with its own base in its urls): each checked on its
 * own, one after the other (the second's items are compared with the first's as they arrive),
 * then what differs. Each gets only its own headers: production's token never goes to staging.
 */
export async function runCompare(
  contract: Contract,
  a: CheckOptions,
  b: CheckOptions,
  failOnDrift: boolean,
): Promise<CompareResult> {
  const secrets = [...Object.values(a.headers), ...Object.values(b.headers)].flatMap(secretsOfHeader);
  const drift = new DriftCollector(contract, new BaseScope(a.baseUrl), new BaseScope(b.baseUrl), new Redactor(secrets));
  const reportA = await runCheck(contract, { ...a, observer: drift.observerA });
  if (exitCode(reportA) >= 2) return { a: reportA, b: await runCheck(contract, b), drift: undefined };
  const reportB = await runCheck(contract, { ...b, observer: drift.observerB });
  if (exitCode(reportB) >= 2) return { a: reportA, b: reportB, drift: undefined };
  const lists = contract.operations.lists.filter((l) => a.only.length === 0 || a.only.includes(l.resource));
  return { a: reportA, b: reportB, drift: drift.report(reportA.endpoints, reportB.endpoints, lists, failOnDrift) };
}

/** The run's exit code: the worse of the two checks; drift fails it (1) only with --fail-on-drift. */
export function compareExitCode(r: CompareResult): number {
  const codes = [exitCode(r.a), exitCode(r.b)];
  const worst = Math.max(...codes);
  if (worst >= 2) return worst;
  const drifted = r.drift !== undefined && r.drift.violations.length + r.drift.omitted > 0;
  return worst === 1 || (drifted && r.drift?.failOnDrift) ? 1 : 0;
}
