import { describe, expect, it } from 'vitest';
import { SchemaInferrer } from '../../../src/contract/infer-schema.js';

const inferred = (...values: unknown[]) => {
  const s = new SchemaInferrer();
  for (const v of values) s.add(v);
  return s.schema();
};

describe('SchemaInferrer: a schema from example values', () => {
  it.each<[string, unknown[], Record<string, unknown>]>([
    ['nothing seen', [], {}],
    ['an integer', [1, 2], { type: 'integer' }],
    ['integer widened to number', [1, 2.5], { type: 'number' }],
    ['null merged in, types in a fixed order', [null, 'x', 3], { type: ['string', 'integer', 'null'] }],
    ['a format every string has', ['2024-01-02', '2025-12-31'], { type: 'string', format: 'date' }],
    ['no format when two differ', ['2024-01-02', 'a@b.org'], { type: 'string' }],
    ['no format when one has none', ['a@b.org', 'plain'], { type: 'string' }],
    ['date-time', ['2024-01-02T03:04:05Z'], { type: 'string', format: 'date-time' }],
    ['uuid', ['123e4567-e89b-12d3-a456-426614174000'], { type: 'string', format: 'uuid' }],
    ['uri', ['https://h/x'], { type: 'string', format: 'uri' }],
    ['time', ['10:00:00'], { type: 'string', format: 'time' }],
    ['an array of items', [[1], [2, 3]], { type: 'array', items: { type: 'integer' } }],
    ['empty arrays only: no items', [[], []], { type: 'array' }],
    [
      'required: members every object had',
      [
        { pk: 1, name: 'a' },
        { pk: 2, name: null, extra: true },
      ],
      {
        type: 'object',
        required: ['pk', 'name'],
        properties: { pk: { type: 'integer' }, name: { type: ['string', 'null'] }, extra: { type: 'boolean' } },
      },
    ],
    ['an object with no member', [{}], { type: 'object', properties: {} }],
  ])('%s', (_name, values, want) => {
    expect(inferred(...values)).toEqual(want);
  });

  it('counts values and lists member names', () => {
    const s = new SchemaInferrer();
    s.add({ a: 1 });
    s.add({ b: 2 });
    expect([s.count, s.fields]).toEqual([2, ['a', 'b']]);
  });

  it(`lists at most ${SchemaInferrer.MAX_PROPERTIES} members, and says so`, () => {
    const s = new SchemaInferrer();
    s.add(Object.fromEntries(Array.from({ length: SchemaInferrer.MAX_PROPERTIES + 5 }, (_, i) => [`m${i}`, i])));
    const schema = s.schema() as { properties: object; description?: string };
    expect(Object.keys(schema.properties)).toHaveLength(SchemaInferrer.MAX_PROPERTIES);
    expect(schema.description).toMatch(/more than 500 members/);
  });
});
