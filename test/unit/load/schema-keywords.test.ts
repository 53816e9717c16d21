import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { SCHEMA, SCHEMA_LIST, SCHEMA_MAP } from '../../../src/load/schema-keywords.js';

// The JSON Schema 2020-12 meta-schemas as Ajv ships them: what each keyword's value is.
const require = createRequire(import.meta.url);
const META = ['meta/core', 'meta/applicator', 'meta/unevaluated', 'meta/content', 'meta/validation', 'schema'];
const properties = META.flatMap((m) =>
  Object.entries(
    (require(`ajv/dist/refs/json-schema-2020-12/${m}.json`) as { properties: Record<string, unknown> }).properties,
  ),
);

const isMeta = (v: unknown) => JSON.stringify(v) === '{"$dynamicRef":"#meta"}';
const keywordsWhere = (test: (v: Record<string, unknown>) => boolean) =>
  new Set(properties.filter(([, v]) => test(v as Record<string, unknown>)).map(([k]) => k));

describe("the keywords whose value is a schema, a list or a map of them: the meta-schema's", () => {
  it('one schema: every 2020-12 keyword of that kind but contentSchema (an annotation), and additionalItems of the drafts before', () => {
    const meta = keywordsWhere(isMeta);
    expect(meta.has('contentSchema')).toBe(true);
    expect(SCHEMA).toEqual(new Set([...meta].filter((k) => k !== 'contentSchema').concat('additionalItems')));
  });

  it('a list of schemas: every 2020-12 keyword of that kind', () => {
    expect(SCHEMA_LIST).toEqual(keywordsWhere((v) => v.$ref === '#/$defs/schemaArray'));
  });

  it('a map of schemas: every 2020-12 keyword of that kind, definitions (deprecated) included', () => {
    const maps = keywordsWhere((v) => v.type === 'object' && isMeta(v.additionalProperties));
    expect(maps.has('definitions')).toBe(true);
    expect(SCHEMA_MAP).toEqual(maps);
  });
});
