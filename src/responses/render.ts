import type { DetailOperation } from '../spec/operations.js';
import { drfJson, type ItemUrlParts, itemPathParts, type PreparedItem, renderItem } from '../fixtures/store.js';
import { quotePlus } from './python-query.js';

/**
 * What a request contributes to every item url of its answer: the base URL and the `format`
 * value (`?format=api` when the request had one: DRF's preserve_builtin_query_params).
 */
export function itemUrlParts(baseUrl: string, detail: DetailOperation | undefined, format: string | undefined): ItemUrlParts | undefined {
  if (detail === undefined) return undefined;
  const [before, after] = itemPathParts(detail);
  return {
    head: JSON.stringify(`${baseUrl}${before}`).slice(0, -1),
    tail: `${after}${format === undefined ? '' : `?format=${quotePlus(format)}`}`,
  };
}

/** The list envelope (§2.1), members in DRF's order, items sliced and rendered once. */
export function renderEnvelope(count: number, next: string | null, previous: string | null, items: readonly PreparedItem[], url: ItemUrlParts | undefined): string {
  let results = '';
  for (let i = 0; i < items.length; i++) {
    if (i > 0) results += ',';
    results += renderItem(items[i] as PreparedItem, url);
  }
  return `{"count":${count},"next":${drfJson(next)},"previous":${drfJson(previous)},"results":[${results}]}`;
}
