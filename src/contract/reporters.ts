import path from 'node:path';
import colors from 'picocolors';
import type { DriftReport } from './drift.js';
import { type CheckReport, type EndpointResult, totalViolations, violationCount } from './report.js';
import { RULES, type Violation } from './rules.js';
import { printable } from './safe-text.js';
import { count } from './words.js';

export { junitReport } from './junit.js';

function groupBy<T>(items: readonly T[], key: (t: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = out.get(k);
    if (list) list.push(item);
    else out.set(k, [item]);
  }
  return out;
}

const SHOWN_PER_RULE = 20;

export function summaryLine(report: CheckReport): string {
  const failed = report.endpoints.filter((e) => violationCount(e) > 0).length;
  const rules = new Set(
    report.endpoints.flatMap((e) => [...e.violations.map((v) => v.rule), ...Object.keys(e.omitted)]),
  ).size;
  const notVerified = report.endpoints.filter((e) => e.truncated).length;
  const note = notVerified > 0 ? ` (${notVerified} not verified to the end: --max-pages)` : '';
  return `${count(report.endpoints.length, 'endpoint')} checked with ${count(report.requests, 'request')} in ${report.durationMs} ms: ${report.endpoints.length - failed} passed, ${failed} failed${note}; ${count(totalViolations(report), 'violation')} of ${count(rules, 'rule')}`;
}

function violationLines(e: EndpointResult, vs: readonly Violation[], omitted: number): string[] {
  const lines: string[] = [];
  for (const v of vs.slice(0, SHOWN_PER_RULE)) {
    const where = v.endpoint === e.endpoint ? '' : `${v.endpoint} `;
    lines.push(`      ${where}${v.pointer || '/'} at ${v.url}`);
    lines.push(`        expected: ${v.expected}`);
    lines.push(`        found:    ${v.found}`);
  }
  const more = Math.max(0, vs.length - SHOWN_PER_RULE) + omitted;
  if (more > 0) lines.push(`      … and ${more} more`);
  return lines;
}

function endpointNotes(e: EndpointResult): string {
  const notes = [
    e.truncated ? `stopped at ${count(e.pages, 'page')}, --max-pages: not verified` : '',
    e.itemUrlsSkipped > 0
      ? `${e.itemUrlsFetched} of ${count(e.itemUrlsFetched + e.itemUrlsSkipped, 'item url')} fetched, --item-urls`
      : '',
  ].filter(Boolean);
  return notes.length > 0 ? colors.yellow(` (${notes.join('; ')})`) : '';
}

/** The readable report: grouped by endpoint, then rule; each violation with pointer, expected, found. */
export function textReport(report: CheckReport, drift?: DriftReport): string {
  if (report.unreachable !== undefined)
    return `${colors.red('error')}: ${report.baseUrl} cannot be reached: ${report.unreachable}\n`;
  const lines = [
    `Contract check of ${colors.bold(report.baseUrl)} against ${path.relative(process.cwd(), report.specFile) || report.specFile}`,
    '',
  ];
  for (const e of report.endpoints) {
    const stats = colors.dim(` ${count(e.pages, 'page')}, ${count(e.items, 'item')}`);
    if (violationCount(e) === 0) {
      lines.push(`${colors.green('✓')} ${e.endpoint}${stats}${endpointNotes(e)}`);
      continue;
    }
    lines.push(`${colors.red('✗')} ${e.endpoint}${stats}${endpointNotes(e)}`);
    const byRule = groupBy(e.violations, (v) => v.rule);
    for (const rule of Object.keys(e.omitted)) if (!byRule.has(rule)) byRule.set(rule, []);
    for (const [rule, vs] of byRule) {
      const def = RULES[rule as Violation['rule']];
      lines.push(`    ${colors.bold(rule)} ${colors.dim(`(${def.source}: ${def.text})`)}`);
      lines.push(...violationLines(e, vs, e.omitted[rule as Violation['rule']] ?? 0));
    }
  }
  for (const hint of report.hints) lines.push('', `${colors.yellow('hint')}: ${printable(hint)}`);
  if (report.aborted !== undefined)
    lines.push('', `${colors.red('error')}: the checker failed before the end: ${printable(report.aborted)}`);
  lines.push(
    '',
    totalViolations(report) === 0 && !report.refused
      ? colors.green(summaryLine(report))
      : colors.red(summaryLine(report)),
    '',
  );
  if (drift) lines.push(...driftLines(drift));
  return lines.join('\n');
}

function driftLines(drift: DriftReport): string[] {
  const lines = [`Drift between ${colors.bold(drift.baseA)} and ${colors.bold(drift.baseB)}`, ''];
  for (const [endpoint, vs] of groupBy(drift.violations, (v) => v.endpoint)) {
    lines.push(`${colors.yellow('≠')} ${endpoint}`);
    for (const [rule, rvs] of groupBy(vs, (v) => v.rule)) {
      const def = RULES[rule as Violation['rule']];
      lines.push(`    ${colors.bold(rule)} ${colors.dim(`(${def.source}: ${def.text})`)}`);
      for (const v of rvs.slice(0, SHOWN_PER_RULE)) {
        lines.push(`      ${v.pointer || '/'} at ${v.url}`);
        lines.push(`        ${drift.baseA}: ${v.expected}`);
        lines.push(`        ${drift.baseB}: ${v.found}`);
      }
      if (rvs.length > SHOWN_PER_RULE) lines.push(`      … and ${rvs.length - SHOWN_PER_RULE} more`);
    }
  }
  const n = drift.violations.length + drift.omitted;
  lines.push(
    '',
    n === 0
      ? colors.green('no drift: the same collections, counts, items and fields')
      : colors.yellow(
          `${count(n, 'difference')} (${drift.failOnDrift ? 'failing the run: --fail-on-drift' : 'reported only; --fail-on-drift fails the run'})`,
        ),
    '',
  );
  return lines;
}

function reportObject(report: CheckReport): Record<string, unknown> {
  return {
    baseUrl: report.baseUrl,
    ok:
      report.unreachable === undefined &&
      !report.refused &&
      report.aborted === undefined &&
      totalViolations(report) === 0,
    unreachable: report.unreachable ?? null,
    aborted: report.aborted ?? null,
    hints: report.hints,
    durationMs: report.durationMs,
    requests: report.requests,
    summary: report.unreachable === undefined ? summaryLine(report) : null,
    endpoints: report.endpoints.map((e) => ({ ...e, violations: violationCount(e), rules: undefined })),
    violations: report.violations.map((v) => ({ ...v, source: RULES[v.rule].source, ruleText: RULES[v.rule].text })),
  };
}

const driftObject = (drift: DriftReport) => ({
  baseA: drift.baseA,
  baseB: drift.baseB,
  failOnDrift: drift.failOnDrift,
  differences: drift.violations.length + drift.omitted,
  violations: drift.violations,
});

/** The report as JSON, for machines. */
export function jsonReport(report: CheckReport): string {
  return `${JSON.stringify(reportObject(report), null, 2)}\n`;
}

/** Two deployments' reports and their drift as JSON. */
export function jsonCompareReport(
  a: CheckReport,
  b: CheckReport,
  drift: DriftReport | undefined,
  exitCode: number,
): string {
  return `${JSON.stringify({ exitCode, deployments: [reportObject(a), reportObject(b)], drift: drift ? driftObject(drift) : null }, null, 2)}\n`;
}
