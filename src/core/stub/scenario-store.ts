import type { QueryMap } from '../python/query.js';
import { NO_SCENARIO, parseScenario, preferOfQuery, type Scenario } from './scenarios.js';

/**
 * Scenarios set from outside the app (`PUT /__stub/scenarios`): what a `Prefer` header would ask,
 * applied to every request that matches, for its next `times` requests or until changed, so
 * that an end-to-end test puts an endpoint into a state (empty, an error, slow, a 401) without
 * touching the app's requests. A request's own `Prefer` (or `__` parameters) wins.
 */
export interface ScenarioRule {
  /** Matches the operation of this operationId. */
  readonly operationId?: string;
  /** Matches requests to this path (a template such as `/api/v1/desk/{pk}`, or a path as sent). */
  readonly path?: string;
  /** With `path`: only this method (any when absent). */
  readonly method?: string;
  /** The `Prefer` to apply: `code=500`, `empty=true, delay=800`. */
  readonly prefer: string;
  /** How many requests it applies to; until removed when absent. */
  readonly times?: number;
}

/** A rule as kept: its parsed scenario, and the requests it has left. */
export interface StoredRule extends ScenarioRule {
  readonly id: number;
  readonly scenario: Scenario;
  remaining: number | undefined;
}

/** The scenario of a request, and where it came from (for the journal); none is NO_SCENARIO. */
export type ChosenScenario =
  | {
      readonly ok: true;
      readonly scenario: Scenario;
      readonly told?: { readonly prefer: string; readonly from: 'request' | 'scenarios' };
    }
  | { readonly ok: false; readonly problems: string[] };

export type RuleResult = { ok: true; rule: StoredRule } | { ok: false; problems: string[] };

const KEYS = new Set(['operationId', 'path', 'method', 'prefer', 'times']);
const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS']);

export class ScenarioStore {
  #rules: StoredRule[] = [];
  #next = 1;

  /** Checks a rule as sent (every problem, not the first) and keeps it, replacing one that matches the same. */
  add(value: unknown, maxDelayMs: number, knows: (operationId: string) => boolean): RuleResult {
    const problems: string[] = [];
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      return { ok: false, problems: ['a scenario is a JSON object: {"operationId": …, "prefer": …}'] };
    const v = value as Record<string, unknown>;
    for (const key of Object.keys(v))
      if (!KEYS.has(key)) problems.push(`unknown member "${key}" (${[...KEYS].join(', ')})`);
    const text = (key: string) => {
      const x = v[key];
      if (x === undefined) return undefined;
      if (typeof x === 'string' && x !== '') return x;
      problems.push(`${key} must be a non-empty string`);
      return undefined;
    };
    const operationId = text('operationId');
    const path = text('path');
    const method = text('method')?.toUpperCase();
    const prefer = text('prefer');
    if (operationId === undefined && path === undefined) problems.push('name an operationId or a path');
    if (operationId !== undefined && path !== undefined) problems.push('name an operationId or a path, not both');
    if (method !== undefined && path === undefined) problems.push('method goes with a path');
    if (method !== undefined && !METHODS.has(method)) problems.push(`method must be one of ${[...METHODS].join(', ')}`);
    if (operationId !== undefined && !knows(operationId))
      problems.push(`the spec declares no operation "${operationId}"`);
    if (path !== undefined && !path.startsWith('/')) problems.push('path starts with /');
    if (prefer === undefined) problems.push('prefer is required: what a Prefer header would ask, e.g. "code=500"');
    const times = v.times;
    if (times !== undefined && !(Number.isInteger(times) && (times as number) > 0 && (times as number) <= 1_000_000))
      problems.push('times must be a whole number from 1 to 1000000');
    const parsed = prefer === undefined ? undefined : parseScenario(prefer, new Map(), maxDelayMs);
    if (parsed !== undefined && !parsed.ok) problems.push(...parsed.problems);
    if (problems.length > 0 || parsed === undefined || !parsed.ok) return { ok: false, problems };
    const rule: StoredRule = {
      id: this.#next++,
      ...(operationId !== undefined ? { operationId } : {}),
      ...(path !== undefined ? { path } : {}),
      ...(method !== undefined ? { method } : {}),
      prefer: prefer as string,
      ...(times !== undefined ? { times: times as number } : {}),
      scenario: parsed.scenario,
      remaining: times as number | undefined,
    };
    this.#rules = [...this.#rules.filter((r) => !sameTarget(r, rule)), rule];
    return { ok: true, rule };
  }

