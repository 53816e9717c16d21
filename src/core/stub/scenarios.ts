import type { Operation } from '../../openapi/operations.js';
import { STUB_PROBLEMS, stubProblem } from '../errors.js';
import type { CollectionModel } from '../model.js';
import { lastValue, type QueryMap } from '../python/query.js';
import type { CoreAnswer } from '../request.js';
import { EMPTY_SET, type ItemSet } from '../prepared-items.js';

/**
 * What a request asks of the stub itself, Prism-compatible: a `Prefer` header
 * (`Prefer: code=404, example=notFound, dynamic=true`) or the same as query parameters
 * (`__code`, `__example`, `__dynamic`) where a header cannot be set. Beyond Prism: `delay=MS`
 * (latency, bounded by --max-delay) and `empty=true` (the collection's empty state).
 * The query parameter wins over the header.
 */
export interface Scenario {
  readonly code: number | undefined;
  readonly example: string | undefined;
  readonly dynamic: boolean;
  readonly empty: boolean;
  readonly delayMs: number;
}

export const NO_SCENARIO: Scenario = Object.freeze({
  code: undefined,
  example: undefined,
  dynamic: false,
  empty: false,
  delayMs: 0,
});

export type ScenarioResult = { ok: true; scenario: Scenario } | { ok: false; problems: string[] };

const KEYS = ['code', 'example', 'dynamic', 'delay', 'empty'] as const;
type Key = (typeof KEYS)[number];

/** The query forms of the scenarios (`__code`, …): the stub's own, never copied into links. */
const SCENARIO_QUERY_PARAMS: ReadonlySet<string> = new Set(KEYS.map((k) => `__${k}`));

/**
 * `Prefer` preferences (RFC 7240): comma-separated `token=value`; unknown tokens are ignored, and
 * of a token given twice the first counts (section 2).
 */
function parsePrefer(header: string | undefined): Map<string, string> {
  const out = new Map<string, string>();
  if (!header) return out;
  for (const part of header.split(',')) {
    const [rawKey, ...rest] = part.split('=');
    const key = (rawKey ?? '').trim().toLowerCase();
    if (key === '' || out.has(key)) continue;
    out.set(
      key,
      rest
        .join('=')
        .trim()
        .replace(/^"(.*)"$/, '$1'),
    );
  }
  return out;
}

function bool(name: string, v: string | undefined, problems: string[]): boolean {
  if (v === undefined) return false;
  if (v === 'true' || v === '') return true;
  if (v === 'false') return false;
  problems.push(`${name} must be true or false (got ${JSON.stringify(v.slice(0, 40))})`);
  return false;
}

export function parseScenario(
  prefer: string | string[] | undefined,
  query: QueryMap,
  maxDelayMs: number,
): ScenarioResult {
  const header = parsePrefer(Array.isArray(prefer) ? prefer.join(',') : prefer);
  const get = (k: Key): string | undefined => lastValue(query, `__${k}`) ?? header.get(k);
  if (KEYS.every((k) => get(k) === undefined)) return { ok: true, scenario: NO_SCENARIO };
  const problems: string[] = [];
  let code: number | undefined;
  const rawCode = get('code');
  if (rawCode !== undefined) {
    if (/^[1-5][0-9]{2}$/.test(rawCode)) code = Number(rawCode);
    else problems.push(`code must be an HTTP status such as 404 (got ${JSON.stringify(rawCode.slice(0, 40))})`);
  }
  let delayMs = 0;
  const rawDelay = get('delay');
  if (rawDelay !== undefined) {
    if (/^[0-9]{1,9}$/.test(rawDelay) && Number(rawDelay) <= maxDelayMs) delayMs = Number(rawDelay);
    else
      problems.push(
        `delay must be a whole number of milliseconds from 0 to ${maxDelayMs} (got ${JSON.stringify(rawDelay.slice(0, 40))})`,
      );
  }
  const example = get('example');
  if (example !== undefined && example === '') problems.push('example must name an example');
  const scenario = {
    code,
    example: example || undefined,
    dynamic: bool('dynamic', get('dynamic'), problems),
    empty: bool('empty', get('empty'), problems),
    delayMs,
  };
  if (scenario.dynamic && scenario.empty) problems.push('dynamic and empty exclude each other');
  return problems.length > 0 ? { ok: false, problems } : { ok: true, scenario };
}

export const SCENARIO_HELP = Object.freeze({
  prefer: 'Prefer: code=<status>, example=<name>, dynamic=true, empty=true, delay=<ms>',
  query: '__code, __example, __dynamic, __empty, __delay',
});

/** A scenario that cannot be: the stub's own 400, naming what is available. */
export function impossible(detail: string, available: unknown = SCENARIO_HELP): CoreAnswer {
  return stubProblem(STUB_PROBLEMS.IMPOSSIBLE_SCENARIO, detail, { available });
}

/** The items a scenario asks for (docs/response-selection.md), or a problem. */
export function scenarioItems(
  collection: CollectionModel,
  own: ItemSet,
  op: Operation,
  scenario: Scenario,
): ItemSet | CoreAnswer {
  if (scenario.empty) return EMPTY_SET;
  if (scenario.dynamic)
    return collection.dynamic ?? impossible(`${op.operationId}: its item schema describes no field to generate from`);
  if (scenario.example !== undefined)
    return (
      collection.examples.get(scenario.example) ??
      impossible(`the 200 response of ${op.operationId} has no example "${scenario.example}"`, {
        examples: [...collection.examples.keys()],
      })
    );
  return own;
}

/** The query of pagination links: the request's, without the stub's own scenario parameters. */
export function withoutScenarioParams(query: QueryMap): QueryMap {
  let out = query;
  for (const key of query.keys()) {
    if (SCENARIO_QUERY_PARAMS.has(key)) {
      if (out === query) out = new Map(query);
      out.delete(key);
    }
  }
  return out;
}

/** The `__` parameters of a request, as the Prefer they stand for (for the journal). */
export function preferOfQuery(query: QueryMap): string {
  return [...query.entries()]
    .filter(([k]) => k.startsWith('__'))
    .map(([k, v]) => `${k.slice(2)}=${v[v.length - 1] ?? ''}`)
    .join(', ');
}
