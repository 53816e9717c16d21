import { isDeepStrictEqual } from 'node:util';
import { buildsUrl, itemUrlPath } from '../core/store.js';
import type { DetailOperation, ListOperation } from '../core/spec/operations.js';
import type { SchemaViolation } from './ajv.js';
import { describeViolation } from './ajv.js';
import { type Fetched, fetchText, pool, UNREACHABLE_CODES } from './http.js';
import type { Contract } from './load.js';
import type { RuleId, Violation } from './rules.js';

export interface CheckOptions {
  /** The deployment, e.g. `https://staging.example.org` (no trailing slash needed). */
  readonly baseUrl: string;
  /** Sent with every request to the base URL, never to another host, never reported. */
  readonly headers: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
  readonly concurrency: number;
  /** Pages crawled per collection at most; a collection cut short says so. */
  readonly maxPages: number;
  /** Resources to check (`desk`, `employee`); all when empty. */
  readonly only: readonly string[];
  /** Item urls fetched per collection at most (the first ones); every one when absent. */
  readonly itemUrls?: number;
  /**
   * The `format` every collection is asked with: `api` as in the document's requests (the
   * default), `json`, or '' for none. Item urls are expected to carry the same.
   */
  readonly format?: string;
  readonly onProgress?: (message: string) => void;
}

export interface EndpointResult {
  readonly endpoint: string;
  readonly operationId: string;
  readonly resource: string;
  pages: number;
  items: number;
  requests: number;
  /** The crawl stopped at --max-pages before the last page. */
  truncated: boolean;
  /** Item urls fetched, and those left unfetched by --item-urls. */
  itemUrlsFetched: number;
  itemUrlsSkipped: number;
  readonly violations: Violation[];
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
}

const clip = (s: string, n = 200): string => (s.length > n ? `${s.slice(0, n)}…` : s);
const show = (v: unknown): string => clip(v === undefined ? 'nothing' : JSON.stringify(v));

/** Strips user:password from a url, for reports. */
function safeUrl(url: string): string {
  try {
    const u = new URL(url);
    u.username = '';
    u.password = '';
    return u.toString();
  } catch {
    return url;
  }
}

/** The same page? Query keys in any order, `page=1` the same as no page (DRF's first link). */
function samePage(a: string, b: string): boolean {
  const norm = (s: string) => {
    const u = new URL(s);
    const q = [...u.searchParams.entries()].filter(([k, v]) => !(k === 'page' && v === '1')).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0));
    return `${u.origin}${u.pathname}?${new URLSearchParams(q).toString()}`;
  };
  try {
    return norm(a) === norm(b);
  } catch {
    return false;
  }
}

class EndpointCheck {
  readonly result: EndpointResult;
  constructor(
    readonly contract: Contract,
    readonly list: ListOperation,
    readonly detail: DetailOperation | undefined,
    readonly opts: CheckOptions,
    readonly base: string,
  ) {
    this.result = { endpoint: `GET ${list.path}`, operationId: list.operationId, resource: list.resource, pages: 0, items: 0, requests: 0, truncated: false, itemUrlsFetched: 0, itemUrlsSkipped: 0, violations: [] };
  }

  report(rule: RuleId, url: string, pointer: string, expected: string, found: string, op: { operationId: string; path: string } = this.list): void {
    this.result.violations.push({ endpoint: `GET ${op.path}`, operationId: op.operationId, rule, url: safeUrl(url), pointer, expected, found });
  }

  async get(url: string): Promise<Fetched> {
    this.result.requests++;
    return fetchText(url, this.opts.headers, this.opts.timeoutMs);
  }

  /** Status, content type, JSON and schema of one answer; the parsed body when it can go on. */
  answer(url: string, r: Fetched, op: ListOperation | DetailOperation): { body: unknown } | undefined {
    if (!r.ok) {
      this.report('transport', url, '', 'an HTTP answer', r.error, op);
      return undefined;
    }
    if (r.status !== 200) {
      const declared = op.responses[String(r.status)] ? 'declared for errors' : 'not declared by the spec';
      this.report('status', url, '', '200', `${r.status} (${declared}): ${clip(r.text, 120)}`, op);
      return undefined;
    }
    if (!/^application\/json\b/i.test(r.contentType)) this.report('content-type', url, '', 'application/json', r.contentType || 'no Content-Type', op);
    let body: unknown;
    try {
      body = JSON.parse(r.text);
    } catch (e) {
      this.report('json', url, '', 'a JSON body', `${(e as Error).message}: ${clip(r.text, 80)}`, op);
      return undefined;
    }
    const pointer = op.responses['200']?.schemaPointer;
    if (pointer) for (const v of this.contract.ajv.validate(pointer, body)) this.schemaViolation(url, v, op);
    return { body };
  }

