import { MAX_JSON_DEPTH } from './json.js';

/**
 * The contract's rules: what the checker, the proxy and the recorder hold a deployment to. Each
 * has an id (stable, for reports and CI: JUnit testcases are named after it), the place in the
 * interface document or the spec it comes from, and what it means. Schema checks come from the
 * spec; the rest are the document's own rules that a schema cannot state, the error contract the
 * spec declares (probes), and what two deployments must share (drift, §9.2).
 */
export const RULES = {
  // Every answer.
  transport: { source: 'HTTP', text: 'the endpoint answers: no connection error, reset, bad encoding or time-out' },
  'answer.size': { source: 'checker', text: 'the answer fits in --max-body bytes, on the wire and decompressed' },
  status: { source: 'spec', text: 'a collection page and an item url answer 200' },
  'content-type': { source: 'spec', text: 'the answer is application/json, as the spec declares' },
  json: { source: 'spec', text: `the body is valid JSON, nested at most ${MAX_JSON_DEPTH} levels` },
  schema: { source: 'spec', text: "the body validates against the spec's response schema for its status" },
  // The crawl of a collection.
  'crawl.truncated': {
    source: 'checker',
    text: 'the crawl reaches the last page within --max-pages (otherwise count, duplicates and later pages are not verified)',
  },
  'envelope.empty': {
    source: '§2.1 rule 1',
    text: 'an empty collection has count 0, next null, previous null and results []',
  },
  'envelope.single-page': {
    source: '§2.1 rule 2',
    text: 'a collection on one page has next and previous null and results.length equal to count',
  },
  'envelope.first-previous': { source: '§2.1', text: "the first page's previous is null" },
  'envelope.count-stable': { source: '§2.1', text: 'count is the same on every page' },
  'envelope.count-reached': {
    source: '§2.1, §2.2 rule 2',
    text: 'count equals the number of items reached by following next to the end',
  },
  'envelope.duplicate-item': { source: '§2.1', text: 'no item appears twice while crawling' },
  'envelope.previous-back': { source: '§2.1', text: 'each page’s previous leads back to the page before' },
  'envelope.next-loop': { source: '§2.1', text: 'next never leads back to a page already seen' },
  'urls.base': {
    source: '§9.2',
    text: 'every url in an answer (items, next, previous) is absolute and, resolved, lies on the base URL that served it',
  },
  'item.fields': { source: '§2.2 rule 1', text: 'every desk item carries all nine fields' },
  'item-url.shape': {
    source: '§2.2',
    text: 'an item url has the shape {base_url}/api/v1/desk/<pk>?format=api (the format asked for)',
  },
  'item-url.pk': { source: '§2.2', text: 'pk forms the last path segment of url' },
  'item-url.addressable': { source: '§4', text: 'each item is addressable at its url: the url answers 200' },
  'item-url.detail-equals': { source: '§4', text: 'the item at its url equals the listed item' },
  // --probes: the error contract the spec declares (the document shows none, §7).
  'probe.invalid-page': {
    source: 'spec: page parameter',
    text: 'a page that is not a page number (page=0, page=abc) answers an error the spec declares, with its schema',
  },
  'probe.page-past-end': {
    source: 'spec: page parameter',
    text: 'the page after the last answers an error the spec declares, with its schema',
  },
  'probe.unknown-format': {
    source: 'spec: format parameter',
    text: 'a format outside the declared ones answers an error the spec declares, with its schema',
  },
  'probe.unknown-pk': {
    source: 'spec: item path',
    text: 'a pk no item has answers an error the spec declares, with its schema',
  },
  'probe.method-not-allowed': {
    source: '§4, RFC 9110 §15.5.6',
    text: 'a method the spec does not declare answers 405 with an Allow header naming the declared methods',
  },
  'probe.head': { source: 'RFC 9110 §9.3.2', text: "HEAD answers GET's status and headers, without a body" },
  // --compare: two deployments of the same service (§9.2).
  'drift.collections': { source: '§9.2', text: 'both deployments serve the same collections' },
  'drift.count': { source: '§9.2', text: 'a collection has the same count on both deployments' },
  'drift.items': {
    source: '§9.2',
    text: 'an item (by its pk) is on both deployments, equal field by field (urls compared without their base)',
  },
  'drift.fields': { source: '§9.2', text: 'the items of a collection carry the same fields on both deployments' },
} as const;

export type RuleId = keyof typeof RULES;

/** Rules every answer is held to, wherever it comes from (checker, proxy, recorder). */
export const ANSWER_RULES: readonly RuleId[] = ['transport', 'answer.size', 'status', 'content-type', 'json', 'schema'];
/** Rules of a collection's crawl. */
export const CRAWL_RULES: readonly RuleId[] = [
  'crawl.truncated',
  'envelope.empty',
  'envelope.single-page',
  'envelope.first-previous',
  'envelope.count-stable',
  'envelope.count-reached',
  'envelope.duplicate-item',
  'envelope.previous-back',
  'envelope.next-loop',
  'urls.base',
];
/** Rules of items whose schema describes required fields. */
export const ITEM_RULES: readonly RuleId[] = ['item.fields'];
/** Rules of items with a url and an item path. */
export const ITEM_URL_RULES: readonly RuleId[] = [
  'item-url.shape',
  'item-url.pk',
  'item-url.addressable',
  'item-url.detail-equals',
];
export const PROBE_RULES: readonly RuleId[] = [
  'probe.invalid-page',
  'probe.page-past-end',
  'probe.unknown-format',
  'probe.unknown-pk',
  'probe.method-not-allowed',
  'probe.head',
];
export const DRIFT_RULES: readonly RuleId[] = ['drift.collections', 'drift.count', 'drift.items', 'drift.fields'];

/** One way an answer breaks the contract. Every text in it is safe to show: secrets redacted, control characters escaped, clipped. */
export interface Violation {
  /** `GET /api/v1/desk` */
  readonly endpoint: string;
  readonly operationId: string;
  readonly rule: RuleId;
  /** The url requested (credentials never appear: only the base and path). */
  readonly url: string;
  /** JSON pointer into the answer's body ('' for the whole answer). */
  readonly pointer: string;
  readonly expected: string;
  readonly found: string;
}
