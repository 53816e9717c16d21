import { drfJson, type PreparedItem, renderItem } from '../fixtures/store.js';
import { quotePlus } from './python-query.js';

/** What a request contributes to every url of its answer: the base URL and the `format` value. */
export interface UrlContext {
  /** JSON string literal of the base URL, without its closing quote: `"http://host:4010`. */
  readonly urlPrefixJson: string;
  /** `?format=api` when the request had `format` (DRF's preserve_builtin_query_params), else empty. */
  readonly formatQuery: string;
}

export function urlContext(baseUrl: string, format: string | undefined): UrlContext {
  return {
    urlPrefixJson: JSON.stringify(baseUrl).slice(0, -1),
    formatQuery: format === undefined ? '' : `?format=${quotePlus(format)}`,
  };
}

/** The list envelope (§2.1), members in DRF's order, items sliced and rendered once. */
export function renderEnvelope(count: number, next: string | null, previous: string | null, items: readonly PreparedItem[], ctx: UrlContext): string {
  let results = '';
  for (let i = 0; i < items.length; i++) {
    if (i > 0) results += ',';
    results += renderItem(items[i] as PreparedItem, ctx.urlPrefixJson, ctx.formatQuery);
  }
  return `{"count":${count},"next":${drfJson(next)},"previous":${drfJson(previous)},"results":[${results}]}`;
}
