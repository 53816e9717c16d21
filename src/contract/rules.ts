/**
 * The contract's rules: what the checker holds a deployment to, beyond nothing. Each has an id
 * (stable, for reports and CI), the place in the interface document or the spec it comes from,
 * and what it means. Schema checks come from the spec; the rest are the document's own rules
 * that a schema cannot state.
 */
export const RULES = {
  transport: { source: 'HTTP', text: 'the endpoint answers: no connection error, reset or time-out' },
  status: { source: 'spec', text: 'a collection page and an item url answer 200' },
  'content-type': { source: 'spec', text: 'the answer is application/json, as the spec declares' },
  json: { source: 'spec', text: 'the body is valid JSON' },
  schema: { source: 'spec', text: "the body validates against the spec's response schema for its status" },
  'envelope.empty': { source: '§2.1 rule 1', text: 'an empty collection has count 0, next null, previous null and results []' },
  'envelope.single-page': { source: '§2.1 rule 2', text: 'a collection on one page has next and previous null and results.length equal to count' },
  'envelope.first-previous': { source: '§2.1', text: "the first page's previous is null" },
  'envelope.count-stable': { source: '§2.1', text: 'count is the same on every page' },
  'envelope.count-reached': { source: '§2.1, §2.2 rule 2', text: 'count equals the number of items reached by following next to the end' },
  'envelope.duplicate-item': { source: '§2.1', text: 'no item appears twice while crawling' },
  'envelope.previous-back': { source: '§2.1', text: 'each page’s previous leads back to the page before' },
  'envelope.next-loop': { source: '§2.1', text: 'next never leads back to a page already seen' },
  'urls.base': { source: '§9.2', text: 'every absolute url in an answer (items, next, previous) starts with the base URL that served it' },
  'item.fields': { source: '§2.2 rule 1', text: 'every desk item carries all nine fields' },
  'item-url.shape': { source: '§2.2', text: 'an item url has the shape {base_url}/api/v1/desk/<pk>?format=api (the format asked for)' },
  'item-url.pk': { source: '§2.2', text: 'pk forms the last path segment of url' },
  'item-url.addressable': { source: '§4', text: 'each item is addressable at its url: the url answers 200' },
  'item-url.detail-equals': { source: '§4', text: 'the item at its url equals the listed item' },
} as const;

export type RuleId = keyof typeof RULES;

/** One way an answer breaks the contract. */
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
