import { setFlagsFromString } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { withHeaders, withMembers } from '../../../src/core/members.js';

setFlagsFromString('--allow-natives-syntax');
const sameMap = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: object, b: object) => boolean;

describe('withMembers: the spread, with one hidden class', () => {
  const base = { 'content-type': 'text/html', vary: 'Accept', allow: 'GET' };

  it.each<[string, object]>([
    ['a member added', { location: '/x' }],
    ['a member replaced keeps its place', { vary: 'Accept, Cookie' }],
    ['both, and undefined kept as a value', { allow: undefined, z: 1, 'content-type': 'application/json' }],
    ['nothing', {}],
  ])('%s: the same members, order and values as { ...base, ...extra }', (_name, extra) => {
    const made = withMembers(base, extra);
    expect(Object.entries(made)).toEqual(Object.entries({ ...base, ...extra }));
    expect(made).not.toBe(base);
    expect(base).toEqual({ 'content-type': 'text/html', vary: 'Accept', allow: 'GET' });
  });

  it('a member named __proto__ (as JSON.parse makes one) stays a member; no prototype is set', () => {
    const parsed = JSON.parse('{"__proto__": {"pk": 99}, "name": "x"}') as object;
    const made = withMembers({ pk: 1 }, parsed) as Record<string, unknown>;
    expect(Object.getPrototypeOf(made)).toBe(Object.prototype);
    expect(Object.hasOwn(made, '__proto__')).toBe(true);
    expect(Object.entries(made)).toEqual(Object.entries({ pk: 1, ...parsed }));
    const first = withMembers(parsed, { pk: 2 }) as Record<string, unknown>;
    expect(Object.getPrototypeOf(first)).toBe(Object.prototype);
  });

  it('gives every result the same hidden class, where the spread gives each its own', () => {
    const mine = Array.from({ length: 40 }, (_, i) => withMembers(base, { location: `/desk/${i}` }));
    const spread = Array.from({ length: 40 }, (_, i) => ({ ...base, location: `/desk/${i}` }));
    expect(sameMap(mine[38] as object, mine[39] as object)).toBe(true);
    expect(sameMap(spread[38] as object, spread[39] as object)).toBe(false);
  });
});

describe('withHeaders: the answer with headers added', () => {
  it('adds and replaces headers in place, keeps the rest of the answer, changes nothing given', () => {
    const answer = { status: 201, headers: { 'content-type': 'application/json', vary: 'Accept' }, body: '{}' };
    const made = withHeaders(answer, { vary: 'Accept, Cookie', location: '/desk/3' });
    expect(made).toEqual({
      status: 201,
      headers: { 'content-type': 'application/json', vary: 'Accept, Cookie', location: '/desk/3' },
      body: '{}',
    });
    expect(Object.keys(made.headers)).toEqual(['content-type', 'vary', 'location']);
    expect(answer.headers).toEqual({ 'content-type': 'application/json', vary: 'Accept' });
  });
});
