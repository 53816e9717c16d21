import { createHash } from 'node:crypto';
import type { DetailOperation, ListOperation } from '../openapi/operations.js';
import { type AnswerContext, checkAnswer } from './answer-rules.js';
import { Findings } from './findings.js';
import { type Fetched, type HttpClient, pool } from './http.js';
import type { Contract } from './load.js';
import { asEnvelope, itemUrlRules, type PageContext, pageRules } from './page-rules.js';
import type { Redactor } from './redact.js';
import { type EndpointResult, newEndpointResult } from './report.js';
import { ANSWER_RULES, CRAWL_RULES, ITEM_RULES, ITEM_URL_RULES, PROBE_RULES, type RuleId } from './rules.js';
import { memberText, sameJson, sameMember } from './json.js';
import { asJson, asJsonMember } from './safe-text.js';
import type { BaseScope } from './scope.js';
import { buildsUrl, describesFields, lookupField } from '../openapi/item-schema.js';
import { isObject } from '../openapi/pointer.js';
import { count } from './words.js';

/** Sees each page's items while they are held (drift and the recorder), then the collection's end. */
export interface CrawlObserver {
  items?(
    list: ListOperation,
    items: readonly unknown[],
    page: { readonly number: number; readonly hasNext: boolean },
  ): void | Promise<void>;
  done?(list: ListOperation, result: EndpointResult): void | Promise<void>;
}

/** What every collection's check shares: resolved options, one client, one redactor. */
export interface CheckSettings {
  readonly contract: Contract;
  readonly scope: BaseScope;
  readonly client: HttpClient;
  readonly redactor: Redactor;
  readonly maxPages: number;
  /** Item urls fetched per collection at most (Infinity: all). */
  readonly itemUrls: number;
  readonly concurrency: number;
  /** The format every collection is asked with ('' for none). */
  readonly format: string;
  readonly allowTruncated: boolean;
  readonly probes: boolean;
  readonly observer?: CrawlObserver;
  readonly onProgress?: (message: string) => void;
}

/** What the probes need from the crawl: no items, only what they were. */
export interface CrawlFacts {
  readonly firstUrl: string;
  /** The first page's answer (status and headers), for HEAD. */
  readonly first: Fetched | undefined;
  readonly maxIntegerPk: number;
  /** Some item read carried no integer pk (a serializer without the field): the largest pk is unknown. */
  readonly pkUnseen: boolean;
}

/** The same page? Query keys in any order, `page=1` the same as no page (DRF's first link). */
function pageKey(url: string): string {
  const u = new URL(url);
  const q = [...u.searchParams.entries()]
    .filter(([k, v]) => !(k === 'page' && v === '1'))
    .sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0));
  return `${u.origin}${u.pathname}?${new URLSearchParams(q).toString()}`;
}

// The identity of an item for the duplicate rule, hashed: the crawl keeps 16 characters per item, not the item.
const identity = (key: string): string => createHash('sha1').update(key).digest('base64url').slice(0, 16);

interface Listed {
  readonly url: string;
  readonly item: Readonly<Record<string, unknown>>;
  readonly where: string;
}

/**
 * The check of one collection: crawls it page by page (following `next`, never off the base),
 * checks each page and its items, fetches each item at its url while its page is held, and then
 * (with --probes) its error contract. Items live only as long as their page: nothing but their
 * hashed identities (for the duplicate rule) outlives it.
 */
export class CollectionCheck {
  readonly findings: Findings;
  readonly result: EndpointResult;
  readonly ctx: PageContext;
  readonly #detailCtx: AnswerContext | undefined;
  #itemUrlsLeft: number;
  #maxIntegerPk = 0;
  #pkUnseen = false;

  constructor(
    readonly s: CheckSettings,
    readonly list: ListOperation,
    readonly detail: DetailOperation | undefined,
  ) {
    const doc = s.contract.spec.doc;
    this.findings = new Findings(s.redactor, list);
    const withUrls = buildsUrl(doc, list, detail);
    const itemFieldsRule = describesFields(doc, list.itemPointer);
    this.ctx = {
      contract: s.contract,
      findings: this.findings,
      op: list,
      itemFieldsRule,
      scope: s.scope,
      detail,
      withUrls,
      pkField: (detail && lookupField(doc, list, detail)) ?? 'pk',
      formatQuery: s.format === '' ? '' : `?format=${encodeURIComponent(s.format)}`,
    };
    this.#detailCtx = detail
      ? { contract: s.contract, findings: this.findings, op: detail, itemFieldsRule }
      : undefined;
    const rules: RuleId[] = [...ANSWER_RULES, ...CRAWL_RULES];
    if (itemFieldsRule) rules.push(...ITEM_RULES);
    if (withUrls) rules.push(...ITEM_URL_RULES);
    rules.push(...PROBE_RULES.filter((r) => r !== 'probe.unknown-pk' || detail !== undefined));
    this.result = newEndpointResult(list, {
      violations: this.findings.violations,
      omitted: this.findings.omitted,
      rules,
    });
    this.#itemUrlsLeft = s.itemUrls;
  }

