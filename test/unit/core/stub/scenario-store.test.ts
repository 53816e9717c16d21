import { describe, expect, it } from 'vitest';
import { ScenarioStore } from '../../../../src/core/stub/scenario-store.js';
import { NO_SCENARIO } from '../../../../src/core/stub/scenarios.js';

const knows = (id: string) => ['listThings', 'getThing'].includes(id);
const store = (...rules: unknown[]) => {
  const s = new ScenarioStore();
  for (const r of rules) expect(s.add(r, 1000, knows).ok).toBe(true);
  return s;
};

describe('a scenario rule as sent', () => {
  it.each<[string, unknown, string[]]>([
    ['not an object', [], ['a scenario is a JSON object: {"operationId": …, "prefer": …}']],
    ['null', null, ['a scenario is a JSON object: {"operationId": …, "prefer": …}']],
    ['no target', { prefer: 'code=500' }, ['name an operationId or a path']],
    [
      'both targets',
      { operationId: 'listThings', path: '/api/v1/thing', prefer: 'code=500' },
      ['name an operationId or a path, not both'],
    ],
    ['an unknown operation', { operationId: 'nope', prefer: 'code=500' }, ['the spec declares no operation "nope"']],
    [
      'a method without a path',
      { operationId: 'listThings', method: 'GET', prefer: 'code=500' },
      ['method goes with a path'],
    ],
    [
      'a method no view has',
      { path: '/a', method: 'TRACE', prefer: 'code=500' },
      ['method must be one of GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS'],
    ],
    ['a relative path', { path: 'api/v1/thing', prefer: 'code=500' }, ['path starts with /']],
    [
      'no prefer',
      { operationId: 'listThings' },
      ['prefer is required: what a Prefer header would ask, e.g. "code=500"'],
    ],
    [
      'a prefer the stub cannot do',
      { operationId: 'listThings', prefer: 'code=5000, delay=2000' },
      [
        'code must be an HTTP status such as 404 (got "5000")',
        'delay must be a whole number of milliseconds from 0 to 1000 (got "2000")',
      ],
    ],
    [
      'times not whole',
      { operationId: 'listThings', prefer: 'code=500', times: 1.5 },
      ['times must be a whole number from 1 to 1000000'],
    ],
    [
      'times 0',
      { operationId: 'listThings', prefer: 'code=500', times: 0 },
      ['times must be a whole number from 1 to 1000000'],
    ],
    [
      'times too many',
      { operationId: 'listThings', prefer: 'code=500', times: 1_000_001 },
      ['times must be a whole number from 1 to 1000000'],
    ],
    [
      'texts that are not texts, an unknown member',
      { operationId: 3, path: '', prefer: 'code=500', when: 'now' },
      [
        'unknown member "when" (operationId, path, method, prefer, times)',
        'operationId must be a non-empty string',
        'path must be a non-empty string',
        'name an operationId or a path',
      ],
    ],
  ])('refused: %s', (_name, rule, problems) => {
    const s = new ScenarioStore();
    expect(s.add(rule, 1000, knows)).toEqual({ ok: false, problems });
    expect(s.size).toBe(0);
  });

  it('kept with its parsed scenario, its method upper-cased, listed as sent with what it has left', () => {
    const s = new ScenarioStore();
    const r = s.add(
      { path: '/api/v1/thing/{pk}', method: 'delete', prefer: 'code=404, delay=5', times: 2 },
      1000,
      knows,
    );
    expect(r).toEqual({
      ok: true,
      rule: {
        id: 1,
        path: '/api/v1/thing/{pk}',
        method: 'DELETE',
        prefer: 'code=404, delay=5',
        times: 2,
        scenario: { ...NO_SCENARIO, code: 404, delayMs: 5 },
        remaining: 2,
      },
    });
    s.add({ operationId: 'listThings', prefer: 'empty=true' }, 1000, knows);
    expect(s.list()).toEqual([
      { id: 1, path: '/api/v1/thing/{pk}', method: 'DELETE', prefer: 'code=404, delay=5', times: 2, remaining: 2 },
      { id: 2, operationId: 'listThings', prefer: 'empty=true' },
    ]);
  });

  it('a rule for the same target replaces the one before, with a new id', () => {
    const s = store(
      { operationId: 'listThings', prefer: 'code=500' },
      { path: '/a', prefer: 'code=500' },
      { path: '/a', method: 'GET', prefer: 'code=500' },
      { operationId: 'listThings', prefer: 'code=503' },
    );
    expect(s.list().map((r) => [r.id, r.operationId ?? `${r.method ?? '*'} ${r.path}`, r.prefer])).toEqual([
      [2, '* /a', 'code=500'],
      [3, 'GET /a', 'code=500'],
      [4, 'listThings', 'code=503'],
    ]);
  });
});

