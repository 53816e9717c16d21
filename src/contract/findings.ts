import type { Redactor } from './redact.js';
import type { RuleId, Violation } from './rules.js';

/** The operation a violation is about. */
export interface OperationRef {
  readonly operationId: string;
  readonly path: string;
}

// How much of each part of a violation a report shows.
const LIMITS = { url: 300, pointer: 200, expected: 300, found: 240 } as const;

/**
 * Violations kept per rule of an endpoint: a hostile deployment can break a rule a million times;
 * the first ones are kept, the rest counted.
 */
export const KEPT_PER_RULE = 100;

/**
 * Where violations are collected. Every text is made safe on the way in (secrets redacted before
 * anything is clipped, control characters escaped), so no report, log or file can show more.
 */
export class Findings {
  readonly violations: Violation[] = [];
  /** Violations beyond KEPT_PER_RULE, by rule: counted, not kept. */
  readonly omitted: Partial<Record<RuleId, number>> = {};
  readonly #perRule = new Map<RuleId, number>();

  constructor(
    readonly redactor: Redactor,
    readonly op: OperationRef,
  ) {}

  report(
    rule: RuleId,
    url: string,
    pointer: string,
    expected: string,
    found: string,
    op: OperationRef = this.op,
  ): void {
    const n = (this.#perRule.get(rule) ?? 0) + 1;
    this.#perRule.set(rule, n);
    if (n > KEPT_PER_RULE) {
      this.omitted[rule] = (this.omitted[rule] ?? 0) + 1;
      return;
    }
    const r = this.redactor;
    this.violations.push({
      endpoint: `GET ${op.path}`,
      operationId: op.operationId,
      rule,
      url: r.safe(url, LIMITS.url),
      pointer: r.safe(pointer, LIMITS.pointer),
      expected: r.safe(expected, LIMITS.expected),
      found: r.safe(found, LIMITS.found),
    });
  }

  /** Violations of a rule, kept and omitted. */
  count(rule?: RuleId): number {
    if (rule === undefined) return [...this.#perRule.values()].reduce((a, b) => a + b, 0);
    return this.#perRule.get(rule) ?? 0;
  }
}
