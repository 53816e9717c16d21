import { describe, expect, it } from 'vitest';
import { Findings } from '../../../../src/contract/findings.js';
import type { Fetched } from '../../../../src/contract/http.js';
import { proxyRules, route, validateAnswer } from '../../../../src/contract/proxy/validate.js';
import { Redactor } from '../../../../src/contract/redact.js';
import { BaseScope } from '../../../../src/contract/scope.js';
import { answer, BASE, bundledContract, desk, DESKS, failure } from '../fake-deployment.js';

const contract = await bundledContract();

describe('route: the operation a proxied path addresses', () => {
  it.each<[string, string | undefined, boolean | undefined]>([
    [DESKS, DESKS, false],
    [`${DESKS}/12`, DESKS, true],
    [`${DESKS}/abc`, DESKS, true],
    [`${DESKS}/`, undefined, undefined],
    [`${DESKS}/12/`, undefined, undefined],
    [`${DESKS}/1/2`, undefined, undefined],
    ['/api/v1/employee/3', '/api/v1/employee', true],
    ['/api/v1/nosuch', undefined, undefined],
  ])('%s', (path, list, isDetail) => {
    const r = route(contract, path);
    expect([r?.list.path, r?.isDetail]).toEqual([list, isDetail]);
    if (r?.isDetail) expect(r.detail?.path).toBe(`${list}/{pk}`);
  });
});

describe('proxyRules: what one answer of a route can show', () => {
  it.each<[string, string[], string[]]>([
    [
      DESKS,
      [
        'envelope.empty',
        'envelope.single-page',
        'envelope.first-previous',
        'item.fields',
        'item-url.shape',
        'item-url.pk',
      ],
      ['envelope.count-reached', 'envelope.next-loop'],
    ],
    [`${DESKS}/1`, ['urls.base', 'item.fields', 'item-url.shape', 'probe.method-not-allowed'], ['envelope.empty']],
    ['/api/v1/employee', ['envelope.empty', 'urls.base'], ['item.fields', 'item-url.shape']],
  ])('%s', (path, has, hasNot) => {
    const rules = proxyRules(contract, route(contract, path) as NonNullable<ReturnType<typeof route>>);
    expect(rules.slice(0, 6)).toEqual(['transport', 'answer.size', 'status', 'content-type', 'json', 'schema']);
    expect(rules).toEqual(expect.arrayContaining(has));
    for (const r of hasNot) expect(rules).not.toContain(r);
  });
});

describe('validateAnswer: one upstream answer held to the checker’s rules', () => {
  const page = (over: object = {}) => ({ count: 1, next: null, previous: null, results: [desk(1)], ...over });
  it.each<[string, string, string, Fetched, string[][]]>([
    ['a page that keeps the rules', 'GET', `${DESKS}?format=api`, answer(200, page()), []],
    [
      'a first page with previous',
      'GET',
      `${DESKS}?format=api`,
      answer(200, page({ previous: `${BASE}${DESKS}` })),
      [['envelope.first-previous', '/previous']],
    ],
    [
      'page 2 with previous',
      'GET',
      `${DESKS}?format=api&page=2`,
      answer(200, page({ previous: `${BASE}${DESKS}` })),
      [],
    ],
    [
      'an item url of another format than asked',
      'GET',
      `${DESKS}?format=json`,
      answer(200, page()),
      [['item-url.shape', '/results/0/url']],
    ],
    [
      'an item url whose pk is not the item’s',
      'GET',
      `${DESKS}/1?format=api`,
      answer(200, { ...desk(1), pk: 2 }),
      [['item-url.pk', '/url']],
    ],
    ['an item answered as a list', 'GET', `${DESKS}/1?format=api`, answer(200, [desk(1)]), [['schema', '']]],
    [
      'an error the spec declares',
      'GET',
      `${DESKS}/9?format=api`,
      answer(404, { detail: 'No Desk matches the given query.' }),
      [],
    ],
    [
      'a status the spec does not declare',
      'GET',
      DESKS,
      answer(500, 'boom', { 'content-type': 'text/html' }),
      [['status', '']],
    ],
    ['no answer', 'GET', DESKS, failure('ECONNRESET'), [['transport', '']]],
    ['a declared write is the spec’s, not checked here', 'POST', DESKS, answer(500, 'boom'), []],
    ['an undeclared write accepted', 'PUT', DESKS, answer(200, {}), [['probe.method-not-allowed', '']]],
    [
      'an undeclared write refused without Allow: GET',
      'PUT',
      DESKS,
      answer(405, {}, { allow: 'POST' }),
      [['probe.method-not-allowed', 'Allow']],
    ],
    [
      'an undeclared write refused as it should be',
      'PUT',
      DESKS,
      answer(405, {}, { allow: 'GET, POST, HEAD, OPTIONS' }),
      [],
    ],
    ['an undeclared write without an answer', 'PATCH', DESKS, failure('TOO_LARGE'), [['answer.size', '']]],
    ['OPTIONS is not checked', 'OPTIONS', DESKS, answer(500, 'x'), []],
    ['HEAD with a declared status', 'HEAD', DESKS, answer(200, ''), []],
    ['HEAD with a status not declared', 'HEAD', DESKS, answer(418, ''), [['status', '']]],
    ['HEAD without an answer', 'HEAD', DESKS, failure('ECONNRESET'), [['transport', '']]],
  ])('%s', (_name, method, target, r, want) => {
    const url = new URL(`${BASE}${target}`);
    const routed = route(contract, url.pathname) as NonNullable<ReturnType<typeof route>>;
    const findings = new Findings(new Redactor([]), routed.list);
    validateAnswer(contract, new BaseScope(BASE), findings, routed, method, url, r);
    expect(findings.violations.map((v) => [v.rule, v.pointer])).toEqual(want);
  });
});
