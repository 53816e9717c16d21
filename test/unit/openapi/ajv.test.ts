import { describe, expect, it } from 'vitest';
import {
  ContractAjv,
  contractAjv,
  describeViolation,
  formatCheck,
  type SchemaViolation,
} from '../../../src/openapi/ajv.js';

const S = '#/components/schemas';
const doc = {
  openapi: '3.1.0',
  info: { title: 't', version: '1' },
  components: {
    schemas: {
      Desk: {
        type: 'object',
        required: ['pk', 'building'],
        properties: {
          pk: { type: 'integer' },
          building: { enum: ['S', 'P'], 'x-enum-descriptions': ['Schaefers', 'Park Place'] },
          url: { type: 'string', format: 'uri' },
          floor: { type: 'integer', default: 1 },
          badge: { type: 'string', format: 'badge-code' },
          password: { type: 'string', writeOnly: true },
        },
        additionalProperties: false,
        example: { pk: 1, building: 'S' },
        discriminator: { propertyName: 'building' },
      },
    },
  },
};

/** Violations as `pointer keyword: message`. */
const told = (vs: SchemaViolation[]) => vs.map((v) => `${v.pointer} ${v.keyword}: ${v.message}`);

describe("ContractAjv.validate: every violation of a value, by the contract's Ajv", () => {
  const ajv = new ContractAjv(doc);
  it.each<[string, unknown, string[]]>([
    ['a valid desk', { pk: 1, building: 'S' }, []],
    ['a url that is a uri', { pk: 1, building: 'S', url: 'https://api.team.lcog.org/api/v1/desk/1' }, []],
    [
      'every violation, not the first',
      { building: 'Z', floor: 1.5 },
      [
        " required: must have required property 'pk'",
        '/building enum: must be equal to one of the allowed values',
        '/floor type: must be integer',
      ],
    ],
    ['nothing coerced: "1" is no integer', { pk: '1', building: 'S' }, ['/pk type: must be integer']],
    [
      'a member the schema does not name',
      { pk: 1, building: 'S', zone: 3 },
      [' additionalProperties: must NOT have additional properties'],
    ],
    ['a url that is no uri', { pk: 1, building: 'S', url: 'not a uri' }, ['/url format: must match format "uri"']],
    ['a format of the spec’s own: not checked', { pk: 1, building: 'S', badge: '¿?' }, []],
    [
      'a writeOnly member in an answer',
      { pk: 1, building: 'S', password: 'x' },
      [
        '/password stubNeverAnswered: is writeOnly in the spec: never in an answer (DRF never represents a write_only field)',
      ],
    ],
  ])('%s', (_name, value, want) => {
    expect(told(ajv.validate(`${S}/Desk`, value))).toEqual(want);
  });

  it('the value checked is left as it is (no default filled in, nothing removed)', () => {
    const value = { pk: 1, building: 'S', zone: 3 };
    ajv.validate(`${S}/Desk`, value);
    expect(value).toEqual({ pk: 1, building: 'S', zone: 3 });
  });

  it('a violation carries the value found, the schema path and the parameters', () => {
    expect(ajv.validate(`${S}/Desk`, { pk: 1, building: 'Z' })).toEqual([
      {
        pointer: '/building',
        keyword: 'enum',
        schemaPath: `urn:workplace-admin:openapi${S}/Desk/properties/building/enum`,
        params: { allowedValues: ['S', 'P'] },
        message: 'must be equal to one of the allowed values',
        data: 'Z',
      },
    ]);
  });

  it('the uri check answers each string on its own, the same string twice or not', () => {
    const url = (u: string) => ajv.validate(`${S}/Desk`, { pk: 1, building: 'S', url: u }).length;
    expect(['http://a/1', 'http://a/1', 'no uri', 'no uri', 'http://a/2'].map(url)).toEqual([0, 0, 1, 1, 0]);
  });
});

