import { describe, expect, it } from 'vitest';
import { ContractAjv } from '../../../src/openapi/ajv.js';
import { writeOnlyFields } from '../../../src/openapi/item-schema.js';
import { NEVER_ANSWERED, responseView, withoutWriteOnly, writeOnlyNames } from '../../../src/openapi/response-view.js';

// A `writeOnly` property (DRF's write_only=True) is accepted in a request and never in an answer:
// the response view names them, takes them out of `required` and out of generated values, and the
// contract's Ajv (which checks answers against the view) refuses one that is there.

const doc = {
  openapi: '3.1.0',
  components: {
    schemas: {
      Secret: { type: 'string', writeOnly: true, minLength: 4 },
      Base: {
        type: 'object',
        required: ['name', 'password'],
        properties: { name: { type: 'string' }, password: { type: 'string', writeOnly: true } },
      },
      ByRef: {
        type: 'object',
        required: ['pin', 'name'],
        properties: { pin: { $ref: '#/components/schemas/Secret' }, name: { type: 'string' } },
      },
      Composed: {
        allOf: [
          { $ref: '#/components/schemas/Base' },
          {
            type: 'object',
            required: ['password', 'token', 'note'],
            properties: { token: { type: 'string', writeOnly: true }, note: { type: 'string' } },
          },
        ],
      },
      Nested: { type: 'object', required: ['inner'], properties: { inner: { $ref: '#/components/schemas/Base' } } },
      // writeOnly beside a $ref; requireds in oneOf and dependentRequired naming the parent's.
      Either: {
        type: 'object',
        properties: {
          code: { $ref: '#/components/schemas/Plain', writeOnly: true },
          token: { type: 'string', writeOnly: true },
          name: { type: 'string' },
        },
        oneOf: [{ required: ['code'] }, { required: ['token', 'name'] }],
        dependentRequired: { name: ['token', 'code'] },
      },
      Plain: { type: 'string' },
      // A cycle through allOf.
      Loop: {
        allOf: [
          { $ref: '#/components/schemas/Loop' },
          { $ref: '#/components/schemas/Loop' },
          { type: 'object', required: ['p'], properties: { p: { type: 'string', writeOnly: true } } },
        ],
      },
    },
  },
};

describe("an answer's view of the document: no writeOnly property is required", () => {
  it('is the document itself when nothing is writeOnly', () => {
    const plain = {
      openapi: '3.1.0',
      components: { schemas: { A: { type: 'object', required: ['a'], properties: { a: { type: 'string' } } } } },
    };
    expect(responseView(plain, false)).toBe(plain);
  });

  it('takes writeOnly names out of required: beside it, through $ref, across allOf members; the rest stays, the document unchanged', () => {
    const before = JSON.stringify(doc);
    const view = responseView(doc, true) as typeof doc;
    expect(JSON.stringify(doc)).toBe(before);
    expect(view.components.schemas.Base.required).toEqual(['name']);
    expect(view.components.schemas.ByRef.required).toEqual(['name']);
    expect((view.components.schemas.Composed.allOf[1] as { required: string[] }).required).toEqual(['note']);
    expect(view.components.schemas.Nested.required).toEqual(['inner']);
    expect(view.components.schemas.Either.oneOf).toEqual([{ required: [] }, { required: ['name'] }]);
    expect(view.components.schemas.Either.dependentRequired).toEqual({ name: [] });
    expect((view.components.schemas.Loop.allOf[2] as { required: string[] }).required).toEqual([]);
  });

  it("the contract's Ajv: an answer without them passes, one that has them is a violation there, a missing plain member still fails", () => {
    const ajv = new ContractAjv(doc);
    expect(ajv.validate('#/components/schemas/Base', { name: 'a' })).toEqual([]);
    expect(ajv.validate('#/components/schemas/Composed', { name: 'a', note: 'n' })).toEqual([]);
    expect(ajv.validate('#/components/schemas/Nested', { inner: { name: 'a' } })).toEqual([]);
    const leaked = ajv.validate('#/components/schemas/ByRef', { name: 'a', pin: 'xyzw' });
    expect(leaked.map((v) => [v.pointer, v.message])).toEqual([
      ['/pin', 'is writeOnly in the spec: never in an answer (DRF never represents a write_only field)'],
    ]);
    expect(
      ajv.validate('#/components/schemas/Nested', { inner: { name: 'a', password: 'p' } }).map((v) => v.pointer),
    ).toEqual(['/inner/password']);
    expect(
      ajv.validate('#/components/schemas/Composed', { name: 'a', note: 'n', token: 't' }).map((v) => v.pointer),
    ).toEqual(['/token']);
    expect(ajv.validate('#/components/schemas/Base', {}).map((v) => v.message)).toEqual([
      "must have required property 'name'",
    ]);
    expect(ajv.validate('#/components/schemas/Composed', { name: 'a' }).map((v) => v.message)).toEqual([
      "must have required property 'note'",
    ]);
    expect(ajv.validate('#/components/schemas/Either', {})).toEqual([]);
  });
});

