import { describe, expect, it } from 'vitest';
import { parseQuery } from '../../../src/core/python/query.js';
import { queryValidator } from '../../../src/server/request-validation.js';
import { fixtureState } from './state-fixtures.js';

const state = await fixtureState('designer');
const desks = state.model.operations.lists.find((l) => l.path === '/api/v1/desk');
if (!desks) throw new Error('the designer spec has desks');

describe('queryValidator: --validate-requests, the declared query parameters against their schemas', () => {
  const validate = queryValidator(state);
  it.each<[string, string, { location: string; message: string }[]]>([
    ['no parameter', '', []],
    ['values coerced to their declared types', 'floor=3&active=true&page_size=50&ordering=-floor', []],
    ['not an integer', 'floor=abc', [{ location: 'query.floor', message: 'must be integer' }]],
    ['not a boolean', 'active=maybe', [{ location: 'query.active', message: 'must be boolean' }]],
    [
      'outside an enum: the values allowed',
      'ordering=colour',
      [
        {
          location: 'query.ordering',
          message: 'must be equal to one of the allowed values: ["floor","-floor","number","-number","pk","-pk"]',
        },
      ],
    ],
    ['above its maximum', 'page_size=51', [{ location: 'query.page_size', message: 'must be <= 50' }]],
    [
      'every violation, not the first',
      'floor=x&active=y',
      [
        { location: 'query.floor', message: 'must be integer' },
        { location: 'query.active', message: 'must be boolean' },
      ],
    ],
    ['a parameter the spec does not declare is ignored, as DRF ignores it', 'nope=%%%&limit=x', []],
    ['a repeated parameter: its last value counts, as Django’s QueryDict', 'floor=x&floor=2', []],
  ])('%s', (_name, query, want) => {
    expect(validate(desks, parseQuery(query))).toEqual(want);
  });

  it('compiles once per operation and answers alike each time', () => {
    const q = parseQuery('floor=abc');
    expect(validate(desks, q)).toEqual(validate(desks, q));
  });
});
