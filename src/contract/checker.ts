import { type CheckSettings, CollectionCheck, type CrawlObserver } from './collection-check.js';
import { DEFAULT_MAX_BODY, HttpClient, pool, UNREACHABLE_CODES } from './http.js';
import type { Contract } from './load.js';
import { runProbes } from './probes.js';
import { Redactor } from './redact.js';
import type { CheckReport, EndpointResult } from './report.js';
import { BaseScope } from './scope.js';
import { count } from './words.js';

export { exitCode } from './report.js';
export type { CheckReport, EndpointResult } from './report.js';

export interface CheckOptions {
  /** The deployment's root, e.g. `https://staging.example.org` (a path prefix is kept). */
  readonly baseUrl: string;
  /** Sent with every request to the base URL, never to another host or path, never reported. */
  readonly headers: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
  readonly concurrency: number;
  /** Pages crawled per collection at most; a collection cut short is not verified. */
  readonly maxPages: number;
  /** Resources to check (`desk`, `employee`); all when empty. */
  readonly only: readonly string[];
  /** Item urls fetched per collection at most (the first ones); every one when absent; none with 0. */
  readonly itemUrls?: number;
  /**
   * The `format` every collection is asked with: `api` as in the document's requests (the
   * default), `json`, or '' for none. Item urls are expected to carry the same.
   */
  readonly format?: string;
  /** Most bytes of one answer, on the wire and decompressed (DEFAULT_MAX_BODY). */
  readonly maxBody?: number;
  /** A crawl cut short by maxPages is a note, not a violation. */
  readonly allowTruncated?: boolean;
  /** Check each collection's error contract too (probes.ts). */
  readonly probes?: boolean;
  readonly observer?: CrawlObserver;
  /** Each collection's result as it is done (what a report of a failed run is made of). */
  readonly onEndpoint?: (e: EndpointResult) => void;
  readonly onProgress?: (message: string) => void;
}

/** `https://host/api/v1`: a base that names the service's own prefix (it is the deployment root). */
function namesApiPrefix(scope: BaseScope): boolean {
  return /\/api\/v1$/.test(scope.path);
}

/** The headers to send: the base URL's user info as Basic credentials, unless an Authorization header is given. */
function credentials(scope: BaseScope, headers: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) out[k.toLowerCase()] = v;
  if ((scope.username || scope.password) && out.authorization === undefined) {
    out.authorization = `Basic ${Buffer.from(`${scope.username}:${scope.password}`).toString('base64')}`;
  }
  return out;
}

function hintsFor(scope: BaseScope, endpoints: readonly EndpointResult[]): { hints: string[]; refused: boolean } {
  const hints: string[] = [];
  const statuses = endpoints.map((e) => e.firstStatus);
  const denied = statuses.filter((s) => s === 401 || s === 403).length;
  const refused = endpoints.length > 0 && denied === endpoints.length;
  if (denied > 0) {
    hints.push(
      `${refused ? 'every collection' : `${denied} of ${count(endpoints.length, 'collection')}`} answered 401/403: does the deployment need credentials? Pass them with --header 'Authorization: Token …' (sent to the base URL only, never reported).`,
    );
  }
  if (namesApiPrefix(scope))
    hints.push(
      `--base-url is the deployment's root, without /api/v1: try ${scope.origin}${scope.path.replace(/\/api\/v1$/, '')}`,
    );
  else if (endpoints.length > 0 && statuses.every((s) => s === 404) && scope.path !== '') {
    hints.push(
      `every collection answered 404: is ${scope.href} the deployment's root (the collections are at ${scope.href}/api/v1/…)?`,
    );
  }
  return { hints, refused };
}

/**
 * Checks a deployment against the spec and the document's rules: crawls every collection page
 * by page, validates each answer with the contract's Ajv, applies the rules a schema cannot state
 * (contract/rules.ts), fetches every item at its url, and with `probes` its error contract.
 * Returns every violation found; throws only on a defect of the checker itself.
 */
export async function runCheck(contract: Contract, opts: CheckOptions): Promise<CheckReport> {
  const started = performance.now();
  const scope = new BaseScope(opts.baseUrl);
  const headers = credentials(scope, opts.headers);
  const redactor = Redactor.forHeaders(headers, [scope.password, `${scope.username}:${scope.password}`]);
  const client = new HttpClient({
    scope,
    headers,
    timeoutMs: opts.timeoutMs,
    maxBody: opts.maxBody ?? DEFAULT_MAX_BODY,
    concurrency: opts.concurrency,
  });
  const baseUrl = redactor.safe(scope.href, 500);
  const lists = contract.operations.lists.filter((l) => opts.only.length === 0 || opts.only.includes(l.resource));
  const base = { baseUrl, specFile: contract.spec.rootFile, hints: [] as string[], refused: false };
  const settings: CheckSettings = {
    contract,
    scope,
    client,
    redactor,
    maxPages: opts.maxPages,
    itemUrls: opts.itemUrls ?? Number.POSITIVE_INFINITY,
    concurrency: opts.concurrency,
    format: opts.format ?? 'api',
    allowTruncated: opts.allowTruncated ?? false,
    probes: opts.probes ?? false,
    observer: opts.observer,
    onProgress: opts.onProgress,
  };
  const checkOf = (list: (typeof lists)[number]) =>
    new CollectionCheck(settings, list, contract.operations.detailOf.get(list.path));
  try {
    // Is anything there? A refused connection or an unknown host is exit 2, not twenty violations.
    const probe = await client.get(scope.url(lists[0]?.path ?? '/'));
    if (!probe.ok && UNREACHABLE_CODES.has(probe.code)) {
      // Every collection's rules are named (JUnit keeps its testcases), none was run.
      const endpoints = lists.map((list) => checkOf(list).result);
      return {
        ...base,
        durationMs: 0,
        requests: client.requests,
        endpoints,
        violations: [],
        unreachable: redactor.safe(probe.error, 300),
      };
    }
    const endpoints = await pool(lists, opts.concurrency, async (list) => {
      const result = await checkOf(list).run(settings.probes ? runProbes : undefined);
      opts.onEndpoint?.(result);
      return result;
    });
    const { hints, refused } = hintsFor(scope, endpoints);
    return {
      ...base,
      hints,
      refused,
      durationMs: Math.round(performance.now() - started),
      requests: client.requests,
      endpoints,
      violations: endpoints.flatMap((e) => e.violations),
      unreachable: undefined,
    };
  } finally {
    client.close();
  }
}
