// Keywords whose value is a schema, a list of schemas, or a map of them (JSON Schema 2020-12): what
// the schema lint walks (schema-lint.ts) and what the generator's expansion of a recursive schema
// expands (finite-schema.ts).
export const SCHEMA = new Set([
  'items',
  'additionalProperties',
  'not',
  'if',
  'then',
  'else',
  'contains',
  'propertyNames',
  'unevaluatedItems',
  'unevaluatedProperties',
  'additionalItems',
]);
export const SCHEMA_LIST = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems']);
export const SCHEMA_MAP = new Set(['properties', 'patternProperties', 'dependentSchemas', '$defs', 'definitions']);