describe('ContractAjv.validator', () => {
  it('one validator per pointer, with or without its #', () => {
    const ajv = new ContractAjv(doc);
    expect(ajv.validator(`${S}/Desk`)).toBe(ajv.validator('/components/schemas/Desk'));
    expect(ajv.validator(`${S}/Desk`)).not.toBe(ajv.validator(`${S}/Desk/properties/pk`));
  });

  it('a pointer to nothing throws, each time it is asked for', () => {
    const ajv = new ContractAjv(doc);
    expect(() => ajv.validator(`${S}/Nothing`)).toThrow(/can't resolve reference/);
    expect(() => ajv.validator(`${S}/Nothing`)).toThrow(/can't resolve reference/);
    expect(ajv.validate(`${S}/Desk`, { pk: 1, building: 'S' })).toEqual([]);
  });

  it('a schema found by its $anchor (the document registered with its ids)', () => {
    const anchored = {
      components: {
        schemas: {
          Code: { $anchor: 'code', type: 'string', pattern: '^[A-Z]+$' },
          Item: { type: 'object', properties: { code: { $ref: '#code' } } },
        },
      },
    };
    const ajv = new ContractAjv(anchored);
    expect(told(ajv.validate(`${S}/Item`, { code: 'ab' }))).toEqual(['/code pattern: must match pattern "^[A-Z]+$"']);
    expect(ajv.validate(`${S}/Item`, { code: 'AB' })).toEqual([]);
  });

  it('a scan given is what is registered: an extension it does not name is an unknown keyword', () => {
    const extended = { components: { schemas: { S: { type: 'string', 'x-mine': 1 } } } };
    const scan = { extensions: [], formats: [], identifies: false, writeOnly: false };
    expect(new ContractAjv(extended).validate(`${S}/S`, 'a')).toEqual([]);
    expect(() => new ContractAjv(extended, scan).validator(`${S}/S`)).toThrow(/unknown keyword: "x-mine"/);
  });
});

describe('describeViolation: a violation in words, with what Ajv lists', () => {
  const v = (keyword: string, message: string, params: Record<string, unknown>): SchemaViolation => ({
    pointer: '/a',
    keyword,
    message,
    params,
    schemaPath: '',
    data: undefined,
  });
  it.each<[SchemaViolation, string]>([
    [
      v('required', "must have required property 'zone'", { missingProperty: 'zone' }),
      'must have required property "zone"',
    ],
    [
      v('enum', 'must be equal to one of the allowed values', { allowedValues: ['S', 'P'] }),
      'must be equal to one of the allowed values: ["S","P"]',
    ],
    [
      v('additionalProperties', 'must NOT have additional properties', { additionalProperty: 'zone' }),
      'must NOT have additional properties: "zone"',
    ],
    [
      v('unevaluatedProperties', 'must NOT have unevaluated properties', { unevaluatedProperty: 'zone' }),
      'must NOT have unevaluated properties: "zone"',
    ],
    [v('type', 'must be integer', { type: 'integer' }), 'must be integer'],
  ])('%j', (violation, want) => {
    expect(describeViolation(violation)).toBe(want);
  });
});

describe('formatCheck: an Ajv format as a synchronous check of a string', () => {
  it.each<[string, unknown, [string, boolean][] | undefined]>([
    [
      'a RegExp',
      /^a+$/,
      [
        ['aa', true],
        ['b', false],
      ],
    ],
    [
      'a function',
      (s: string) => s.length === 2,
      [
        ['ab', true],
        ['a', false],
      ],
    ],
    [
      'an object with a RegExp',
      { validate: /^\d$/ },
      [
        ['1', true],
        ['12', false],
      ],
    ],
    [
      'an object with a function',
      { validate: (s: string) => s === 'x', async: false },
      [
        ['x', true],
        ['y', false],
      ],
    ],
    ['an asynchronous one: none', { validate: () => Promise.resolve(true), async: true }, undefined],
    ['`true` (an annotation): none', true, undefined],
    ['nothing', undefined, undefined],
  ])('%s', (_name, format, cases) => {
    const check = formatCheck(format);
    if (cases === undefined) expect(check).toBeUndefined();
    else expect(cases.map(([s]) => [s, check?.(s)])).toEqual(cases);
  });
});

describe('contractAjv: the options of the contract', () => {
  it.each<[string, object, unknown, boolean]>([
    ['strict: an unknown keyword is refused', { type: 'string', maxLenght: 3 }, 'a', false],
    ['formats checked', { type: 'string', format: 'date' }, '2024-13-45', false],
    ['union types allowed', { type: ['string', 'null'] }, null, true],
    ['nothing coerced', { type: 'integer' }, '1', false],
  ])('%s', (_name, schema, value, valid) => {
    const ajv = contractAjv();
    let answer: boolean;
    try {
      answer = ajv.validate(schema, value) as boolean;
    } catch {
      answer = false;
    }
    expect(answer).toBe(valid);
  });

  it('with `source`, validators keep their code (for standalone code)', () => {
    expect(contractAjv(true).compile({ type: 'string' }).source).toBeDefined();
    expect(contractAjv().compile({ type: 'string' }).source).toBeUndefined();
  });
});
