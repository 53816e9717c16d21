import { type ContractAjv, formatCheck } from '../openapi/ajv.js';
import type { LoadProblem } from './errors.js';
import { escapeToken, getAt, isObject } from '../openapi/pointer.js';
import { metaSchemaCheck } from './meta-check.js';
import { SCHEMA, SCHEMA_LIST, SCHEMA_MAP } from './schema-keywords.js';

// Keywords Ajv takes as annotations or anchors without a rule of its own.
const ANNOTATIONS = new Set(['$anchor', '$dynamicAnchor', '$vocabulary', 'contentSchema']);

/**
 * What Ajv's strict compilation of a schema would refuse, found without compiling it: an unknown
 * keyword (a misspelling that would silently check nothing), a `pattern` that is no regular
 * expression; and, as a warning, a `format` Ajv does not know (it would be ignored). Validators
 * then compile when first used, so that a spec of thousands of operations starts at once, and a
 * schema still never fails on the first request instead of at start-up. `metaFile`: the
 * precompiled meta-schema check to use (tests give their own; meta-check.ts).
 */
export function lintSchemas(
  doc: unknown,
  ajv: ContractAjv,
  pointers: Iterable<string>,
  file: string,
  metaFile?: string,
): { problems: LoadProblem[]; warnings: LoadProblem[] } {
  const known = new Set(Object.keys(ajv.ajv.RULES.keywords));
  // The formats Ajv checks (one registered as `true`, a spec's own, is an annotation only).
  const formats = new Set(Object.entries(ajv.ajv.formats).flatMap(([name, f]) => (f === true ? [] : [name])));
  const problems: LoadProblem[] = [];
  const warnings: LoadProblem[] = [];
  const seen = new Set<string>();
  // A schema that is only a `$ref` (most of a large spec's response schemas) is one the meta-schema
  // asks nothing of but a reference of the uri-reference format: when its reference is one, it is
  // valid without running the meta-schema; when not, the meta-schema runs and tells why.
  const uriReference = formatCheck(ajv.ajv.formats['uri-reference']);
  const metaCheck = metaSchemaCheck(ajv.ajv, metaFile);
  const refOnlyValid = (node: Record<string, unknown>): boolean => {
    if (uriReference === undefined || typeof node.$ref !== 'string') return false;
    for (const key in node) if (key !== '$ref') return false;
    return uriReference(node.$ref);
  };
  // Each root, and each target of a $ref, is checked against the JSON Schema 2020-12 meta-schema
  // (as Ajv's validateSchema, precompiled: meta-check.ts; the schema itself is not compiled): its
  // nested schemas with it, the refs' targets on their own.
  const roots = new Set<string>();
  // Each entry carries its node: nested schemas are walked from their parent, not looked up again from the root.
  const stack: { pointer: string; node: unknown }[] = [];
  const pushRoot = (pointer: string) => {
    // One already walked, or waiting to be, stays as it is (thousands of operations name the same
    // 404 schema): its node is not looked up again.
    if (seen.has(pointer) || roots.has(pointer)) return;
    stack.push({ pointer, node: getAt(doc, `#${pointer}`) });
    roots.add(pointer);
  };
  for (const p of pointers) pushRoot(p.startsWith('#') ? p.slice(1) : p);
  while (stack.length > 0) {
    const { pointer, node } = stack.pop() as { pointer: string; node: unknown };
    if (seen.has(pointer)) continue;
    seen.add(pointer);
    if (!isObject(node)) continue;
    const errors = roots.has(pointer) && !refOnlyValid(node) ? metaCheck(node) : null;
    if (errors) {
      for (const e of errors) {
        problems.push({
          file,
          pointer: `${pointer}${e.instancePath}`,
          reason: `invalid JSON Schema: ${e.message ?? 'is invalid'}${e.params && 'allowedValues' in e.params ? ` ${JSON.stringify(e.params.allowedValues)}` : ''}`,
        });
      }
    }
    for (const key in node) {
      const value = node[key];
      if (key === '$ref') {
        if (typeof value === 'string' && value.startsWith('#')) pushRoot(decodedRef(value.slice(1)));
        continue;
      }
      if (!known.has(key) && !ANNOTATIONS.has(key) && !key.startsWith('x-')) {
        problems.push({
          file,
          pointer: `${pointer}/${escapeToken(key)}`,
          reason: `unknown keyword "${key}" (JSON Schema 2020-12 and OpenAPI 3.1 have none of that name: a misspelled keyword checks nothing)`,
        });
      }
      if (key === 'pattern' && typeof value === 'string') checkPattern(value, `${pointer}/pattern`);
      if (key === 'format' && typeof value === 'string' && !formats.has(value)) {
        warnings.push({
          file,
          pointer: `${pointer}/format`,
          reason: `format "${value}" is not one the contract's Ajv knows: it is not checked`,
        });
      }
      if (SCHEMA.has(key) && isObject(value)) stack.push({ pointer: `${pointer}/${escapeToken(key)}`, node: value });
      if (SCHEMA_LIST.has(key) && Array.isArray(value))
        value.forEach((item, i) => stack.push({ pointer: `${pointer}/${escapeToken(key)}/${i}`, node: item }));
      if (SCHEMA_MAP.has(key) && isObject(value)) {
        for (const name in value) {
          if (key === 'patternProperties') checkPattern(name, `${pointer}/patternProperties/${escapeToken(name)}`);
          stack.push({ pointer: `${pointer}/${escapeToken(key)}/${escapeToken(name)}`, node: value[name] });
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

/** A `$ref`'s fragment as a pointer: percent-decoded, unless it is not valid percent-encoding. */
function decodedRef(fragment: string): string {
  try {
    return decodeURIComponent(fragment);
  } catch {
    return fragment;
  }
}
