import { describe, expect, it } from 'vitest';
import type { CollectionModel } from '../../../../src/core/model.js';
import { parseQuery } from '../../../../src/core/python/query.js';
import {
  impossible,
  NO_SCENARIO,
  parseScenario,
  type Scenario,
  SCENARIO_HELP,
  scenarioItems,
  withoutScenarioParams,
} from '../../../../src/core/stub/scenarios.js';
import { EMPTY_SET, type ItemSet } from '../../../../src/core/prepared-items.js';
import { tinyModel } from '../tiny-model.js';

const scenario = (s: Partial<Scenario>): Scenario => ({ ...NO_SCENARIO, ...s });

describe('what a request asks of the stub: Prefer, or the __ parameters', () => {
  it.each<[string, string | string[] | undefined, string, Scenario]>([
    ['nothing', undefined, '', NO_SCENARIO],
    ['other preferences only', 'return=minimal, respond-async', '', NO_SCENARIO],
    ['a code', 'code=404', '', scenario({ code: 404 })],
    [
      'every preference',
      'code=200, example=two, delay=250, empty=false',
      '',
      scenario({ code: 200, example: 'two', delayMs: 250 }),
    ],
    [
      'names in any case, spaces around, a quoted value',
      ' Code = 500 ,EXAMPLE="a b"',
      '',
      scenario({ code: 500, example: 'a b' }),
    ],
    ['a value with =', 'example=a=b', '', scenario({ example: 'a=b' })],
    ['a flag without a value is true', 'dynamic', '', scenario({ dynamic: true })],
    ['empty=true', 'empty=true', '', scenario({ empty: true })],
    ['several headers, joined', ['code=404', 'delay=5'], '', scenario({ code: 404, delayMs: 5 })],
    ['the query form', undefined, '__code=503&__delay=0&__example=x', scenario({ code: 503, example: 'x' })],
    ['the query wins over the header', 'code=404, empty=true', '__code=500&__empty=false', scenario({ code: 500 })],
    ['the last of a repeated parameter', undefined, '__code=404&__code=201', scenario({ code: 201 })],
    ['a delay at the bound', 'delay=1000', '', scenario({ delayMs: 1000 })],
  ])('%s', (_name, prefer, query, want) => {
    expect(parseScenario(prefer, parseQuery(query), 1000)).toEqual({ ok: true, scenario: want });
  });

  // RFC 7240 §2: "If any preference is specified more than once, only the first instance is to be
  // considered." The stub takes the last. Recorded; fails until parsePrefer keeps the first.
  it('the first of a repeated preference (RFC 7240, section 2)', () => {
    expect(parseScenario('code=404, code=500', new Map(), 1000)).toEqual({
      ok: true,
      scenario: scenario({ code: 404 }),
    });
  });

  it.each<[string, string, string, string[]]>([
    ['a code that is no status', 'code=99', '', ['code must be an HTTP status such as 404 (got "99")']],
    ['a code past 599', 'code=600', '', ['code must be an HTTP status such as 404 (got "600")']],
    ['a code with a sign', '', '__code=%2B404', ['code must be an HTTP status such as 404 (got "+404")']],
    [
      'a delay past the bound',
      'delay=1001',
      '',
      ['delay must be a whole number of milliseconds from 0 to 1000 (got "1001")'],
    ],
    ['a negative delay', 'delay=-1', '', ['delay must be a whole number of milliseconds from 0 to 1000 (got "-1")']],
    [
      'a fractional delay',
      'delay=1.5',
      '',
      ['delay must be a whole number of milliseconds from 0 to 1000 (got "1.5")'],
    ],
    ['an example without a name', 'example=', '', ['example must name an example']],
    ['a flag neither true nor false', 'dynamic=yes', '', ['dynamic must be true or false (got "yes")']],
    [
      'a long value cut at 40 characters',
      `empty=${'x'.repeat(50)}`,
      '',
      [`empty must be true or false (got "${'x'.repeat(40)}")`],
    ],
    ['dynamic and empty', 'dynamic=true, empty=true', '', ['dynamic and empty exclude each other']],
    [
      'every problem, not the first',
      'code=abc, delay=x, empty=maybe',
      '',
      [
        'code must be an HTTP status such as 404 (got "abc")',
        'delay must be a whole number of milliseconds from 0 to 1000 (got "x")',
        'empty must be true or false (got "maybe")',
      ],
    ],
  ])('refused: %s', (_name, prefer, query, problems) => {
    expect(parseScenario(prefer, parseQuery(query), 1000)).toEqual({ ok: false, problems });
  });
});

