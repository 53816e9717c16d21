import { getAt, isObject } from './pointer.js';

/**
 * The document as an answer is checked against it. A property marked `writeOnly` is never in an
 * answer: DRF never represents a `write_only` field (Serializer.to_representation reads only
 * `_readable_fields`), though a request must send it when `required` names it. OpenAPI 3.0 said
 * so of `required` ("the required will take effect on the request only"); 3.1 hands the keyword to
 * JSON Schema, whose validators know nothing of requests and answers. So each `required` here
 * names no `writeOnly` property of its schema: the properties declared beside it, in an `allOf`
 * beneath it, and, for a member of an `allOf`, in the other members (`allOf: [$ref Base,
 * {required: [password]}]`). The property's own schema stays: one that is there is still checked.
 *
 * Answers the document itself when nothing in it is `writeOnly: true` (no copy); else a copy (the
 * bundled document is JSON: its cycles are `$ref`s).
 */
export function responseView<T>(doc: T, hasWriteOnly: boolean): T {
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
    if (Array.isArray(node.required)) withoutNames(node, writeOnlyNames(copy, node, 0));
    if (Array.isArray(node.allOf)) {
      // A member's `required` may name what another member declares.
      const names = writeOnlyNames(copy, node, 0);
      for (const member of node.allOf) if (isObject(member) && member.$ref === undefined) withoutNames(member, names);
    }
    for (const key of Object.keys(node)) {
      const v = node[key];
      if (v !== null && typeof v === 'object') stack.push(v);
    }
  }
  return copy;
}

function withoutNames(schema: Record<string, unknown>, names: ReadonlySet<string>): void {
  if (names.size === 0 || !Array.isArray(schema.required)) return;
  schema.required = schema.required.filter((n) => typeof n !== 'string' || !names.has(n));
}

/** A schema through its internal `$ref`s (at most 16), or undefined where one leads nowhere. */
function resolved(doc: unknown, node: unknown): Record<string, unknown> | undefined {
  for (let hops = 0; hops <= 16; hops++) {
    if (!isObject(node)) return undefined;
    if (typeof node.$ref !== 'string') return node;
    if (!node.$ref.startsWith('#')) return undefined;
    node = getAt(doc, node.$ref);
  }
  return undefined;
}

/** The `writeOnly` properties a schema declares, itself and through `$ref` and `allOf`. */
function writeOnlyNames(doc: unknown, schema: unknown, depth: number): Set<string> {
  const names = new Set<string>();
  const node = resolved(doc, schema);
  if (!node || depth > 16) return names;
  if (isObject(node.properties)) {
    for (const [name, p] of Object.entries(node.properties)) if (resolved(doc, p)?.writeOnly === true) names.add(name);
  }
  if (Array.isArray(node.allOf)) for (const member of node.allOf) for (const n of writeOnlyNames(doc, member, depth + 1)) names.add(n);
  return names;
}
