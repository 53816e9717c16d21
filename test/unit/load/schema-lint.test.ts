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
