import type { DetailOperation } from '../openapi/operations.js';
import type { AnswerContext } from './answer-rules.js';
import { memberText } from './json.js';
import { asJson } from './safe-text.js';
import type { BaseScope } from './scope.js';
import { itemUrlPath } from '../core/django/urls.js';
import { count } from './words.js';

/** The list envelope, as far as a page has it. */
export interface Envelope {
  readonly count: number;
  readonly next: unknown;
  readonly previous: unknown;
  readonly results: readonly unknown[];
}

export function asEnvelope(body: unknown): Envelope | undefined {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const b = body as Record<string, unknown>;
  return Array.isArray(b.results) && typeof b.count === 'number' ? (b as unknown as Envelope) : undefined;
}

export interface PageContext extends AnswerContext {
  /** The deployment that served the page: every link must lie on it (§9.2). */
  readonly scope: BaseScope;
  readonly detail: DetailOperation | undefined;
  /** Items carry their own url (the item schema has `url` and the spec an item path). */
  readonly withUrls: boolean;
  readonly pkField: string;
  /** The query item urls carry: `?format=api`, or '' (the format the page was asked with). */
  readonly formatQuery: string;
}

/**
 * The rules one page can show by itself: §2.1 rules 1 and 2 and a first page's null `previous`
 * (when it is the first page), and §9.2 for its links. Rules across pages are the crawl's.
 */
export function pageRules(ctx: PageContext, url: string, body: Envelope, isFirst: boolean): void {
  const f = ctx.findings;
  if (isFirst) {
    if (body.previous !== null) f.report('envelope.first-previous', url, '/previous', 'null', asJson(body.previous));
    if (body.count === 0) {
      if (body.next !== null) f.report('envelope.empty', url, '/next', 'null (count is 0)', asJson(body.next));
      if (body.results.length > 0)
        f.report('envelope.empty', url, '/results', '[] (count is 0)', count(body.results.length, 'item'));
    }
    if (body.next === null && body.results.length !== body.count) {
      f.report(
        'envelope.single-page',
        url,
        '/results',
        `${count(body.count, 'item')} (count, and next is null)`,
        count(body.results.length, 'item'),
      );
    }
  }
  for (const key of ['next', 'previous'] as const) {
    const link = body[key];
    if (link !== null && !ctx.scope.holdsLink(link))
      f.report('urls.base', url, `/${key}`, `an absolute url on ${ctx.scope.href}/`, asJson(link));
  }
}

/**
 * §2.2 and §9.2 for one item's url: absolute and on the base, pk its last path segment, the shape
 * `{base_url}/api/v1/desk/<pk>?format=…`. Answers the url when it may be fetched (on the base).
 */
export function itemUrlRules(
  ctx: PageContext,
  url: string,
  where: string,
  item: Readonly<Record<string, unknown>>,
): string | undefined {
  if (!ctx.withUrls || !ctx.detail || typeof item.url !== 'string') return undefined;
  const f = ctx.findings;
  const itemUrl = item.url;
  if (!ctx.scope.holdsLink(itemUrl)) {
    f.report('urls.base', url, `${where}/url`, `an absolute url on ${ctx.scope.href}/`, itemUrl);
    return undefined;
  }
  // The pk as the deployment wrote it: an integer past 2^53 is compared by its text, not rounded.
  const pk = memberText(item, ctx.pkField);
  if (pk !== undefined) {
    let segment: string | undefined;
    try {
      segment = decodeURIComponent(new URL(itemUrl).pathname.split('/').at(-1) ?? '');
    } catch {
      segment = undefined;
    }
    if (segment !== pk)
      f.report('item-url.pk', url, `${where}/url`, `last path segment ${pk} (the item's ${ctx.pkField})`, itemUrl);
    else {
      const expected = `${ctx.scope.url(itemUrlPath(ctx.detail, pk))}${ctx.formatQuery}`;
      if (itemUrl !== expected) f.report('item-url.shape', url, `${where}/url`, expected, itemUrl);
    }
  }
  return new URL(itemUrl).href;
}
