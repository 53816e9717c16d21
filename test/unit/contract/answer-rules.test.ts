import { describe, expect, it } from 'vitest';
import { checkAnswer, declaredFor, isJsonType, reportFailure } from '../../../src/contract/answer-rules.js';
import { Findings } from '../../../src/contract/findings.js';
import type { Fetched } from '../../../src/contract/http.js';
import { Redactor } from '../../../src/contract/redact.js';
import type { DeclaredResponse } from '../../../src/openapi/declared-responses.js';
import type { DetailOperation, ListOperation } from '../../../src/openapi/operations.js';
import { answer, bundledContract, desk, DESKS, failure } from './fake-deployment.js';

const contract = await bundledContract();
const list = contract.operations.lists.find((l) => l.path === DESKS) as ListOperation;
const detail = contract.operations.detailOf.get(DESKS) as DetailOperation;

function run(op: ListOperation | DetailOperation, r: Fetched, expect_: 'ok' | 'declared', itemFieldsRule = true) {
  const findings = new Findings(new Redactor([]), op);
  const got = checkAnswer({ contract, findings, op, itemFieldsRule }, 'https://h/u', r, expect_);
  return { got, found: findings.violations.map((v) => [v.rule, v.pointer, v.found]) };
}

const page = (results: unknown[], over: object = {}) => ({
  count: results.length,
  next: null,
  previous: null,
  results,
  ...over,
});
const { floor: _floor, ...noFloor } = desk(1);

describe('isJsonType and declaredFor', () => {
  it.each<[string, boolean]>([
    ['application/json', true],
    ['application/json; charset=utf-8', true],
    ['Application/JSON', true],
    ['application/problem+json', true],
    ['application/jsonx', false],
    ['text/json', false],
    ['text/html', false],
  ])('isJsonType(%s): %s', (type, want) => {
    expect(isJsonType(type)).toBe(want);
  });

  const responses: Record<string, DeclaredResponse> = {
    '200': { schemaPointer: '#/a' },
    '4XX': { schemaPointer: '#/b' },
    default: { schemaPointer: '#/c' },
  } as unknown as Record<string, DeclaredResponse>;
  it.each<[number, string]>([
    [200, '#/a'],
    [404, '#/b'],
    [500, '#/c'],
  ])('declaredFor(%d): its own, its range, else default', (status, want) => {
    expect(declaredFor(responses, status)?.schemaPointer).toBe(want);
  });
});

describe('reportFailure', () => {
  it.each<[string, string, string]>([
    ['TOO_LARGE', 'answer.size', 'an answer within --max-body'],
    ['ECONNRESET', 'transport', 'an HTTP answer'],
  ])('%s is %s', (code, rule, expected) => {
    const findings = new Findings(new Redactor([]), list);
    reportFailure({ contract, findings, op: list, itemFieldsRule: false }, 'u', failure(code, 'why'));
    expect(findings.violations.map((v) => [v.rule, v.expected, v.found])).toEqual([[rule, expected, 'why']]);
  });
});

describe('checkAnswer: the rules every answer is held to', () => {
  it.each<[string, Fetched, 'ok' | 'declared', unknown[][], boolean | undefined]>([
    ['a valid page', answer(200, page([desk(1)])), 'ok', [], true],
    ['no answer', failure('ECONNRESET', 'reset'), 'ok', [['transport', '', 'reset']], undefined],
    [
      'a status no one declares',
      answer(500, 'boom'),
      'ok',
      [['status', '', '500 (not declared by the spec): boom']],
      undefined,
    ],
    [
      'an error status to the crawl',
      answer(404, { detail: 'x' }),
      'ok',
      [['status', '', '404 (declared for errors): {"detail":"x"}']],
      undefined,
    ],
    ['an error the spec declares, to the proxy', answer(404, { detail: 'Not found.' }), 'declared', [], true],
    ['a declared error in the wrong shape', answer(404, { detail: 1 }), 'declared', [['schema', '/detail', '1']], true],
    [
      'an undeclared status, to the proxy',
      answer(418, 'teapot'),
      'declared',
      [['status', '', '418 (not declared by the spec): teapot']],
      false,
    ],
    [
      'JSON sent as text/html',
      answer(200, page([]), { 'content-type': 'text/html' }),
      'ok',
      [['content-type', '', 'text/html']],
      true,
    ],
    ['no JSON at all', answer(200, '{"count":'), 'ok', [['json', '', expect.stringMatching(/: \{"count":$/)]], false],
    [
      'an item without a field: §2.2 rule 1',
      answer(200, page([noFloor])),
      'ok',
      [['item.fields', '/results/0/floor', 'missing']],
      true,
    ],
    [
      'the envelope without a member: the schema',
      answer(200, { next: null, previous: null, results: [] }),
      'ok',
      [['schema', '/count', 'missing']],
      true,
    ],
    [
      'a field of the wrong type',
      answer(200, page([{ ...desk(1), floor: 'x' }])),
      'ok',
      [['schema', '/results/0/floor', '"x"']],
      true,
    ],
  ])('%s', (_name, r, expect_, want, parsed) => {
    const { got, found } = run(list, r, expect_);
    expect(found).toEqual(want);
    expect(got?.parsed).toBe(parsed);
    if (parsed) expect(got?.body).toEqual(JSON.parse(r.ok ? r.text : ''));
  });

  it('a missing field is the schema’s where the item schema describes no fields', () => {
    expect(run(list, answer(200, page([noFloor])), 'ok', false).found).toEqual([
      ['schema', '/results/0/floor', 'missing'],
    ]);
  });

  it('an item answered alone: a missing field at its top is §2.2 rule 1', () => {
    expect(run(detail, answer(200, noFloor), 'ok').found).toEqual([['item.fields', '/floor', 'missing']]);
    expect(run(detail, answer(404, { detail: 'x' }), 'declared').found).toEqual([]);
  });

  it('a status declared without a body: nothing to parse, nothing reported', () => {
    const write = contract.operations.writes.find((w) => w.path === detail.path && w.method === 'DELETE');
    if (!write) throw new Error('the bundled spec declares DELETE on a desk');
    const findings = new Findings(new Redactor([]), detail);
    const op = { ...write, kind: 'detail' as const };
    const got = checkAnswer({ contract, findings, op, itemFieldsRule: true }, 'u', answer(204, ''), 'declared');
    expect([got?.parsed, findings.violations]).toEqual([false, []]);
  });
});