describe('the rule a request takes', () => {
  it.each<[string, [string, string, string, string], number | undefined]>([
    ['by operationId', ['listThings', '/api/v1/thing', '/api/v1/thing', 'GET'], 4],
    ['by template, any method', ['destroyThing', '/api/v1/thing/{pk}', '/api/v1/thing/3', 'DELETE'], 1],
    ['by template and method', ['createThing', '/api/v1/thing', '/api/v1/thing', 'POST'], 3],
    ['by the path as sent', ['getRow', '/api/v1/row/{pk}', '/api/v1/row/7', 'GET'], 6],
    ['the latest rule that matches wins', ['getThing', '/api/v1/thing/{pk}', '/api/v1/thing/3', 'GET'], 2],
    ['none for another method', ['updateRow', '/api/v1/row', '/api/v1/row', 'PUT'], undefined],
    ['none for another path', ['x', '/b', '/b', 'GET'], undefined],
  ])('%s', (_name, [operationId, template, path, method], want) => {
    const s = store(
      { path: '/api/v1/thing/{pk}', prefer: 'code=500' },
      { operationId: 'getThing', prefer: 'code=404' },
      { path: '/api/v1/thing', method: 'POST', prefer: 'code=201' },
      { operationId: 'listThings', prefer: 'empty=true' },
      { path: '/api/v1/row', method: 'GET', prefer: 'code=503' },
      { path: '/api/v1/row/7', prefer: 'code=410' },
    );
    expect(s.take(operationId, template, path, method)?.id).toBe(want);
  });

  it('counted: a rule with times applies that many times, then is gone; one without stays', () => {
    const s = store({ operationId: 'getThing', prefer: 'code=404', times: 2 }, { path: '/a', prefer: 'code=500' });
    const take = () => s.take('getThing', '/t/{pk}', '/t/1', 'GET')?.remaining;
    expect([take(), s.list()[0]?.remaining, take(), take(), s.size]).toEqual([1, 1, 0, undefined, 1]);
    for (let i = 0; i < 3; i++) expect(s.take('x', '/a', '/a', 'GET')?.id).toBe(2);
    expect(s.size).toBe(1);
  });
});

describe('rules removed', () => {
  const all = () =>
    store(
      { operationId: 'getThing', prefer: 'code=404' },
      { operationId: 'listThings', prefer: 'code=500' },
      { path: '/a', prefer: 'code=500' },
      { path: '/a', method: 'GET', prefer: 'code=500' },
      { path: '/b', method: 'GET', prefer: 'code=500' },
    );
  it.each<[string, { operationId?: string; path?: string; method?: string }, number, number[]]>([
    ['of an operationId', { operationId: 'getThing' }, 1, [2, 3, 4, 5]],
    ['of a path, every method', { path: '/a' }, 2, [1, 2, 5]],
    ['of a path and a method, any case', { path: '/a', method: 'get' }, 1, [1, 2, 3, 5]],
    ['of a method, any path', { method: 'GET' }, 2, [1, 2, 3]],
    ['none that matches', { operationId: 'nope' }, 0, [1, 2, 3, 4, 5]],
  ])('%s', (_name, target, removed, left) => {
    const s = all();
    expect(s.remove(target)).toBe(removed);
    expect(s.list().map((r) => r.id)).toEqual(left);
  });

  it('every one, by clear', () => {
    const s = all();
    s.clear();
    expect([s.size, s.list()]).toEqual([0, []]);
  });
});