  schemaViolation(url: string, v: SchemaViolation, op: { operationId: string; path: string }): void {
    // A field missing from an item is §2.2 rule 1; every other schema violation is the schema's.
    const rule: RuleId = v.keyword === 'required' && /^\/results\/\d+$|^$/.test(v.pointer) && this.withUrls() ? 'item.fields' : 'schema';
    const pointer = v.keyword === 'required' ? `${v.pointer}/${String(v.params.missingProperty)}` : v.pointer;
    this.report(rule, url, pointer, describeViolation(v), v.keyword === 'required' ? 'missing' : show(v.data), op);
  }

  withUrls(): boolean {
    return buildsUrl(this.contract.spec.doc, this.list, this.detail);
  }

  formatQuery(): string {
    const format = this.opts.format ?? 'api';
    return format === '' ? '' : `?format=${encodeURIComponent(format)}`;
  }

  onBase(url: unknown): boolean {
    return typeof url === 'string' && (url === this.base || url.startsWith(`${this.base}/`) || url.startsWith(`${this.base}?`));
  }

  async run(): Promise<EndpointResult> {
    const first = `${this.base}${this.list.path}${this.formatQuery()}`;
    const seenPages = new Set<string>();
    const seenItems = new Map<string, string>();
    const addressable: { url: string; item: unknown; where: string }[] = [];
    let url: string | null = first;
    let previousUrl: string | null = null;
    let count: number | undefined;
    let reachedEnd = false;
    let reached = 0;
    while (url !== null) {
      if (this.result.pages >= this.opts.maxPages) {
        this.result.truncated = true;
        break;
      }
      seenPages.add(url);
      const page = this.result.pages + 1;
      this.opts.onProgress?.(`${this.list.path} page ${page}`);
      const got = this.answer(url, await this.get(url), this.list);
      if (!got) break;
      this.result.pages++;
      const body = got.body as { count?: unknown; next?: unknown; previous?: unknown; results?: unknown };
      if (body === null || typeof body !== 'object' || !Array.isArray(body.results) || typeof body.count !== 'number') break;
      const results = body.results as unknown[];
      if (count === undefined) count = body.count;
      else if (body.count !== count) this.report('envelope.count-stable', url, '/count', String(count), String(body.count));
      if (page === 1) {
        if (body.previous !== null) this.report('envelope.first-previous', url, '/previous', 'null', show(body.previous));
        if (body.count === 0) {
          if (body.next !== null) this.report('envelope.empty', url, '/next', 'null (count is 0)', show(body.next));
          if (results.length > 0) this.report('envelope.empty', url, '/results', '[] (count is 0)', `${results.length} items`);
        }
        if (body.next === null && results.length !== body.count) {
          this.report('envelope.single-page', url, '/results', `${body.count} items (count, and next is null)`, `${results.length} items`);
        }
      } else if (typeof body.previous !== 'string' || previousUrl === null || !samePage(body.previous, previousUrl)) {
        this.report('envelope.previous-back', url, '/previous', `a link to the page before (${previousUrl})`, show(body.previous));
      }
      for (const key of ['next', 'previous'] as const) {
        if (body[key] !== null && !this.onBase(body[key])) this.report('urls.base', url, `/${key}`, `a url starting with ${this.base}/`, show(body[key]));
      }
      this.items(url, results, seenItems, addressable);
      reached += results.length;
      previousUrl = url;
      const next = body.next;
      if (typeof next !== 'string') {
        reachedEnd = next === null;
        break;
      }
      if (!this.onBase(next)) break; // reported above; never follow a link off the deployment
      if ([...seenPages].some((s) => samePage(s, next))) {
        this.report('envelope.next-loop', url, '/next', 'a page not seen yet', next);
        break;
      }
      url = next;
    }
    this.result.items = reached;
    if (reachedEnd && count !== undefined && reached !== count) {
      this.report('envelope.count-reached', first, '/count', `${reached} (the items reached by following next)`, String(count));
    }
    await this.details(addressable);
    return this.result;
  }

