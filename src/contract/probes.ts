import type { DeclaredResponse } from '../openapi/declared-responses.js';
import { VIEW_METHODS } from '../openapi/operations.js';
import { follow, isObject } from '../openapi/pointer.js';
import { describeViolation } from '../openapi/ajv.js';
import { declaredFor, isJsonType, placeOf } from './answer-rules.js';
import type { CollectionCheck, CrawlFacts } from './collection-check.js';
import type { OperationRef } from './findings.js';
import { headerText } from './http.js';
import { parseJson } from './json.js';
import type { RuleId } from './rules.js';
import { itemUrlPath } from '../core/django/urls.js';
import { count } from './words.js';

// Values no spec of this service declares: asked only to see the error the spec declares for them.
const UNKNOWN_FORMAT = 'no-such-format';
const INVALID_PAGES = ['0', 'abc'];
// The largest pk a 32-bit integer column holds: a pk past it could be a 500 from the database, not a 404.
const INT32_MAX = 2_147_483_647;

interface ProbedOperation extends OperationRef {
  readonly responses: Readonly<Record<string, DeclaredResponse>>;
}

const withQuery = (url: string, param: string): string => `${url}${url.includes('?') ? '&' : '?'}${param}`;

/**
 * The error contract of one collection (--probes), as the spec declares it: an answer outside the
 * declared parameters is an error status the operation declares, in the schema declared for it;
 * a method the spec does not declare is 405 with `Allow` (RFC 9110); HEAD is GET without a body.
 * Each probe reports under its own rule. Nothing is created: the write method carries a body no
 * parser accepts, so even a deployment that allows it answers 400, not 201.
 */
export async function runProbes(check: CollectionCheck, facts: CrawlFacts): Promise<void> {
  const { list, detail, result } = check;
  const skip = (rule: RuleId, why: string) => (result.skipped[rule] = why);

  for (const page of INVALID_PAGES)
    await expectError(check, 'probe.invalid-page', withQuery(facts.firstUrl, `page=${page}`), list);

  if (result.reachedEnd)
    await expectError(check, 'probe.page-past-end', withQuery(facts.firstUrl, `page=${result.pages + 1}`), list);
  else skip('probe.page-past-end', 'not run: the crawl did not reach the last page');

  if (list.formats !== undefined) {
    const url = `${check.s.scope.url(list.path)}?format=${UNKNOWN_FORMAT}`;
    await expectError(check, 'probe.unknown-format', url, list);
  } else skip('probe.unknown-format', 'not run: the spec declares no values of format');

  if (detail) {
    const pk = detail.pkIsInteger
      ? String(result.truncated || facts.pkUnseen ? INT32_MAX : Math.min(facts.maxIntegerPk + 1, INT32_MAX))
      : 'no-such-item';
    await expectError(
      check,
      'probe.unknown-pk',
      `${check.s.scope.url(itemUrlPath(detail, pk))}${check.ctx.formatQuery}`,
      detail,
    );
  }

  await methodNotAllowed(check, facts.firstUrl);
  await head(check, facts);
}

/** The answer is an error the operation declares (a 4xx when it declares none), valid against its schema. */
async function expectError(check: CollectionCheck, rule: RuleId, url: string, op: ProbedOperation): Promise<void> {
  const f = check.findings;
  const r = await check.request('GET', url);
  if (!r.ok) {
    f.report(rule, url, '', 'an error answer', r.error, op);
    return;
  }
  const errors = Object.keys(op.responses).filter((s) => /^4/.test(s));
  const declared =
    errors.length > 0
      ? errors.includes(String(r.status)) || errors.includes(`${String(r.status)[0]}XX`)
      : r.status >= 400 && r.status < 500;
  if (!declared) {
    f.report(
      rule,
      url,
      '',
      errors.length > 0 ? `${errors.join(' or ')} (declared for errors)` : 'a 4xx error',
      `${r.status}: ${r.text}`,
      op,
    );
    return;
  }
  const schema = declaredFor(op.responses, r.status)?.schemaPointer;
  if (schema) expectBody(check, rule, url, r.contentType, r.text, schema, op);
}

