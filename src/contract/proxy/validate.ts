import type { DetailOperation, ListOperation } from '../../openapi/operations.js';
import { checkAnswer, reportFailure } from '../answer-rules.js';
import type { Findings } from '../findings.js';
import { type Fetched, headerText } from '../http.js';
import type { Contract } from '../load.js';
import { asEnvelope, itemUrlRules, type PageContext, pageRules } from '../page-rules.js';
import { ANSWER_RULES, ITEM_RULES, type RuleId } from '../rules.js';
import type { BaseScope } from '../scope.js';
import { buildsUrl, describesFields, lookupField } from '../../openapi/item-schema.js';
import { isObject } from '../../openapi/pointer.js';
import { itemPathParts, PK_SEGMENT } from '../../core/django/urls.js';

/** The operation a proxied request addresses. */
export interface Routed {
  readonly list: ListOperation;
  readonly detail: DetailOperation | undefined;
  /** The request addresses the item path, not the collection. */
  readonly isDetail: boolean;
}

/** The collection or item path `pathname` (relative to the base) names, as DRF's router would route it. */
export function route(contract: Contract, pathname: string): Routed | undefined {
  for (const list of contract.operations.lists) {
    const detail = contract.operations.detailOf.get(list.path);
    if (pathname === list.path) return { list, detail, isDetail: false };
    if (!detail) continue;
    const [before, after] = itemPathParts(detail);
    if (pathname.length > before.length + after.length && pathname.startsWith(before) && pathname.endsWith(after)) {
      const pk = pathname.slice(before.length, pathname.length - after.length);
      if (PK_SEGMENT.test(pk)) return { list, detail, isDetail: true };
    }
  }
  return undefined;
}

/** The rules a single proxied answer of this route can show (cross-page rules need a crawl). */
export function proxyRules(contract: Contract, routed: Routed): RuleId[] {
  const doc = contract.spec.doc;
  const rules: RuleId[] = [...ANSWER_RULES];
  if (!routed.isDetail) rules.push('envelope.empty', 'envelope.single-page', 'envelope.first-previous');
  rules.push('urls.base');
  if (describesFields(doc, routed.list.itemPointer)) rules.push(...ITEM_RULES);
  if (buildsUrl(doc, routed.list, routed.detail)) rules.push('item-url.shape', 'item-url.pk');
  rules.push('probe.method-not-allowed');
  return rules;
}

/**
 * Holds one upstream answer to the rules of the checker, with the checker's rule ids: the status
 * is one the spec declares, the body validates against its schema, a page keeps §2.1 and §9.2
 * (against the upstream's base, before any rewriting), an item its url. A method the spec does
 * not declare must answer 405 with `Allow`.
 */
export function validateAnswer(
  contract: Contract,
  upstream: BaseScope,
  findings: Findings,
  routed: Routed,
  method: string,
  url: URL,
  r: Fetched,
): void {
  const doc = contract.spec.doc;
  const op = routed.isDetail && routed.detail ? routed.detail : routed.list;
  const declared = contract.operations.routes.find((x) => x.path === op.path)?.methods;
  const href = url.href;
  if (method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS') {
    if (declared?.has(method as never)) return; // a declared write: its answer is the spec's, not checked here
    if (!r.ok) return reportFailure({ contract, findings, op, itemFieldsRule: false }, href, r);
    const allow = headerText(r.headers, 'allow');
    if (r.status !== 405)
      findings.report('probe.method-not-allowed', href, '', `405 to ${method}`, `${r.status}: ${r.text}`, op);
    else if (!/\bGET\b/i.test(allow))
      findings.report(
        'probe.method-not-allowed',
        href,
        'Allow',
        'an Allow header naming GET',
        allow || 'no Allow header',
        op,
      );
    return;
  }
  if (method === 'OPTIONS') return;
  const itemFieldsRule = describesFields(doc, routed.list.itemPointer);
  const ctx: PageContext = {
    contract,
    findings,
    op,
    itemFieldsRule,
    scope: upstream,
    detail: routed.detail,
    withUrls: buildsUrl(doc, routed.list, routed.detail),
    pkField: (routed.detail && lookupField(doc, routed.list, routed.detail)) ?? 'pk',
    formatQuery: url.searchParams.has('format')
      ? `?format=${encodeURIComponent(url.searchParams.get('format') ?? '')}`
      : '',
  };
  if (method === 'HEAD') {
    if (!r.ok) reportFailure(ctx, href, r);
    else if (!op.responses[String(r.status)])
      findings.report(
        'status',
        href,
        '',
        `a status the spec declares (${Object.keys(op.responses).join(', ')})`,
        String(r.status),
        op,
      );
    return;
  }
  const got = checkAnswer(ctx, href, r, 'declared');
  if (!got?.parsed || got.answer.status !== 200) return;
  if (routed.isDetail) {
    if (isObject(got.body)) itemUrlRules(ctx, href, '', got.body);
    return;
  }
  const body = asEnvelope(got.body);
  if (!body) return;
  const page = url.searchParams.get('page');
  pageRules(ctx, href, body, page === null || page === '' || page === '1');
  body.results.forEach((item, i) => {
    if (isObject(item)) itemUrlRules(ctx, href, `/results/${i}`, item);
  });
}