  items(url: string, results: unknown[], seen: Map<string, string>, addressable: { url: string; item: unknown; where: string }[]): void {
    const withUrls = this.withUrls();
    const pkField = this.detail?.pkParam ?? 'pk';
    results.forEach((item, i) => {
      const where = `/results/${i}`;
      const rec = item !== null && typeof item === 'object' ? (item as Record<string, unknown>) : undefined;
      const key = rec && (typeof rec.url === 'string' || rec[pkField] !== undefined) ? String(rec.url ?? rec[pkField]) : JSON.stringify(item);
      const before = seen.get(key);
      if (before !== undefined && (rec?.url !== undefined || rec?.[pkField] !== undefined)) this.report('envelope.duplicate-item', url, where, 'an item not seen before', `the item of ${before}`);
      else seen.set(key, `${url} ${where}`);
      if (!withUrls || !rec || !this.detail || typeof rec.url !== 'string') return;
      const itemUrl = rec.url;
      const pk = rec[pkField];
      if (!this.onBase(itemUrl)) {
        this.report('urls.base', url, `${where}/url`, `a url starting with ${this.base}/`, itemUrl);
        return;
      }
      if (typeof pk === 'number' || typeof pk === 'string') {
        let segment: string | undefined;
        try {
          segment = decodeURIComponent(new URL(itemUrl).pathname.split('/').at(-1) ?? '');
        } catch {
          segment = undefined;
        }
        if (segment !== String(pk)) this.report('item-url.pk', url, `${where}/url`, `last path segment ${String(pk)} (the item's ${pkField})`, itemUrl);
        else {
          const expected = `${this.base}${itemUrlPath(this.detail, String(pk))}${this.formatQuery()}`;
          if (itemUrl !== expected) this.report('item-url.shape', url, `${where}/url`, expected, itemUrl);
        }
      }
      addressable.push({ url: itemUrl, item, where: `${url} ${where}` });
    });
  }

  async details(addressable: { url: string; item: unknown; where: string }[]): Promise<void> {
    const detail = this.detail;
    if (!detail) return;
    const limit = this.opts.itemUrls ?? Number.POSITIVE_INFINITY;
    const fetched = addressable.length > limit ? addressable.slice(0, limit) : addressable;
    this.result.itemUrlsFetched = fetched.length;
    this.result.itemUrlsSkipped = addressable.length - fetched.length;
    await pool(fetched, this.opts.concurrency, async ({ url, item, where }) => {
      this.opts.onProgress?.(`${detail.path} ${url.slice(this.base.length)}`);
      const r = await this.get(url);
      if (r.ok && r.status !== 200) {
        this.report('item-url.addressable', url, '', `200 (the url of ${where})`, `${r.status}: ${clip(r.text, 120)}`, detail);
        return;
      }
      const got = this.answer(url, r, detail);
      if (!got || isDeepStrictEqual(got.body, item)) return;
      const listed = item as Record<string, unknown>;
      const found = got.body as Record<string, unknown> | null;
      if (found === null || typeof found !== 'object' || Array.isArray(found)) {
        this.report('item-url.detail-equals', url, '', show(item), show(got.body), detail);
        return;
      }
      // One violation per member that differs, so the report names the field.
      for (const key of new Set([...Object.keys(listed), ...Object.keys(found)])) {
        if (!isDeepStrictEqual(listed[key], found[key])) this.report('item-url.detail-equals', url, `/${key}`, `${show(listed[key])} (as listed at ${where})`, show(found[key]), detail);
      }
    });
  }
}

/**
 * Checks a deployment against the spec and the document's rules: crawls every collection page
 * by page, validates each answer with the contract's Ajv, applies the rules a schema cannot state
 * (contract/rules.ts), and fetches every item at its url. Returns every violation found.
 */
export async function runCheck(contract: Contract, opts: CheckOptions): Promise<CheckReport> {
  const started = performance.now();
  const base = opts.baseUrl.replace(/\/+$/, '');
  const lists = contract.operations.lists.filter((l) => opts.only.length === 0 || opts.only.includes(l.resource));
  // Is anything there? A refused connection or unknown host is exit 2, not a list of violations.
  const probe = await fetchText(`${base}${lists[0]?.path ?? '/'}`, opts.headers, opts.timeoutMs);
  if (!probe.ok && UNREACHABLE_CODES.has(probe.code ?? '')) {
    return { baseUrl: safeUrl(base).replace(/\/+$/, ''), specFile: contract.spec.rootFile, durationMs: 0, requests: 1, endpoints: [], violations: [], unreachable: probe.error };
  }
  const endpoints = await pool(lists, opts.concurrency, (list) => new EndpointCheck(contract, list, contract.operations.detailOf.get(list.path), opts, base).run());
  const secrets = Object.values(opts.headers).filter((v) => v.length >= 4);
  const redact = (s: string) => secrets.reduce((acc, secret) => acc.replaceAll(secret, '[redacted]'), s);
  for (const e of endpoints) {
    e.violations.splice(0, e.violations.length, ...e.violations.map((v) => ({ ...v, url: redact(v.url), expected: redact(v.expected), found: redact(v.found) })));
  }
  return {
    baseUrl: safeUrl(base).replace(/\/+$/, ''),
    specFile: contract.spec.rootFile,
    durationMs: Math.round(performance.now() - started),
    requests: 1 + endpoints.reduce((n, e) => n + e.requests, 0),
    endpoints,
    violations: endpoints.flatMap((e) => e.violations),
    unreachable: undefined,
  };
}

/** 0: the contract holds; 1: violations; 2: the target cannot be reached. */
export function exitCode(report: CheckReport): 0 | 1 | 2 {
  if (report.unreachable !== undefined) return 2;
  return report.violations.length > 0 ? 1 : 0;
}
