import type { RuleId, Violation } from './rules.js';

/** What the check of one collection found. */
export interface EndpointResult {
  readonly endpoint: string;
  readonly operationId: string;
  readonly resource: string;
  pages: number;
  items: number;
  /** The collection's count on its first page, when it answered one. */
  count: number | undefined;
  requests: number;
  /** The crawl stopped at --max-pages before the last page. */
  truncated: boolean;
  /** The crawl followed next to a null. */
  reachedEnd: boolean;
  /** Item urls fetched, and those left unfetched by --item-urls. */
  itemUrlsFetched: number;
  itemUrlsSkipped: number;
  durationMs: number;
  /** Status of the first page (undefined when none came): 401/403 everywhere means credentials are missing. */
  firstStatus: number | undefined;
  /** Violations kept (the first ones of each rule) and those only counted. */
  readonly violations: Violation[];
  readonly omitted: Partial<Record<RuleId, number>>;
  /** The rules that apply to this endpoint, in catalogue order: one JUnit testcase each. */
  readonly rules: readonly RuleId[];
  /** Rules that apply but were not verified on this run, and why. */
  readonly skipped: Partial<Record<RuleId, string>>;
}

/** An endpoint before any request: nothing counted, nothing found yet. */
export function newEndpointResult(
  op: { readonly path: string; readonly operationId: string; readonly resource: string },
  found: Pick<EndpointResult, 'violations' | 'omitted' | 'rules'> = { violations: [], omitted: {}, rules: [] },
): EndpointResult {
  return {
    endpoint: `GET ${op.path}`,
    operationId: op.operationId,
    resource: op.resource,
    pages: 0,
    items: 0,
    count: undefined,
    requests: 0,
    truncated: false,
    reachedEnd: false,
    itemUrlsFetched: 0,
    itemUrlsSkipped: 0,
    durationMs: 0,
    firstStatus: undefined,
    violations: found.violations,
    omitted: found.omitted,
    rules: found.rules,
    skipped: {},
  };
}

export interface CheckReport {
  readonly baseUrl: string;
  readonly specFile: string;
  readonly durationMs: number;
  readonly requests: number;
  readonly endpoints: readonly EndpointResult[];
  readonly violations: readonly Violation[];
  /** Set when nothing answers at the base URL (exit 2): the reason. */
  readonly unreachable: string | undefined;
  /** Advice shown with the report (credentials missing, …). */
  readonly hints: readonly string[];
  /** Every collection refused the checker (401/403): nothing was checked (exit 2). */
  readonly refused: boolean;
  /** The checker itself failed before the end (exit 3): why. The report holds what was done. */
  readonly aborted?: string;
}

/** Violations of an endpoint, those kept and those only counted. */
export function violationCount(e: EndpointResult): number {
  return e.violations.length + Object.values(e.omitted).reduce((a, b) => a + (b ?? 0), 0);
}

export function totalViolations(report: CheckReport): number {
  return report.endpoints.reduce((n, e) => n + violationCount(e), 0);
}

/** 0: the contract holds; 1: violations; 2: nothing reachable (or every collection refused access); 3: the checker failed. */
export function exitCode(report: CheckReport): 0 | 1 | 2 | 3 {
  if (report.aborted !== undefined) return 3;
  if (report.unreachable !== undefined || report.refused) return 2;
  return totalViolations(report) > 0 ? 1 : 0;
}
