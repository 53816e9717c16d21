import { describe, expect, it } from 'vitest';
import { generateItemsSync } from '../../../src/load/generate.js';
import { ContractAjv } from '../../../src/openapi/ajv.js';
import type { ListOperation } from '../../../src/openapi/operations.js';

const pk = { type: 'integer', minimum: 1 };
const name = { type: 'string', minLength: 1, maxLength: 8 };

/** A document of the given schemas; the items are `Node`'s. */
const docOf = (schemas: Record<string, unknown>) => ({ components: { schemas } });
const list = { itemPointer: '#/components/schemas/Node' } as ListOperation;

function generated(schemas: Record<string, unknown>, count: number, lookup?: string, seed = 1) {
  return generateItemsSync(docOf(schemas), list, lookup, { seed, count }) as Record<string, unknown>[];
}

describe('generateItemsSync: count items of the item schema, numbered by their lookup field', () => {
  it.each<
    [string, Record<string, unknown>, string | undefined, (items: Record<string, unknown>[]) => unknown, unknown]
  >([
    [
      'an integer pk: 1..count',
      { Node: { type: 'object', required: ['pk', 'name'], properties: { pk, name } } },
      undefined,
      (items) => items.map((i) => i.pk),
      [1, 2, 3, 4],
    ],
    [
      'a string pk: "1".."count"',
      { Node: { type: 'object', required: ['pk'], properties: { pk: { type: 'string' } } } },
      undefined,
      (items) => items.map((i) => i.pk),
      ['1', '2', '3', '4'],
    ],
    [
      'a lookup field of its own (`code`), numbered in its place; pk left as generated',
      {
        Node: {
          type: 'object',
          required: ['code', 'pk'],
          properties: { code: { type: 'integer' }, pk: { type: 'string', const: 'same' } },
        },
      },
      'code',
      (items) => items.map((i) => [i.code, i.pk]),
      [
        [1, 'same'],
        [2, 'same'],
        [3, 'same'],
        [4, 'same'],
      ],
    ],
    [
      'a pk that is a number (not integer): not numbered, as generated',
      { Node: { type: 'object', required: ['pk'], properties: { pk: { type: 'number', minimum: 1000 } } } },
      undefined,
      (items) => items.every((i) => typeof i.pk === 'number' && i.pk >= 1000),
      true,
    ],
    [
      'no pk in the schema: none added',
      { Node: { type: 'object', required: ['name'], properties: { name } } },
      undefined,
      (items) => items.map((i) => Object.keys(i)),
      [['name'], ['name'], ['name'], ['name']],
    ],
    [
      'a url member: left out (the stub builds it per request)',
      {
        Node: {
          type: 'object',
          required: ['url', 'pk'],
          properties: { url: { type: 'string', format: 'uri' }, pk },
        },
      },
      undefined,
      (items) => items.map((i) => Object.keys(i)),
      [['pk'], ['pk'], ['pk'], ['pk']],
    ],
    [
      'a writeOnly member, at any depth: left out (never in an answer)',
      {
        Node: {
          type: 'object',
          required: ['pk', 'password', 'owner'],
          properties: {
            pk,
            password: { type: 'string', writeOnly: true },
            owner: {
              type: 'object',
              required: ['name', 'secret'],
              properties: { name, secret: { type: 'string', writeOnly: true } },
            },
          },
        },
      },
      undefined,
      (items) => items.map((i) => [Object.keys(i), Object.keys(i.owner as object)]),
      Array.from({ length: 4 }, () => [['pk', 'owner'], ['name']]),
    ],
  ])('%s', (_name, schemas, lookup, read, want) => {
    const items = generated(schemas, 4, lookup);
    expect(items).toHaveLength(4);
    expect(read(items)).toEqual(want);
  });

  it('count 0: no item', () => {
    expect(generated({ Node: { type: 'object', required: ['pk'], properties: { pk } } }, 0)).toEqual([]);
  });

  it('the same seed, the same items; another seed, others', () => {
    const schemas = { Node: { type: 'object', required: ['pk', 'name'], properties: { pk, name } } };
    expect(generated(schemas, 10, undefined, 7)).toEqual(generated(schemas, 10, undefined, 7));
    expect(generated(schemas, 10, undefined, 8)).not.toEqual(generated(schemas, 10, undefined, 7));
  });
});

describe('generated items are numbered 1..count by their pk', () => {
  it('also where the pk is declared in a base schema the item composes with allOf', () => {
    const schemas = {
      Base: { type: 'object', required: ['pk'], properties: { pk } },
      Node: {
        allOf: [
          { $ref: '#/components/schemas/Base' },
          { type: 'object', required: ['name'], properties: { name: { type: 'string', minLength: 1 } } },
        ],
      },
    };
    const items = generated(schemas, 25);
    // Every generated item is valid against its schema (the loader would leave out one that is not).
    const ajv = new ContractAjv(docOf(schemas));
    expect(items.flatMap((i) => ajv.validate(list.itemPointer, i))).toEqual([]);
    expect(items.map((i) => (i as { pk: number }).pk)).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
  });
});
