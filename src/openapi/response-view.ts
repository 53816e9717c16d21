import { getAt, isObject } from './pointer.js';

/**
 * The keyword a writeOnly property's schema is in the response view: present in an answer, it is
 * a violation (src/contract/ajv.ts defines it). No JSON Schema or OpenAPI keyword has the name.
 */
export const NEVER_ANSWERED = 'stubNeverAnswered';

/**
 * The document as an answer is checked against it. A property marked `writeOnly` is never in an
 * answer: DRF never represents a `write_only` field (Serializer.to_representation reads only
 * `_readable_fields`), though a request must send it when `required` names it. OpenAPI 3.0 said
 * so of `required` ("the required will take effect on the request only"); 3.1 hands the keyword to
 * JSON Schema, whose validators know nothing of requests and answers. So a writeOnly property
 * present in an answer is a violation here (its schema replaced by NEVER_ANSWERED), and each
 * `required` here names no `writeOnly` property of its schema: the properties declared beside it
 * or in an `allOf` beneath it; and for a subschema written inline in an `allOf`, `anyOf`, `oneOf`,
 * `if`, `then`, `else` or `dependentSchemas` (`oneOf: [{required: [password]}, {required:
 * [token]}]`), those of the schema holding it too, as `dependentRequired` does. A subschema
 * reached by `$ref` is shared with other places, and keeps what its own properties say.
 *
 * Answers the document itself when nothing in it is `writeOnly: true` (no copy); else a copy (the
 * bundled document is JSON: its cycles are `$ref`s).
 */
export function responseView<T>(doc: T, hasWriteOnly: boolean): T {
  // (Each writeOnly property's schema becomes `{writeOnly: true, [NEVER_ANSWERED]: true}`: the
  // keyword the contract's Ajv fails wherever the property is present.)
  if (!hasWriteOnly) return doc;
  const copy = JSON.parse(JSON.stringify(doc)) as T;
  const stack: unknown[] = [copy];
  while (stack.length > 0) {
    const node = stack.pop();
    if (Array.isArray(node)) {
      for (const v of node) if (v !== null && typeof v === 'object') stack.push(v);
      continue;
    }
    if (!isObject(node)) continue;
    if (isObject(node.properties)) {
      for (const [name, p] of Object.entries(node.properties))
        if (throughRefs(copy, p).writeOnly) node.properties[name] = { writeOnly: true, [NEVER_ANSWERED]: true };
    }
    const names = writeOnlyNames(copy, node);
    if (names.size > 0) {
      withoutNames(node, names);
      for (const sub of inlineSubschemas(node)) withoutNames(sub, names);
      if (isObject(node.dependentRequired)) {
        for (const [k, v] of Object.entries(node.dependentRequired))
          if (Array.isArray(v)) node.dependentRequired[k] = v.filter((n) => typeof n !== 'string' || !names.has(n));
      }
    }
    for (const key of Object.keys(node)) {
      const v = node[key];
      if (v !== null && typeof v === 'object') stack.push(v);
    }
  }
  return copy;
}

/** The subschemas written inline (no `$ref`) where a `required` constrains the same instance. */
function inlineSubschemas(node: Record<string, unknown>): Record<string, unknown>[] {
  const out: unknown[] = [];
  for (const k of ['allOf', 'anyOf', 'oneOf']) if (Array.isArray(node[k])) out.push(...(node[k] as unknown[]));
  for (const k of ['if', 'then', 'else']) out.push(node[k]);
  if (isObject(node.dependentSchemas)) out.push(...Object.values(node.dependentSchemas));
  return out.filter((s): s is Record<string, unknown> => isObject(s) && s.$ref === undefined);
}

function withoutNames(schema: Record<string, unknown>, names: ReadonlySet<string>): void {
  if (!Array.isArray(schema.required)) return;
  schema.required = schema.required.filter((n) => typeof n !== 'string' || !names.has(n));
}

/**
 * Follows a schema's internal `$ref`s (at most 16): the schema at the end, and whether any schema
 * on the way says `writeOnly: true` (`{$ref: ..., writeOnly: true}` is a writeOnly property).
 */
function throughRefs(doc: unknown, node: unknown): { node: Record<string, unknown> | undefined; writeOnly: boolean } {
  let writeOnly = false;
  for (let hops = 0; hops <= 16; hops++) {
    if (!isObject(node)) return { node: undefined, writeOnly };
    if (node.writeOnly === true) writeOnly = true;
    if (typeof node.$ref !== 'string') return { node, writeOnly };
    if (!node.$ref.startsWith('#')) return { node: undefined, writeOnly };
    node = getAt(doc, node.$ref);
  }
  return { node: undefined, writeOnly };
}

/** A schema and its `allOf` parts, through `$ref` (each schema once), depth first. */
function parts(doc: unknown, schema: unknown, seen = new Set<object>()): Record<string, unknown>[] {
  const { node } = throughRefs(doc, schema);
  if (!node || seen.has(node)) return [];
  seen.add(node);
  const out = [node];
  if (Array.isArray(node.allOf)) for (const member of node.allOf) out.push(...parts(doc, member, seen));
  return out;
}

/** The `writeOnly` properties a schema declares, itself and through `$ref` and `allOf` (each schema once), in order. */
export function writeOnlyNames(doc: unknown, schema: unknown): Set<string> {
  const names = new Set<string>();
  for (const { properties } of parts(doc, schema)) {
    if (!isObject(properties)) continue;
    for (const [name, p] of Object.entries(properties)) if (throughRefs(doc, p).writeOnly) names.add(name);
  }
  return names;
}

/**
 * `value` as an answer would hold it under `schema`: without the members a schema marks
 * `writeOnly`, at any depth (object properties through `$ref` and `allOf`, array `items`). For
 * what the stub makes itself from a schema (generated items and bodies), which json-schema-faker
 * fills with every property, writeOnly ones too. Only objects that lose a member are copied.
 */
export function withoutWriteOnly(doc: unknown, schema: unknown, value: unknown, depth = 0): unknown {
  if (depth > 32 || value === null || typeof value !== 'object') return value;
  const { node } = throughRefs(doc, schema);
  if (!node) return value;
  if (Array.isArray(value)) {
    const items = parts(doc, node).find((p) => p.items !== undefined && typeof p.items === 'object')?.items;
    if (items === undefined) return value;
    let changed = false;
    const out = value.map((v) => {
      const w = withoutWriteOnly(doc, items, v, depth + 1);
      if (w !== v) changed = true;
      return w;
    });
    return changed ? out : value;
  }
  // Each property's schema: the first declaration of a name wins.
  const props = new Map<string, unknown>();
  for (const { properties } of parts(doc, node)) {
    if (!isObject(properties)) continue;
    for (const [name, p] of Object.entries(properties)) if (!props.has(name)) props.set(name, p);
  }
  let changed = false;
  const entries: [string, unknown][] = [];
  for (const [k, v] of Object.entries(value)) {
    const p = props.get(k);
    if (p !== undefined && throughRefs(doc, p).writeOnly) {
      changed = true;
      continue;
    }
    const w = p === undefined ? v : withoutWriteOnly(doc, p, v, depth + 1);
    if (w !== v) changed = true;
    entries.push([k, w]);
  }
  return changed ? Object.fromEntries(entries) : value;
}
