import { type Findings, KEPT_PER_RULE } from '../findings.js';
import { type EndpointResult, newEndpointResult, violationCount } from '../report.js';
import { RULES, type RuleId } from '../rules.js';
import type { Routed } from './validate.js';
import { count } from '../words.js';

/**
 * What a proxy saw over its life, by endpoint: every rule each proxied answer was held to, the
 * violations (the first ones kept per rule, the rest counted). Each request's findings are made
 * with that request's own credentials redacted, then merged here.
 */
export class ProxySession {
  readonly started = performance.now();
  readonly #endpoints = new Map<string, EndpointResult>();
  requests = 0;
  validated = 0;
  /** Answers that never came (502 to the client). */
  upstreamFailures = 0;

  constructor(readonly upstream: string) {}

  merge(routed: Routed, rules: readonly RuleId[], findings: Findings, ms: number): void {
    const op = routed.list;
    let e = this.#endpoints.get(op.path);
    if (!e) {
      e = newEndpointResult(op);
      this.#endpoints.set(op.path, e);
    }
    e.requests++;
    e.durationMs += ms;
    const known = e.rules as RuleId[];
    for (const rule of rules) if (!known.includes(rule)) known.push(rule);
    known.sort((a, b) => ORDER.indexOf(a) - ORDER.indexOf(b));
    for (const v of findings.violations) {
      const kept = e.violations.filter((x) => x.rule === v.rule).length;
      if (kept < KEPT_PER_RULE) e.violations.push(v);
      else e.omitted[v.rule] = (e.omitted[v.rule] ?? 0) + 1;
    }
    for (const [rule, n] of Object.entries(findings.omitted))
      e.omitted[rule as RuleId] = (e.omitted[rule as RuleId] ?? 0) + (n ?? 0);
  }

  get endpoints(): EndpointResult[] {
    return [...this.#endpoints.values()];
  }

  get violations(): number {
    return this.endpoints.reduce((n, e) => n + violationCount(e), 0);
  }

  get durationMs(): number {
    return Math.round(performance.now() - this.started);
  }

  /** The summary printed at exit. */
  text(): string {
    const lines = [
      `Proxy of ${this.upstream}: ${count(this.requests, 'request')}, ${count(this.validated, 'answer')} validated, ${this.upstreamFailures} without an answer; ${count(this.violations, 'violation')}`,
    ];
    for (const e of this.endpoints) {
      const byRule = new Map<RuleId, number>();
      for (const v of e.violations) byRule.set(v.rule, (byRule.get(v.rule) ?? 0) + 1);
      for (const [rule, n] of Object.entries(e.omitted))
        byRule.set(rule as RuleId, (byRule.get(rule as RuleId) ?? 0) + (n ?? 0));
      const broken = [...byRule].map(([rule, n]) => `${rule} ×${n}`).join(', ');
      lines.push(`  ${broken ? '✗' : '✓'} ${e.endpoint}: ${count(e.requests, 'answer')}${broken ? `; ${broken}` : ''}`);
    }
    return `${lines.join('\n')}\n`;
  }
}

const ORDER = Object.keys(RULES) as RuleId[];