  /** The rules kept, as sent, with what each has left. */
  list(): Record<string, unknown>[] {
    return this.#rules.map(({ scenario: _s, remaining, ...rule }) => ({
      ...rule,
      ...(remaining === undefined ? {} : { remaining }),
    }));
  }

  /**
   * Step 4 of docs/response-selection.md: a request's own `Prefer` (or `__` parameters), else
   * the latest rule set from outside that matches it, its use counted.
   */
  choose(
    request: {
      prefer: string | undefined;
      query: QueryMap;
      operationId: string;
      template: string;
      path: string;
      method: string;
    },
    maxDelayMs: number,
  ): ChosenScenario {
    const parsed = parseScenario(request.prefer, request.query, maxDelayMs);
    if (!parsed.ok) return parsed;
    if (parsed.scenario !== NO_SCENARIO)
      return {
        ok: true,
        scenario: parsed.scenario,
        told: { prefer: request.prefer ?? preferOfQuery(request.query), from: 'request' },
      };
    const rule =
      this.#rules.length === 0
        ? undefined
        : this.take(request.operationId, request.template, request.path, request.method);
    if (rule === undefined) return parsed;
    return { ok: true, scenario: rule.scenario, told: { prefer: rule.prefer, from: 'scenarios' } };
  }

  /**
   * Checks and keeps several rules at once: all of them, or none where any is refused (a 400
   * tells the client nothing changed). Each problem names its rule's index when there are several.
   */
  addAll(values: readonly unknown[], maxDelayMs: number, knows: (operationId: string) => boolean): string[] {
    const before = { rules: this.#rules, next: this.#next };
    const problems: string[] = [];
    values.forEach((value, i) => {
      const r = this.add(value, maxDelayMs, knows);
      if (!r.ok) problems.push(...r.problems.map((p) => (values.length > 1 ? `[${i}] ${p}` : p)));
    });
    if (problems.length > 0) {
      this.#rules = before.rules;
      this.#next = before.next;
    }
    return problems;
  }

  /** The scenario for a request, its use counted; the latest rule that matches wins. */
  take(operationId: string, template: string, path: string, method: string): StoredRule | undefined {
    for (let i = this.#rules.length - 1; i >= 0; i--) {
      const r = this.#rules[i] as StoredRule;
      const hit =
        r.operationId !== undefined
          ? r.operationId === operationId
          : (r.path === template || r.path === path) && (r.method === undefined || r.method === method);
      if (!hit) continue;
      if (r.remaining !== undefined) {
        r.remaining -= 1;
        if (r.remaining <= 0) this.#rules.splice(i, 1);
      }
      return r;
    }
    return undefined;
  }

  get size(): number {
    return this.#rules.length;
  }

  clear(): void {
    this.#rules = [];
  }

  /** Removes the rules of an operationId, or of a path (and method); answers how many. */
  remove(target: { operationId?: string; path?: string; method?: string }): number {
    const before = this.#rules.length;
    const method = target.method?.toUpperCase();
    this.#rules = this.#rules.filter(
      (r) =>
        !(
          (target.operationId === undefined || r.operationId === target.operationId) &&
          (target.path === undefined || r.path === target.path) &&
          (method === undefined || r.method === method)
        ),
    );
    return before - this.#rules.length;
  }
}

function sameTarget(a: ScenarioRule, b: ScenarioRule): boolean {
  return a.operationId === b.operationId && a.path === b.path && a.method === b.method;
}
