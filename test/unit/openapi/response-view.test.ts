import { describe, expect, it } from 'vitest';
import { NEVER_ANSWERED, responseView, withoutWriteOnly, writeOnlyNames } from '../../../src/openapi/response-view.js';

const hidden = { writeOnly: true, [NEVER_ANSWERED]: true };
const str = { type: 'string' };
const secret = { type: 'string', writeOnly: true };

describe('responseView: the document an answer is checked against', () => {
  it('is the document itself when nothing is writeOnly', () => {
    const doc = { components: { schemas: { A: { required: ['a'], properties: { a: str } } } } };
    expect(responseView(doc, false)).toBe(doc);
  });

  it.each<[string, Record<string, unknown>, Record<string, unknown>]>([
    [
      'a writeOnly property: its schema never answered, its name out of required',
      { S: { type: 'object', required: ['a', 'p'], properties: { a: str, p: secret } } },
      { S: { type: 'object', required: ['a'], properties: { a: str, p: hidden } } },
    ],
    [
      'writeOnly beside a $ref, or at the $ref’s target',
      {
        S: {
          required: ['p', 'q', 'a'],
          properties: {
            p: { $ref: '#/components/schemas/T', writeOnly: true },
            q: { $ref: '#/components/schemas/W' },
            a: str,
          },
        },
        T: str,
        W: secret,
      },
      {
        S: { required: ['a'], properties: { p: hidden, q: hidden, a: str } },
        T: str,
        W: secret,
      },
    ],
    [
      'a required beside an allOf whose member declares the writeOnly property',
      { S: { required: ['p', 'a'], allOf: [{ properties: { p: secret } }, { properties: { a: str } }] } },
      { S: { required: ['a'], allOf: [{ properties: { p: hidden } }, { properties: { a: str } }] } },
    ],
    [
      'inline alternatives (oneOf, if/then) lose the name too; dependentRequired as well',
      {
        S: {
          properties: { p: secret, t: str },
          oneOf: [{ required: ['p'] }, { required: ['t'] }],
          if: { required: ['t'] },
          then: { required: ['p', 't'] },
          dependentRequired: { t: ['p'] },
        },
      },
      {
        S: {
          properties: { p: hidden, t: str },
          oneOf: [{ required: [] }, { required: ['t'] }],
          if: { required: ['t'] },
          then: { required: ['t'] },
          dependentRequired: { t: [] },
        },
      },
    ],
    [
      'a subschema reached by $ref keeps its own required (it is shared)',
      {
        S: { properties: { p: secret }, anyOf: [{ $ref: '#/components/schemas/R' }] },
        R: { required: ['p'] },
      },
      {
        S: { properties: { p: hidden }, anyOf: [{ $ref: '#/components/schemas/R' }] },
        R: { required: ['p'] },
      },
    ],
  ])('%s', (_name, schemas, want) => {
    const doc = { components: { schemas } };
    const before = JSON.stringify(doc);
    expect(responseView(doc, true)).toEqual({ components: { schemas: want } });
    // A copy: the bundled document is unchanged.
    expect(JSON.stringify(doc)).toBe(before);
  });
});

describe('writeOnlyNames: the writeOnly properties a schema declares', () => {
  const doc = {
    components: {
      schemas: {
        Base: { properties: { token: secret, id: str } },
        Item: { allOf: [{ $ref: '#/components/schemas/Base' }, { properties: { pw: secret, name: str } }] },
        Loop: { allOf: [{ $ref: '#/components/schemas/Loop' }], properties: { k: secret } },
        Ref: { $ref: '#/components/schemas/Item' },
      },
    },
  };
  it.each<[string, unknown, string[]]>([
    ['through allOf and $ref, in order', { $ref: '#/components/schemas/Item' }, ['token', 'pw']],
    ['through a chain of $refs', { $ref: '#/components/schemas/Ref' }, ['token', 'pw']],
    ['a cycle of allOf: each schema once', { $ref: '#/components/schemas/Loop' }, ['k']],
    ['none', { properties: { a: str } }, []],
    ['a dangling $ref', { $ref: '#/nowhere' }, []],
    ['an external $ref', { $ref: 'other.yaml#/S' }, []],
    ['not a schema', 'text', []],
  ])('%s', (_name, schema, want) => {
    expect([...writeOnlyNames(doc, schema, new Set())]).toEqual(want);
  });
});

describe('withoutWriteOnly: a value as an answer holds it', () => {
  const doc = {
    components: {
      schemas: {
        User: {
          allOf: [{ $ref: '#/components/schemas/Base' }],
          properties: { name: str, pw: secret, pets: { type: 'array', items: { $ref: '#/components/schemas/Pet' } } },
        },
        Base: { properties: { token: secret } },
        Pet: { properties: { chip: { $ref: '#/components/schemas/Chip' }, kind: str } },
        Chip: { type: 'string', writeOnly: true },
        Pets: { allOf: [{ type: 'array' }, { items: { $ref: '#/components/schemas/Pet' } }] },
      },
    },
  };
  const user = { $ref: '#/components/schemas/User' };
  it.each<[string, unknown, unknown, unknown]>([
    [
      'members at any depth: own, from allOf, in array items',
      user,
      { name: 'a', pw: 'x', token: 't', pets: [{ kind: 'cat', chip: 'c' }, { kind: 'dog' }], extra: 1 },
      { name: 'a', pets: [{ kind: 'cat' }, { kind: 'dog' }], extra: 1 },
    ],
    [
      'an array whose items are in an allOf member',
      { $ref: '#/components/schemas/Pets' },
      [{ kind: 'cat', chip: 'c' }],
      [{ kind: 'cat' }],
    ],
    ['a scalar', user, 'text', 'text'],
    ['null', user, null, null],
    ['a schema that is no object: as it is', 'nothing', { pw: 'x' }, { pw: 'x' }],
    ['a dangling $ref: as it is', { $ref: '#/nowhere' }, { pw: 'x' }, { pw: 'x' }],
  ])('%s', (_name, schema, value, want) => {
    expect(withoutWriteOnly(doc, schema, value)).toEqual(want);
  });

  it('a value that loses nothing is the same value, at every depth', () => {
    const value = { name: 'a', pets: [{ kind: 'cat' }] };
    expect(withoutWriteOnly(doc, user, value)).toBe(value);
    const changed = withoutWriteOnly(doc, user, { name: 'a', pw: 'x', pets: value.pets }) as typeof value;
    expect(changed.pets).toBe(value.pets);
  });

  it('past 32 levels the value is left as it is', () => {
    const deep = (n: number): Record<string, unknown> => (n === 0 ? { pw: 'x' } : { next: deep(n - 1) });
    const nested = { properties: { pw: secret, next: { $ref: '#/components/schemas/Nested' } } };
    const d = { components: { schemas: { Nested: nested } } };
    const at = (v: unknown, n: number): unknown => (n === 0 ? v : at((v as { next: unknown }).next, n - 1));
    expect(at(withoutWriteOnly(d, { $ref: '#/components/schemas/Nested' }, deep(32)), 32)).toEqual({});
    expect(at(withoutWriteOnly(d, { $ref: '#/components/schemas/Nested' }, deep(33)), 33)).toEqual({ pw: 'x' });
  });
});