describe('the writeOnly fields of an item schema', () => {
  it('names them through $ref and allOf', () => {
    expect(writeOnlyFields(doc, '#/components/schemas/Composed')).toEqual(['password', 'token']);
    expect(writeOnlyFields(doc, '#/components/schemas/ByRef')).toEqual(['pin']);
    expect(writeOnlyFields(doc, '#/components/schemas/Nested')).toEqual([]);
    expect(writeOnlyFields(doc, '#/components/schemas/Either')).toEqual(['code', 'token']);
  });
});

describe('what the stub generates holds no writeOnly member, at any depth', () => {
  it('withoutWriteOnly: nested objects, arrays, allOf; an object that loses nothing is the same object', () => {
    const list = { type: 'array', items: { $ref: '#/components/schemas/Base' } };
    expect(
      withoutWriteOnly(doc, { $ref: '#/components/schemas/Nested' }, { inner: { name: 'a', password: 'p' }, x: 1 }),
    ).toEqual({ inner: { name: 'a' }, x: 1 });
    expect(withoutWriteOnly(doc, list, [{ name: 'a', password: 'p' }, { name: 'b' }])).toEqual([
      { name: 'a' },
      { name: 'b' },
    ]);
    expect(
      withoutWriteOnly(
        doc,
        { $ref: '#/components/schemas/Composed' },
        { name: 'a', password: 'p', token: 't', note: 'n' },
      ),
    ).toEqual({ name: 'a', note: 'n' });
    const clean = { inner: { name: 'a' } };
    expect(withoutWriteOnly(doc, { $ref: '#/components/schemas/Nested' }, clean)).toBe(clean);
  });
});

const hidden = { writeOnly: true, [NEVER_ANSWERED]: true };
const str = { type: 'string' };
const secret = { type: 'string', writeOnly: true };

describe('responseView, case by case: the document an answer is checked against', () => {
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
    const given = { components: { schemas } };
    const before = JSON.stringify(given);
    expect(responseView(given, true)).toEqual({ components: { schemas: want } });
    // A copy: the bundled document is unchanged.
    expect(JSON.stringify(given)).toBe(before);
  });
});

describe('writeOnlyNames: the writeOnly properties a schema declares', () => {
  const named = {
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
    expect([...writeOnlyNames(named, schema)]).toEqual(want);
  });
});

describe('withoutWriteOnly, case by case: a value as an answer holds it', () => {
  const users = {
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
    expect(withoutWriteOnly(users, schema, value)).toEqual(want);
  });

  it('a value that loses nothing is the same value, at every depth', () => {
    const value = { name: 'a', pets: [{ kind: 'cat' }] };
    expect(withoutWriteOnly(users, user, value)).toBe(value);
    const changed = withoutWriteOnly(users, user, { name: 'a', pw: 'x', pets: value.pets }) as typeof value;
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