describe('an impossible scenario', () => {
  it("is the stub's own 400, naming what is available (by default, how to ask)", () => {
    const a = impossible('listThings declares no 418 response', { codes: ['200'] });
    expect([a.status, a.headers['content-type']]).toEqual([400, 'application/problem+json']);
    expect(JSON.parse(a.body)).toEqual({
      type: 'about:blank',
      title: 'Impossible scenario',
      status: 400,
      detail: 'listThings declares no 418 response',
      available: { codes: ['200'] },
    });
    expect(JSON.parse(impossible('x').body).available).toEqual({
      prefer: 'Prefer: code=<status>, example=<name>, dynamic=true, empty=true, delay=<ms>',
      query: '__code, __example, __dynamic, __empty, __delay',
    });
    expect(Object.isFrozen(SCENARIO_HELP)).toBe(true);
  });
});

describe('the items a scenario asks for', () => {
  const model = tinyModel();
  const things = model.collections.get('/api/v1/thing') as CollectionModel;
  const sorted = model.collections.get('/api/v1/sorted') as CollectionModel;
  const own = things.items;
  const jsons = (r: ItemSet | { body: string }) => ('items' in r ? r.items.map((i) => i.pk) : JSON.parse(r.body));
  it.each<[string, CollectionModel, Partial<Scenario>, unknown]>([
    ['none: the collection as it is', things, {}, ['1', '2', '10']],
    ['empty', things, { empty: true }, []],
    ['a code alone changes no item', things, { code: 404 }, ['1', '2', '10']],
    ['dynamic', things, { dynamic: true }, ['100']],
    ['a named example', things, { example: 'two' }, ['7', '8']],
    [
      'an example the 200 answer does not have',
      things,
      { example: 'three' },
      {
        type: 'about:blank',
        title: 'Impossible scenario',
        status: 400,
        detail: 'the 200 response of listThings has no example "three"',
        available: { examples: ['two', 'none'] },
      },
    ],
    [
      'dynamic without generated items',
      sorted,
      { dynamic: true },
      {
        type: 'about:blank',
        title: 'Impossible scenario',
        status: 400,
        detail: 'listSorted: its item schema describes no field to generate from',
        available: SCENARIO_HELP,
      },
    ],
  ])('%s', (_name, collection, s, want) => {
    const set = collection === things ? own : collection.items;
    expect(jsons(scenarioItems(collection, set, collection.list, scenario(s)))).toEqual(want);
  });

  it('the set given back as it is, and the one empty set', () => {
    expect(scenarioItems(things, own, things.list, NO_SCENARIO)).toBe(own);
    expect(scenarioItems(things, own, things.list, scenario({ empty: true }))).toBe(EMPTY_SET);
  });
});

describe('the query of pagination links', () => {
  it.each<[string, string, string[]]>([
    ['no scenario parameter: the same query', 'page=2&q=a', ['page', 'q']],
    [
      'each scenario parameter left out',
      '__code=200&page=2&__delay=1&__example=x&__dynamic=&__empty=&q=a',
      ['page', 'q'],
    ],
    ['an unknown __ parameter kept', '__other=1&__code=2', ['__other']],
  ])('%s', (_name, query, keys) => {
    const q = parseQuery(query);
    const out = withoutScenarioParams(q);
    expect([...out.keys()]).toEqual(keys);
    expect(out === q).toBe(!query.includes('__code'));
  });
});
