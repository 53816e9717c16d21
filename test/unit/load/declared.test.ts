import { describe, expect, it } from 'vitest';
import { generatedBodies } from '../../../src/load/declared.js';
import { ContractAjv } from '../../../src/openapi/ajv.js';
import { readOperations } from '../../../src/openapi/operations.js';
import { smallSpec } from './helpers.js';

const json = (schema: unknown) => ({ description: 'd', content: { 'application/json': { schema } } });
const Problem = { type: 'object', required: ['detail'], properties: { detail: { type: 'string', minLength: 1 } } };
const Secret = {
  type: 'object',
  required: ['name', 'token'],
  properties: { name: { type: 'string', minLength: 1 }, token: { type: 'string', writeOnly: true } },
};
const DOC = smallSpec(
  { thing: { item: { type: 'object', required: ['pk'], properties: { pk: { type: 'integer' } } } } },
  {
    paths: {
      '/api/v1/me': {
        get: {
          operationId: 'me',
          responses: {
            '200': json({ $ref: '#/components/schemas/Secret' }),
            '403': json({ $ref: '#/components/schemas/Problem' }),
            '404': { ...json(Problem), content: { 'application/json': { schema: Problem, example: { detail: 'x' } } } },
            '410': { description: 'no content' },
          },
        },
      },
    },
    schemas: { Problem, Secret },
  },
);
// The collection's item path gets a 404 of its own.
const itemPath = (DOC.paths as Record<string, { get: { responses: Record<string, unknown> } } | undefined>)[
  '/api/v1/thing/{pk}'
];
if (itemPath) itemPath.get.responses['404'] = json({ $ref: '#/components/schemas/Problem' });
const { operations } = readOperations(DOC, 'openapi.json');
const ME = '#/paths/~1api~1v1~1me/get';
const THING = '#/paths/~1api~1v1~1thing~1{pk}/get';

describe('generatedBodies: a body for each declared answer that has a schema but no example', () => {
  const bodies = generatedBodies(DOC, operations, 1);

  it('by `<operation pointer> <status>`: not a collection’s own 200, not an answer with an example or no schema', () => {
    expect(Object.keys(bodies).sort()).toEqual([`${ME} 200`, `${ME} 403`, `${THING} 404`].sort());
  });

  it.each<[string, string, string]>([
    [`${ME} 200`, '#/components/schemas/Secret', 'a view’s success'],
    [`${ME} 403`, '#/components/schemas/Problem', 'an error'],
    [`${THING} 404`, '#/components/schemas/Problem', 'an error of an item path'],
  ])('%s: valid against its schema (%s), %s', (key, pointer) => {
    expect(new ContractAjv(DOC).validate(pointer, bodies[key])).toEqual([]);
  });

  it('as an answer holds it: no writeOnly member', () => {
    expect(Object.keys(bodies[`${ME} 200`] as object)).toEqual(['name']);
  });

  it('the same seed, the same bodies; another seed, others', () => {
    expect(generatedBodies(DOC, operations, 1)).toEqual(bodies);
    expect(generatedBodies(DOC, operations, 2)).not.toEqual(bodies);
  });
});
