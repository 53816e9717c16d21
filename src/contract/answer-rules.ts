import type { DeclaredResponse } from '../openapi/declared-responses.js';
import { describeViolation, type SchemaViolation } from '../openapi/ajv.js';
import type { Findings, OperationRef } from './findings.js';
import type { Answer, Fetched } from './http.js';
import { parseJson } from './json.js';
import type { Contract } from './load.js';
import type { RuleId } from './rules.js';
import { asJson } from './safe-text.js';

/** An operation as the answer rules see it. */
export interface AnsweredOperation extends OperationRef {
  readonly kind: 'list' | 'detail';
  readonly responses: Readonly<Record<string, DeclaredResponse>>;
}

export interface AnswerContext {
  readonly contract: Contract;
  readonly findings: Findings;
  readonly op: AnsweredOperation;
  /** The item schema describes fields: a missing one is §2.2 rule 1 (`item.fields`), not only `schema`. */
  readonly itemFieldsRule: boolean;
}

export interface CheckedAnswer {
  readonly answer: Answer;
  /** The parsed body; undefined when it is not JSON or not validated. */
  readonly body: unknown;
  readonly parsed: boolean;
}

export const isJsonType = (contentType: string): boolean =>
  /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i.test(contentType.trim());

/** The declared response for a status: its own, its range (`4XX`), or `default`. */
export function declaredFor(
  responses: Readonly<Record<string, DeclaredResponse>>,
  status: number,
): DeclaredResponse | undefined {
  return responses[String(status)] ?? responses[`${String(status)[0]}XX`] ?? responses.default;
}

/** A transport failure as its rule: a body over --max-body is `answer.size`, anything else `transport`. */
export function reportFailure(ctx: AnswerContext, url: string, r: Fetched & { ok: false }): void {
  ctx.findings.report(
    r.code === 'TOO_LARGE' ? 'answer.size' : 'transport',
    url,
    '',
    r.code === 'TOO_LARGE' ? 'an answer within --max-body' : 'an HTTP answer',
    r.error,
    ctx.op,
  );
}

/**
 * The rules every answer is held to: it arrives, within bounds; its status is the one expected
 * (200 for the crawl; any the spec declares for the proxy); it is JSON, nested within bounds; it
 * validates against the schema the spec declares for its status. Answers the parsed body when
 * the caller can go on with it.
 */
export function checkAnswer(
  ctx: AnswerContext,
  url: string,
  r: Fetched,
  expect: 'ok' | 'declared',
): CheckedAnswer | undefined {
  const { findings, op } = ctx;
  if (!r.ok) {
    reportFailure(ctx, url, r);
    return undefined;
  }
  const declared = declaredFor(op.responses, r.status);
  if (expect === 'ok' ? r.status !== 200 : declared === undefined) {
    const codes = Object.keys(op.responses).join(', ');
    findings.report(
      'status',
      url,
      '',
      expect === 'ok' ? '200' : `a status the spec declares (${codes})`,
      `${r.status} (${declared ? 'declared for errors' : 'not declared by the spec'}): ${r.text}`,
      op,
    );
    return expect === 'ok' ? undefined : { answer: r, body: undefined, parsed: false };
  }
  if (declared?.schemaPointer === undefined) return { answer: r, body: undefined, parsed: false };
  if (!isJsonType(r.contentType))
    findings.report('content-type', url, '', 'application/json', r.contentType || 'no Content-Type', op);
  const parsed = parseJson(r.text);
  if (!parsed.ok) {
    findings.report('json', url, '', 'a JSON body', `${parsed.reason}: ${r.text}`, op);
    return { answer: r, body: undefined, parsed: false };
  }
  for (const v of ctx.contract.ajv.validate(declared.schemaPointer, parsed.value))
    schemaViolation(ctx, url, v, r.status === 200);
  return { answer: r, body: parsed.value, parsed: true };
}

function schemaViolation(ctx: AnswerContext, url: string, v: SchemaViolation, ok: boolean): void {
  // A field missing from an item is §2.2 rule 1; every other schema violation is the schema's.
  const itemPlace = ctx.op.kind === 'list' ? /^\/results\/\d+$/.test(v.pointer) : v.pointer === '';
  const rule: RuleId = ok && ctx.itemFieldsRule && v.keyword === 'required' && itemPlace ? 'item.fields' : 'schema';
  const { pointer, found } = placeOf(v);
  ctx.findings.report(rule, url, pointer, describeViolation(v), found, ctx.op);
}

/** Where a schema violation is, and what is found there: a missing member at its own place. */
export function placeOf(v: SchemaViolation): { pointer: string; found: string } {
  return v.keyword === 'required'
    ? { pointer: `${v.pointer}/${String(v.params.missingProperty)}`, found: 'missing' }
    : { pointer: v.pointer, found: asJson(v.data) };
}