function expectBody(
  check: CollectionCheck,
  rule: RuleId,
  url: string,
  contentType: string,
  text: string,
  schema: string,
  op: OperationRef,
): void {
  const f = check.findings;
  if (!isJsonType(contentType)) {
    f.report(
      rule,
      url,
      '',
      'application/json (the declared error body)',
      `${contentType || 'no Content-Type'}: ${text}`,
      op,
    );
    return;
  }
  const parsed = parseJson(text);
  if (!parsed.ok) {
    f.report(rule, url, '', 'a JSON error body', `${parsed.reason}: ${text}`, op);
    return;
  }
  for (const v of check.s.contract.ajv.validate(schema, parsed.value)) {
    const { pointer, found } = placeOf(v);
    f.report(rule, url, pointer, `${describeViolation(v)} (${schema})`, found, op);
  }
}

/** The schema of a 405 the spec describes: the operation's own, else `components/responses/MethodNotAllowed`. */
function methodNotAllowedSchema(check: CollectionCheck): string | undefined {
  const own = check.list.responses['405']?.schemaPointer;
  if (own) return own;
  const doc = check.s.contract.spec.doc;
  const component = follow(doc, '#/components/responses/MethodNotAllowed/content/application~1json');
  return isObject(component.node) && component.node.schema !== undefined ? `${component.pointer}/schema` : undefined;
}

async function methodNotAllowed(check: CollectionCheck, firstUrl: string): Promise<void> {
  const { list } = check;
  const rule: RuleId = 'probe.method-not-allowed';
  const route = check.s.contract.operations.routes.find((r) => r.path === list.path);
  const declared = [...(route?.methods.keys() ?? ['GET'])];
  const method = VIEW_METHODS.find((m) => !declared.includes(m) && m !== 'GET');
  if (!method) {
    check.result.skipped[rule] = 'not run: the spec declares every method on the collection';
    return;
  }
  const f = check.findings;
  const r = await check.request(method, firstUrl, {
    headers: { 'content-type': 'application/json' },
    body: Buffer.from('{'),
  });
  if (!r.ok) {
    f.report(rule, firstUrl, '', `405 to ${method}`, r.error);
    return;
  }
  if (r.status !== 405) {
    f.report(
      rule,
      firstUrl,
      '',
      `405 to ${method} (the spec declares ${declared.join(', ')})`,
      `${r.status}: ${r.text}`,
    );
    return;
  }
  const allow = headerText(r.headers, 'allow')
    .split(',')
    .map((m) => m.trim().toUpperCase())
    .filter(Boolean);
  const missing = declared.filter((m) => !allow.includes(m));
  if (allow.length === 0)
    f.report(rule, firstUrl, 'Allow', `an Allow header naming ${declared.join(', ')}`, 'no Allow header');
  else if (missing.length > 0 || allow.includes(method))
    f.report(rule, firstUrl, 'Allow', `${declared.join(', ')} and not ${method}`, allow.join(', '));
  const schema = methodNotAllowedSchema(check);
  if (schema) expectBody(check, rule, firstUrl, r.contentType, r.text, schema, list);
}

// Headers HEAD must repeat from GET (RFC 9110 §9.3.2); Content-Length only when HEAD sends one (it may omit it).
const HEAD_HEADERS = ['content-type', 'allow', 'vary'];

async function head(check: CollectionCheck, facts: CrawlFacts): Promise<void> {
  const rule: RuleId = 'probe.head';
  const get = facts.first;
  if (!get?.ok) {
    check.result.skipped[rule] = 'not run: the first page gave no answer to compare with';
    return;
  }
  const f = check.findings;
  const r = await check.request('HEAD', facts.firstUrl);
  if (!r.ok) {
    f.report(rule, facts.firstUrl, '', `GET's answer without a body (${get.status})`, r.error);
    return;
  }
  if (r.status !== get.status) f.report(rule, facts.firstUrl, '', `${get.status} (as GET)`, String(r.status));
  for (const name of HEAD_HEADERS) {
    const want = headerText(get.headers, name);
    const got = headerText(r.headers, name);
    if (want !== got)
      f.report(
        rule,
        facts.firstUrl,
        name,
        want === '' ? 'no such header (as GET)' : `${want} (as GET)`,
        got === '' ? 'none' : got,
      );
  }
  const length = headerText(r.headers, 'content-length');
  const getLength = headerText(get.headers, 'content-length') || String(get.body.length);
  if (length !== '' && length !== getLength && r.status === get.status)
    f.report(rule, facts.firstUrl, 'content-length', `${getLength} (as GET)`, length);
  if (r.body.length > 0) f.report(rule, facts.firstUrl, '', 'no body', count(r.body.length, 'byte'));
}
