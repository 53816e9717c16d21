import path from 'node:path';
import colors from 'picocolors';
import type { CheckReport } from './checker.js';
import { RULES, type Violation } from './rules.js';

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

export function summaryLine(report: CheckReport): string {
  const failed = report.endpoints.filter((e) => e.violations.length > 0).length;
  const rules = new Set(report.violations.map((v) => v.rule)).size;
  return `${report.endpoints.length} endpoints checked with ${report.requests} requests in ${report.durationMs} ms: ${report.endpoints.length - failed} passed, ${failed} failed; ${report.violations.length} violations of ${rules} rules`;
}

/** The readable report: grouped by endpoint, then rule; each violation with pointer, expected, found. */
export function textReport(report: CheckReport): string {
  if (report.unreachable !== undefined) return `${colors.red('error')}: ${report.baseUrl} cannot be reached: ${report.unreachable}\n`;
  const lines = [`Contract check of ${colors.bold(report.baseUrl)} against ${path.relative(process.cwd(), report.specFile) || report.specFile}`, ''];
  for (const e of report.endpoints) {
    const notes = [
      e.truncated ? `stopped at ${e.pages} pages, --max-pages: count not verified` : '',
      e.itemUrlsSkipped > 0 ? `${e.itemUrlsFetched} of ${e.itemUrlsFetched + e.itemUrlsSkipped} item urls fetched, --item-urls` : '',
    ].filter(Boolean);
    const note = notes.length > 0 ? colors.yellow(` (${notes.join('; ')})`) : '';
    const stats = colors.dim(` ${e.pages} pages, ${e.items} items`);
    if (e.violations.length === 0) {
      lines.push(`${colors.green('✓')} ${e.endpoint}${stats}${note}`);
      continue;
    }
    lines.push(`${colors.red('✗')} ${e.endpoint}${stats}${note}`);
    for (const [rule, vs] of groupBy(e.violations, (v) => v.rule)) {
      const def = RULES[rule as Violation['rule']];
      lines.push(`    ${colors.bold(rule)} ${colors.dim(`(${def.source}: ${def.text})`)}`);
      for (const v of vs.slice(0, 20)) {
        const where = v.endpoint === e.endpoint ? '' : `${v.endpoint} `;
        lines.push(`      ${where}${v.pointer || '/'} at ${v.url}`);
        lines.push(`        expected: ${v.expected}`);
        lines.push(`        found:    ${v.found}`);
      }
      if (vs.length > 20) lines.push(`      … and ${vs.length - 20} more`);
    }
  }
  lines.push('', report.violations.length === 0 ? colors.green(summaryLine(report)) : colors.red(summaryLine(report)), '');
  return lines.join('\n');
}

export function jsonReport(report: CheckReport): string {
  return `${JSON.stringify(
    {
      baseUrl: report.baseUrl,
      ok: report.unreachable === undefined && report.violations.length === 0,
      unreachable: report.unreachable ?? null,
      durationMs: report.durationMs,
      requests: report.requests,
      summary: report.unreachable === undefined ? summaryLine(report) : null,
      endpoints: report.endpoints.map((e) => ({ ...e, violations: e.violations.length })),
      violations: report.violations.map((v) => ({ ...v, source: RULES[v.rule].source, ruleText: RULES[v.rule].text })),
    },
    null,
    2,
  )}\n`;
}

const xml = (s: string): string =>
  s.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c] ?? c).replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '');

/** JUnit XML: one testcase per endpoint and rule that applies to it, a failure per broken rule. */
export function junitReport(report: CheckReport): string {
  const cases: string[] = [];
  let failures = 0;
  if (report.unreachable !== undefined) {
    failures = 1;
    cases.push(`<testcase classname="contract" name="reach ${xml(report.baseUrl)}"><failure message="${xml(report.unreachable)}"/></testcase>`);
  }
  for (const e of report.endpoints) {
    const byRule = groupBy(e.violations, (v) => v.rule);
    if (byRule.size === 0) cases.push(`<testcase classname="${xml(e.endpoint)}" name="${xml(e.operationId)}: every rule holds"/>`);
    for (const [rule, vs] of byRule) {
      failures++;
      const body = vs.map((v) => `${v.endpoint} ${v.pointer || '/'} at ${v.url}\n  expected: ${v.expected}\n  found: ${v.found}`).join('\n');
      cases.push(
        `<testcase classname="${xml(e.endpoint)}" name="${xml(`${e.operationId}: ${rule}`)}"><failure message="${xml(`${RULES[rule as Violation['rule']].source}: ${RULES[rule as Violation['rule']].text}`)}">${xml(body)}</failure></testcase>`,
      );
    }
  }
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites><testsuite name="contract ${xml(report.baseUrl)}" tests="${cases.length}" failures="${failures}" time="${(report.durationMs / 1000).toFixed(3)}">\n${cases.join('\n')}\n</testsuite></testsuites>\n`;
}
