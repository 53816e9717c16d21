import { describe, expect, it } from 'vitest';
import { lintSchemas } from '../../../src/load/schema-lint.js';
import { ContractAjv } from '../../../src/openapi/ajv.js';

describe('lintSchemas', () => {
  it('walks nested schemas from their parent: a property named with `%` is checked where it stands', () => {
    const doc = {
      components: {
        schemas: {
          Room: { type: 'object', properties: { '100%': { type: 'string', maxLenght: 3 }, 'a%20b': { typo: true } } },
        },
      },
    };
    const { problems } = lintSchemas(doc, new ContractAjv(doc), ['#/components/schemas/Room'], 'openapi.json');
    expect(problems.map((p) => [p.pointer, p.reason.split(' (')[0]])).toEqual([
      ['/components/schemas/Room/properties/a%20b/typo', 'unknown keyword "typo"'],
      ['/components/schemas/Room/properties/100%/maxLenght', 'unknown keyword "maxLenght"'],
    ]);
  });
});

describe('lintSchemas: a schema that is only a $ref', () => {
  it.each([
    '#/components/schemas/Room',
    '#/a%20b',
    'other.yaml#/X',
    'http://example.org/s#/x',
    '#anchor',
    '',
    'a b',
    '#/a b',
    '%zz',
    '\\',
    'http://[bad',
    'ht tp://x',
    '#/\u00e9',
    5,
    null,
    ['#/x'],
    { $ref: '#/x' },
  ])('$ref %j: the meta-schema verdict, told as it would tell it', (ref) => {
    const doc = { components: { schemas: { R: { $ref: ref as unknown } } } };
    const ajv = new ContractAjv(doc);
    const { problems } = lintSchemas(doc, ajv, ['#/components/schemas/R'], 'openapi.json');
    const valid = ajv.ajv.validateSchema({ $ref: ref as unknown });
    const expected = valid ? [] : (ajv.ajv.errors ?? []).map((e) => `/components/schemas/R${e.instancePath}`);
    expect(problems.filter((p) => p.reason.startsWith('invalid JSON Schema')).map((p) => p.pointer)).toEqual(expected);
  });

  it('a $ref with a sibling keyword is run through the meta-schema whole', () => {
    const doc = {
      components: { schemas: { R: { $ref: '#/components/schemas/R2', minLength: 'two' }, R2: { type: 'string' } } },
    };
    const { problems } = lintSchemas(doc, new ContractAjv(doc), ['#/components/schemas/R'], 'openapi.json');
    expect(problems.map((p) => p.pointer)).toEqual(['/components/schemas/R/minLength']);
  });
});

describe('lintSchemas: what strict Ajv would refuse, found without compiling', () => {
  /** The lint of `schemas` from the root `S`: problems and warnings as `pointer: reason`. */
  function lint(schemas: Record<string, unknown>) {
    const doc = { openapi: '3.1.0', components: { schemas } };
    const { problems, warnings } = lintSchemas(doc, new ContractAjv(doc), ['#/components/schemas/S'], 'openapi.yaml');
    expect([...problems, ...warnings].every((p) => p.file === 'openapi.yaml')).toBe(true);
    const told = (ps: typeof problems) => ps.map((p) => `${p.pointer}: ${p.reason}`);
    return { problems: told(problems), warnings: told(warnings) };
  }
  const S = '/components/schemas/S';
  const unknown = (k: string) =>
    `unknown keyword "${k}" (JSON Schema 2020-12 and OpenAPI 3.1 have none of that name: a misspelled keyword checks nothing)`;
  const regexError = (source: string) => {
    try {
      new RegExp(source, 'u');
    } catch (e) {
      return (e as Error).message;
    }
    return '';
  };

  it.each<[string, Record<string, unknown>, string[], string[]]>([
    [
      'OpenAPI’s keywords, extensions and annotations: known',
      {
        S: {
          type: 'object',
          example: {},
          discriminator: { propertyName: 'k' },
          xml: {},
          externalDocs: { url: 'https://x' },
          'x-mine': 1,
          $anchor: 'a',
          contentSchema: { type: 'string' },
        },
      },
      [],
      [],
    ],
    ['a misspelled keyword', { S: { type: 'object', requird: ['a'] } }, [`${S}/requird: ${unknown('requird')}`], []],
    [
      'nested schemas walked: items, allOf, properties, $defs',
      {
        S: {
          items: { tpye: 'a' },
          allOf: [{ minimun: 1 }],
          properties: { 'a/b': { maxLenght: 2 } },
          $defs: { D: { exclusiveMinimun: 0 } },
        },
      },
      [
        `${S}/$defs/D/exclusiveMinimun: ${unknown('exclusiveMinimun')}`,
        `${S}/properties/a~1b/maxLenght: ${unknown('maxLenght')}`,
        `${S}/allOf/0/minimun: ${unknown('minimun')}`,
        `${S}/items/tpye: ${unknown('tpye')}`,
      ],
      [],
    ],
    [
      'the target of a $ref, checked where it stands, once',
      {
        S: { properties: { a: { $ref: '#/components/schemas/T' }, b: { $ref: '#/components/schemas/T' } } },
        T: { typ: 1 },
      },
      [`/components/schemas/T/typ: ${unknown('typ')}`],
      [],
    ],
    [
      'a pattern that is no regular expression',
      { S: { type: 'string', pattern: '(' } },
      [`${S}/pattern: not a regular expression: ${regexError('(')}`],
      [],
    ],
    [
      'a patternProperties name that is none',
      { S: { patternProperties: { '[': { type: 'string' } } } },
      [`${S}/patternProperties/[: not a regular expression: ${regexError('[')}`],
      [],
    ],
    [
      'what the meta-schema refuses',
      { S: { type: 'strin', minLength: -1 } },
      [
        `${S}/type: invalid JSON Schema: must be equal to one of the allowed values ["array","boolean","integer","null","number","object","string"]`,
        `${S}/type: invalid JSON Schema: must be array`,
        `${S}/type: invalid JSON Schema: must match a schema in anyOf`,
        `${S}/minLength: invalid JSON Schema: must be >= 0`,
      ],
      [],
    ],
    [
      'a format Ajv does not know: a warning (it is not checked)',
      { S: { type: 'string', format: 'badge' }, T: { format: 'date' } },
      [],
      [`${S}/format: format "badge" is not one the contract's Ajv knows: it is not checked`],
    ],
  ])('%s', (_name, schemas, problems, warnings) => {
    expect(lint(schemas)).toEqual({ problems, warnings });
  });
});
