import { describe, expect, it } from 'vitest';
import { ContractAjv } from '../../../src/openapi/ajv.js';
import { writeOnlyFields } from '../../../src/openapi/item-schema.js';
import { responseView, withoutWriteOnly } from '../../../src/openapi/response-view.js';

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