  async request(method: string, url: string, extra?: Parameters<HttpClient['request']>[2]): Promise<Fetched> {
    this.result.requests++;
    return this.s.client.request(method, url, extra);
  }

  /** Crawls and checks the collection; with `runProbes`, its error contract too. */
  async run(runProbes?: (check: CollectionCheck, facts: CrawlFacts) => Promise<void>): Promise<EndpointResult> {
    const started = performance.now();
    const f = this.findings;
    const r = this.result;
    const firstUrl = `${this.s.scope.url(this.list.path)}${this.ctx.formatQuery}`;
    const seenPages = new Set<string>();
    const seenItems = new Map<string, string>();
    let first: Fetched | undefined;
    let url = firstUrl;
    let previousUrl: string | undefined;
    let count: number | undefined;
    for (;;) {
      if (r.pages >= this.s.maxPages) {
        r.truncated = true;
        break;
      }
      seenPages.add(pageKey(url));
      const page = r.pages + 1;
      this.s.onProgress?.(`${this.list.path} page ${page}`);
      const answer = await this.request('GET', url);
      if (page === 1) {
        first = answer;
        r.firstStatus = answer.ok ? answer.status : undefined;
      }
      const got = checkAnswer(this.ctx, url, answer, 'ok');
      if (!got?.parsed) break;
      r.pages++;
      const body = asEnvelope(got.body);
      if (!body) break; // the schema said why
      if (count === undefined) count = r.count = body.count;
      else if (body.count !== count)
        f.report('envelope.count-stable', url, '/count', String(count), String(body.count));
      if (
        page > 1 &&
        !(typeof body.previous === 'string' && previousUrl !== undefined && samePage(body.previous, previousUrl))
      ) {
        f.report(
          'envelope.previous-back',
          url,
          '/previous',
          `a link to the page before (${previousUrl})`,
          asJson(body.previous),
        );
      }
      pageRules(this.ctx, url, body, page === 1);
      const listed = this.items(url, body.results, page, seenItems);
      await this.s.observer?.items?.(this.list, body.results, { number: page, hasNext: typeof body.next === 'string' });
      await this.details(listed);
      r.items += body.results.length;
      previousUrl = url;
      const next = body.next;
      if (typeof next !== 'string') {
        r.reachedEnd = next === null;
        break;
      }
      if (!this.s.scope.holdsLink(next)) break; // reported by pageRules; never follow a link off the deployment
      const nextUrl = new URL(next).href;
      if (seenPages.has(pageKey(nextUrl))) {
        f.report('envelope.next-loop', url, '/next', 'a page not seen yet', next);
        break;
      }
      url = nextUrl;
    }
    this.#conclude(firstUrl, count);
    if (runProbes)
      await runProbes(this, { firstUrl, first, maxIntegerPk: this.#maxIntegerPk, pkUnseen: this.#pkUnseen });
    else for (const rule of PROBE_RULES) r.skipped[rule] = 'not run: --probes not given';
    r.durationMs = Math.round(performance.now() - started);
    await this.s.observer?.done?.(this.list, r);
    return r;
  }

  #conclude(firstUrl: string, total: number | undefined): void {
    const r = this.result;
    const skip = (rules: readonly RuleId[], why: string) => {
      for (const rule of rules) if (this.findings.count(rule) === 0 && r.rules.includes(rule)) r.skipped[rule] ??= why;
    };
    if (r.truncated) {
      const why = `not verified: the crawl stopped at --max-pages ${this.s.maxPages} before the last page`;
      if (this.s.allowTruncated)
        skip(['crawl.truncated'], `allowed by --allow-truncated: stopped at ${count(r.pages, 'page')}`);
      else
        this.findings.report(
          'crawl.truncated',
          firstUrl,
          '/next',
          `the last page within --max-pages ${this.s.maxPages}`,
          `a next link after page ${r.pages}: ${count(r.items, 'item')} of ${String(total)} reached; count, duplicates and later pages not verified`,
        );
      skip(['envelope.count-reached'], why);
    }
    if (r.pages === 0) {
      skip(
        [...CRAWL_RULES, ...ITEM_RULES, ...ITEM_URL_RULES, 'schema', 'content-type', 'json'],
        'not verified: no page of the collection could be read',
      );
    } else if (!r.reachedEnd && !r.truncated) {
      skip(['envelope.count-reached'], `not verified: the crawl stopped at page ${r.pages + 1}`);
    }
    if (r.reachedEnd && total !== undefined && r.items !== total) {
      this.findings.report(
        'envelope.count-reached',
        firstUrl,
        '/count',
        `${r.items} (the items reached by following next)`,
        String(total),
      );
    }
    if (r.rules.includes('item-url.addressable') && r.itemUrlsFetched === 0 && r.items > 0 && this.s.itemUrls === 0) {
      skip(['item-url.addressable', 'item-url.detail-equals'], 'not run: --item-urls 0');
    }
  }

  /** The rules on each item of a page; answers those to fetch at their url (within --item-urls). */
  items(url: string, results: readonly unknown[], page: number, seen: Map<string, string>): Listed[] {
    const listed: Listed[] = [];
    results.forEach((item, i) => {
      const where = `/results/${i}`;
      if (!isObject(item)) return;
      const pk = item[this.ctx.pkField];
      if (typeof pk !== 'number' || !Number.isSafeInteger(pk)) this.#pkUnseen = true;
      else if (pk > this.#maxIntegerPk) this.#maxIntegerPk = pk;
      // A pk by its text: two integers past 2^53 that round to one number are two items.
      const pkText = memberText(item, this.ctx.pkField);
      const key = typeof item.url === 'string' ? `url ${item.url}` : pkText !== undefined ? `pk ${pkText}` : undefined;
      if (key !== undefined) {
        const id = identity(key);
        const before = seen.get(id);
        if (before !== undefined)
          this.findings.report(
            'envelope.duplicate-item',
            url,
            where,
            'an item not seen before',
            `the item of ${before}`,
          );
        else seen.set(id, `page ${page} ${where}`);
      }
      const itemUrl = itemUrlRules(this.ctx, url, where, item);
      if (itemUrl === undefined) return;
      if (this.#itemUrlsLeft > 0) {
        this.#itemUrlsLeft--;
        listed.push({ url: itemUrl, item, where: `${url} ${where}` });
      } else this.result.itemUrlsSkipped++;
    });
    return listed;
  }

  /** Each listed item at its url: it answers 200 and the same item (§4). */
  async details(listed: readonly Listed[]): Promise<void> {
    const detail = this.detail;
    const ctx = this.#detailCtx;
    if (!detail || !ctx || listed.length === 0) return;
    const f = this.findings;
    this.result.itemUrlsFetched += listed.length;
    await pool(listed, this.s.concurrency, async ({ url, item, where }) => {
      // A url the deployment wrote: redacted like any report text.
      this.s.onProgress?.(`${detail.path} ${this.s.redactor.safe(url.slice(this.s.scope.href.length), 120)}`);
      const r = await this.request('GET', url);
      if (r.ok && r.status !== 200) {
        f.report('item-url.addressable', url, '', `200 (the url of ${where})`, `${r.status}: ${r.text}`, detail);
        return;
      }
      const got = checkAnswer(ctx, url, r, 'ok');
      if (!got?.parsed || sameJson(got.body, item)) return;
      const found = got.body;
      if (!isObject(found)) {
        f.report('item-url.detail-equals', url, '', asJson(item), asJson(found), detail);
        return;
      }
      // One violation per member that differs, so the report names the field.
      for (const key of new Set([...Object.keys(item), ...Object.keys(found)])) {
        if (!sameMember(item, key, found, key))
          f.report(
            'item-url.detail-equals',
            url,
            `/${key}`,
            `${asJsonMember(item, key)} (as listed at ${where})`,
            asJsonMember(found, key),
            detail,
          );
      }
    });
  }
}

function samePage(a: string, b: string): boolean {
  try {
    return pageKey(a) === pageKey(b);
  } catch {
    return false;
  }
}
