import { drfJson, type PreparedItem, renderItem } from '../prepared-items.js';
import { type ItemUrlParts, itemPathParts } from '../django/urls.js';
import { quotePlus } from '../python/quote.js';

/**
 * What a request contributes to every item url of its answer: the base URL, the format suffix
 * (`/api/v1/desk/3.json` when the list was asked as `desk.json`: HyperlinkedIdentityField reverses
 * with the view's format_kwarg), and the `format` query value (DRF's preserve_builtin_query_params).
 */
export function itemUrlParts(
  baseUrl: string,
  detail: { path: string; pkParam: string } | undefined,
  format: string | undefined,
  suffix: string | undefined,
): ItemUrlParts | undefined {
  if (detail === undefined) return undefined;
  const [path, rest] = itemPathParts(detail);
  const before = `${baseUrl}${path}`;
  const after = `${rest}${suffix === undefined ? '' : `.${suffix}`}${format === undefined ? '' : `?format=${quotePlus(format)}`}`;
  return { head: JSON.stringify(before).slice(0, -1), tail: JSON.stringify(after).slice(1, -1), before, after };
}

/** The list envelope (§2.1), members in DRF's order, items sliced and rendered once. */
export function renderEnvelope(
  count: number,
  next: string | null,
  previous: string | null,
  items: readonly PreparedItem[],
  url: ItemUrlParts | undefined,
): string {
  let results = '';
  for (let i = 0; i < items.length; i++) {
    if (i > 0) results += ',';
    results += renderItem(items[i] as PreparedItem, url);
  }
  return `{"count":${count},"next":${drfJson(next)},"previous":${drfJson(previous)},"results":[${results}]}`;
}

/**
 * JSONRenderer with an `indent` from the accepted media type (`Accept: application/json;
 * indent=4`): Python's `json.dumps(indent=N)`, whose layout JSON.stringify shares.
 */
export function withIndent(body: string, indent: number | undefined): string {
  if (indent === undefined || body === '') return body;
  return drfJson(JSON.parse(body) as unknown, indent);
}
