import type { ContractAjv } from '../contract/ajv.js';
import type { LoadProblem } from '../core/errors.js';
import { escapeToken, getAt, isObject } from '../core/spec/pointer.js';

// Keywords whose value is a schema, a list of schemas, or a map of them (JSON Schema 2020-12).
const SCHEMA = ['additionalProperties', 'items', 'not', 'if', 'then', 'else', 'contains', 'propertyNames', 'unevaluatedItems', 'unevaluatedProperties', 'additionalItems'];
const SCHEMA_LIST = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const SCHEMA_MAP = ['properties', 'patternProperties', 'dependentSchemas', '$defs', 'definitions'];
// Keywords Ajv takes as annotations or anchors without a rule of its own.
const ANNOTATIONS = new Set(['$anchor', '$dynamicAnchor', '$vocabulary', 'contentSchema']);

/**
 * What Ajv's strict compilation of a schema would refuse, found without compiling it: an unknown
 * keyword (a misspelling that would silently check nothing), a `pattern` that is no regular
 * expression; and, as a warning, a `format` Ajv does not know (it would be ignored). Validators
 * then compile when first used, so that a spec of thousands of operations starts at once, and a
 * schema still never fails on the first request instead of at start-up.
 */
export function lintSchemas(doc: unknown, ajv: ContractAjv, pointers: Iterable<string>, file: string): { problems: LoadProblem[]; warnings: LoadProblem[] } {
  const known = new Set(Object.keys(ajv.ajv.RULES.keywords));
  const formats = new Set(Object.keys(ajv.ajv.formats));
  const problems: LoadProblem[] = [];
  const warnings: LoadProblem[] = [];
  const seen = new Set<string>();
  // Each root, and each target of a $ref, is checked against the JSON Schema 2020-12 meta-schema
  // (Ajv's validateSchema, no compilation): its nested schemas with it, the refs' targets on their own.
  const roots = new Set<string>();
  const stack: string[] = [];
  for (const p of pointers) {
    const pointer = p.startsWith('#') ? p.slice(1) : p;
    stack.push(pointer);
    roots.add(pointer);
  }
  while (stack.length > 0) {
    const pointer = stack.pop() as string;
    if (seen.has(pointer)) continue;
    seen.add(pointer);
    const node = getAt(doc, `#${pointer}`);
    if (!isObject(node)) continue;
    if (roots.has(pointer) && !ajv.ajv.validateSchema(node)) {
      for (const e of ajv.ajv.errors ?? []) {
        problems.push({ file, pointer: `${pointer}${e.instancePath}`, reason: `invalid JSON Schema: ${e.message ?? 'is invalid'}${e.params && 'allowedValues' in e.params ? ` ${JSON.stringify(e.params.allowedValues)}` : ''}` });
      }
    }
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref') {
        if (typeof value === 'string' && value.startsWith('#')) {
          const target = decodeURIComponent(value.slice(1));
          roots.add(target);
          stack.push(target);
        }
        continue;
      }
      if (!known.has(key) && !ANNOTATIONS.has(key) && !key.startsWith('x-')) {
        problems.push({ file, pointer: `${pointer}/${escapeToken(key)}`, reason: `unknown keyword "${key}" (JSON Schema 2020-12 and OpenAPI 3.1 have none of that name: a misspelled keyword checks nothing)` });
      }
      if (key === 'pattern' && typeof value === 'string') checkPattern(value, `${pointer}/pattern`);
      if (key === 'format' && typeof value === 'string' && !formats.has(value)) {
        warnings.push({ file, pointer: `${pointer}/format`, reason: `format "${value}" is not one the contract's Ajv knows: it is not checked` });
      }
      if (SCHEMA.includes(key) && isObject(value)) stack.push(`${pointer}/${escapeToken(key)}`);
      if (SCHEMA_LIST.includes(key) && Array.isArray(value)) value.forEach((_, i) => stack.push(`${pointer}/${escapeToken(key)}/${i}`));
      if (SCHEMA_MAP.includes(key) && isObject(value)) {
        for (const name of Object.keys(value)) {
          if (key === 'patternProperties') checkPattern(name, `${pointer}/patternProperties/${escapeToken(name)}`);
          stack.push(`${pointer}/${escapeToken(key)}/${escapeToken(name)}`);
        }
      }
    }
  }
  function checkPattern(source: string, where: string): void {
    try {
      new RegExp(source, 'u');
    } catch (e) {
      problems.push({ file, pointer: where, reason: `not a regular expression: ${(e as Error).message}` });
    }
  }
  return { problems, warnings };
}
