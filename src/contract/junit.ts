import { hostname } from 'node:os';
import type { DriftReport } from './drift.js';
import type { CheckReport, EndpointResult } from './report.js';
import { DRIFT_RULES, RULES, type RuleId, type Violation } from './rules.js';

// XML 1.0 allows no C0 control but tab and line breaks, no lone surrogate, no U+FFFE/FFFF.
const INVALID_XML =
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** Text content: markup escaped, characters XML cannot hold dropped. */
const text = (s: string): string =>
  s.replace(INVALID_XML, '').replace(/[<>&]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;' })[c] ?? c);
/** An attribute value: line breaks kept as character references (a parser would turn them into spaces). */
const attr = (s: string): string =>
  text(s)
    .replace(/["']/g, (c) => (c === '"' ? '&quot;' : '&apos;'))
    .replace(/\n/g, '&#10;')
    .replace(/\r/g, '&#13;')
    .replace(/\t/g, '&#9;');
const seconds = (ms: number): string => (Math.max(0, ms) / 1000).toFixed(3);

interface Case {
  readonly classname: string;
  readonly name: string;
  readonly ms: number;
  readonly failure?: { message: string; type: string; body: string };
  readonly skipped?: string;
  readonly out?: string;
}

interface Suite {
  readonly name: string;
  readonly ms: number;
  readonly timestamp: string;
  readonly cases: readonly Case[];
}

const ruleMessage = (rule: RuleId): string => `${RULES[rule].source}: ${RULES[rule].text}`;

function violationText(vs: readonly Violation[], omitted: number): string {
  const lines = vs.map(
    (v) => `${v.endpoint} ${v.pointer || '/'} at ${v.url}\n  expected: ${v.expected}\n  found:    ${v.found}`,
  );
  if (omitted > 0) lines.push(`… and ${omitted} more`);
  return lines.join('\n');
}

/**
 * One testcase per endpoint and rule that applies to it, on every run: passing, failing (with
 * every violation) or skipped (with why), so test names are the same whatever the outcome.
 * `classname` is the endpoint (`GET /api/v1/desk`), `name` is `<operationId>: <rule>`; the
 * endpoint's time is shared by its testcases, so a suite's time adds up.
 */
function endpointCases(e: EndpointResult, why?: string): Case[] {
  const ms = e.durationMs / Math.max(1, e.rules.length);
  return e.rules.map((rule) => {
    const vs = e.violations.filter((v) => v.rule === rule);
    const omitted = e.omitted[rule] ?? 0;
    const base = { classname: e.endpoint, name: `${e.operationId}: ${rule}`, ms };
    if (vs.length + omitted > 0)
      return { ...base, failure: { message: ruleMessage(rule), type: rule, body: violationText(vs, omitted) } };
    const skipped = why ?? e.skipped[rule];
    return skipped !== undefined ? { ...base, skipped } : base;
  });
}

/** The testcases of one deployment's check. */
function checkSuite(report: CheckReport, timestamp: string): Suite {
  const reach: Case = {
    classname: 'contract',
    name: 'the deployment answers',
    ms: 0,
    ...(report.unreachable !== undefined
      ? { failure: { message: `${report.baseUrl} cannot be reached`, type: 'unreachable', body: report.unreachable } }
      : report.refused
        ? { failure: { message: 'every collection answered 401/403', type: 'refused', body: report.hints.join('\n') } }
        : {}),
  };
  const cases = [reach];
  if (report.aborted !== undefined)
    cases.push({
      classname: 'contract',
      name: 'the checker runs to the end',
      ms: 0,
      failure: { message: 'the checker failed', type: 'checker', body: report.aborted },
    });
  const why = report.unreachable !== undefined ? 'not run: the deployment cannot be reached' : undefined;
  for (const e of report.endpoints) cases.push(...endpointCases(e, why));
  return { name: `contract ${report.baseUrl}`, ms: report.durationMs, timestamp, cases };
}

/** Drift testcases: one per collection and drift rule; failures only with --fail-on-drift, else reported in system-out. */
function driftSuite(drift: DriftReport, timestamp: string): Suite {
  const cases: Case[] = [];
  for (const c of drift.collections) {
    for (const rule of DRIFT_RULES) {
      const vs = drift.violations.filter((v) => v.rule === rule && v.endpoint === c.endpoint);
      const base = { classname: c.endpoint, name: `${c.operationId}: ${rule}`, ms: 0 };
      if (vs.length === 0) cases.push(base);
      else if (drift.failOnDrift)
        cases.push({ ...base, failure: { message: ruleMessage(rule), type: rule, body: violationText(vs, 0) } });
      else cases.push({ ...base, out: `drift (reported only, --fail-on-drift not given):\n${violationText(vs, 0)}` });
    }
  }
  return { name: `drift ${drift.baseA} ${drift.baseB}`, ms: 0, timestamp, cases };
}

function suiteXml(s: Suite, id: number): string {
  const failures = s.cases.filter((c) => c.failure).length;
  const skipped = s.cases.filter((c) => c.skipped !== undefined).length;
  const cases = s.cases.map((c) => {
    const open = `    <testcase classname="${attr(c.classname)}" name="${attr(c.name)}" time="${seconds(c.ms)}"`;
    const children = [
      c.failure
        ? `      <failure message="${attr(c.failure.message)}" type="${attr(c.failure.type)}">${text(c.failure.body)}</failure>`
        : '',
      c.skipped !== undefined ? `      <skipped message="${attr(c.skipped)}"/>` : '',
      c.out !== undefined ? `      <system-out>${text(c.out)}</system-out>` : '',
    ].filter(Boolean);
    return children.length === 0 ? `${open}/>` : `${open}>\n${children.join('\n')}\n    </testcase>`;
  });
  return [
    `  <testsuite id="${id}" name="${attr(s.name)}" tests="${s.cases.length}" failures="${failures}" errors="0" skipped="${skipped}" time="${seconds(s.ms)}" timestamp="${s.timestamp}" hostname="${attr(hostname())}">`,
    ...cases,
    '  </testsuite>',
  ].join('\n');
}

/** The document around `suites`: its totals are theirs. */
function testsuites(name: string, suites: readonly Suite[]): string {
  const all = suites.flatMap((s) => s.cases);
  const ms = suites.reduce((n, s) => n + s.ms, 0);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${attr(name)}" tests="${all.length}" failures="${all.filter((c) => c.failure).length}" errors="0" skipped="${all.filter((c) => c.skipped !== undefined).length}" time="${seconds(ms)}">`,
    ...suites.map(suiteXml),
    '</testsuites>',
    '',
  ].join('\n');
}

const timestampOf = (now: Date): string => now.toISOString().replace(/\.\d{3}Z$/, '');

/** JUnit XML as GitLab, Jenkins and GitHub's test reporters read it: testsuites › testsuite › testcase. */
export function junitReport(
  reports: CheckReport | readonly CheckReport[],
  drift?: DriftReport,
  now = new Date(),
): string {
  const timestamp = timestampOf(now);
  const suites = (Array.isArray(reports) ? reports : [reports as CheckReport]).map((r) => checkSuite(r, timestamp));
  if (drift) suites.push(driftSuite(drift, timestamp));
  return testsuites('workplace-stub check', suites);
}

/** The testcases of a proxy's session: the answers it saw, by endpoint and rule. */
export function junitFromEndpoints(
  name: string,
  endpoints: readonly EndpointResult[],
  ms: number,
  now = new Date(),
): string {
  const cases = endpoints.flatMap((e) => endpointCases(e));
  return testsuites(name, [{ name, ms, timestamp: timestampOf(now), cases }]);
}
