import { describe, expect, it } from 'vitest';
import {
  buildsUrl,
  describesFields,
  fieldSchema,
  itemFields,
  itemMembers,
  lookupField,
  writeOnlyFields,
} from '../../../src/openapi/item-schema.js';
import type { DetailOperation, ListOperation } from '../../../src/openapi/operations.js';

const S = '#/components/schemas';
const doc = {
  components: {
    schemas: {
      Desk: {
        type: 'object',
        properties: { url: { type: 'string' }, pk: { type: 'integer' }, name: { type: 'string' } },
      },
      Base: { properties: { pk: { $ref: `${S}/Pk` }, owner: { type: 'string', writeOnly: true } } },
      Pk: { type: 'integer', minimum: 1 },
      Composed: {
        allOf: [{ $ref: `${S}/Base` }, { properties: { name: { type: 'string' }, pk: { type: 'string' } } }],
        properties: { code: { type: 'string' } },
      },
      Alias: { $ref: `${S}/Composed` },
      Opaque: { type: 'object' },
      Loop: { allOf: [{ $ref: `${S}/Loop` }] },
      Coded: { properties: { code: { type: 'string' }, id: { type: 'integer' } } },
      Vague: {
        required: ['a'],
        properties: { a: true, b: {} },
        allOf: [{ required: ['b'], properties: { a: { type: 'string' }, b: { type: 'integer' }, c: {} } }],
      },
    },
  },
};

describe('itemFields: the fields an item schema describes, in order', () => {
  it.each<[string, string[]]>([
    ['Desk', ['url', 'pk', 'name']],
    // Its own properties first, then each allOf member's, each name once.
    ['Composed', ['code', 'pk', 'owner', 'name']],
    ['Alias', ['code', 'pk', 'owner', 'name']],
    ['Opaque', []],
    ['Loop', []],
    ['Nowhere', []],
  ])('%s → %j', (name, want) => {
    expect(itemFields(doc, `${S}/${name}`)).toEqual(want);
    expect(describesFields(doc, `${S}/${name}`)).toBe(want.length > 0);
  });
});

describe('fieldSchema: the schema of one member, through $ref and allOf', () => {
  it.each<[string, string, Record<string, unknown>]>([
    ['Desk', 'pk', { type: 'integer' }],
    ['Desk', 'nothing', {}],
    // The first allOf member that declares it, its $ref followed.
    ['Composed', 'pk', { type: 'integer', minimum: 1 }],
    ['Composed', 'code', { type: 'string' }],
    ['Alias', 'name', { type: 'string' }],
    ['Vague', 'a', { type: 'string' }],
    ['Loop', 'pk', {}],
    ['Nowhere', 'pk', {}],
  ])('%s.%s → %j', (name, field, want) => {
    expect(fieldSchema(doc, `${S}/${name}`, field)).toEqual(want);
  });
});

describe('itemMembers: the one reading of an item schema through $ref and allOf', () => {
  it.each<[string, string[], Record<string, unknown>, string[]]>([
    ['Desk', ['url', 'pk', 'name'], { pk: { type: 'integer' } }, []],
    // Each name once, its schema where first described, followed through its $ref.
    ['Composed', ['code', 'pk', 'owner', 'name'], { pk: { type: 'integer', minimum: 1 } }, []],
    // A schema that says nothing (`true`, `{}`) gives way to a later one that says something.
    ['Vague', ['a', 'b', 'c'], { a: { type: 'string' }, b: { type: 'integer' }, c: {} }, ['a', 'b']],
    ['Loop', [], {}, []],
  ])('%s', (name, fields, some, required) => {
    const m = itemMembers(doc, `${S}/${name}`);
    expect(m.fields).toEqual(fields);
    for (const [field, schema] of Object.entries(some)) expect(m.schemas.get(field)).toEqual(schema);
    expect([...m.required]).toEqual(required);
  });
});

describe('writeOnlyFields', () => {
  it.each<[string, string[]]>([
    [`${S}/Composed`, ['owner']],
    [`/components/schemas/Alias`, ['owner']],
    [`${S}/Desk`, []],
  ])('%s → %j', (pointer, want) => {
    expect(writeOnlyFields(doc, pointer)).toEqual(want);
  });
});

describe('buildsUrl and lookupField: how items are addressed', () => {
  const list = (name: string) => ({ itemPointer: `${S}/${name}` }) as ListOperation;
  const detail = { pkParam: 'pk' } as DetailOperation;

  it.each<[string, string, DetailOperation | undefined, boolean]>([
    ['a url member and an item path', 'Desk', detail, true],
    ['a url member, no item path', 'Desk', undefined, false],
    ['no url member', 'Composed', detail, false],
  ])('buildsUrl: %s → %j', (_name, item, d, want) => {
    expect(buildsUrl(doc, list(item), d)).toBe(want);
  });

  it.each<[string, string, string, unknown, string | undefined]>([
    ['the path parameter’s own name, when items carry it', 'Coded', 'code', undefined, 'code'],
    ['else pk', 'Desk', 'slug', undefined, 'pk'],
    ['else id', 'Coded', 'slug', undefined, 'id'],
    ['none', 'Opaque', 'pk', undefined, undefined],
    ['a member of the first item counts as a field', 'Opaque', 'slug', { slug: 'a' }, 'slug'],
    ['a sample that is no object adds nothing', 'Opaque', 'pk', ['pk'], undefined],
  ])('lookupField: %s', (_name, item, pkParam, sample, want) => {
    expect(lookupField(doc, list(item), { pkParam }, sample)).toBe(want);
  });
});
