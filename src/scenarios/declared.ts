import { generateSync, type JsonSchema } from 'json-schema-faker';
import { follow, isObject } from '../spec/pointer.js';
import type { Operation } from '../spec/operations.js';
import { drfJson } from '../fixtures/store.js';

export type DeclaredBody = { ok: true; body: string } | { ok: false; problem: string; available: Record<string, unknown> };

const cache = new WeakMap<object, Map<string, DeclaredBody>>();

/**
 * `Prefer: code=N[, example=NAME]` for a status other than 200: the declared response's named
 * example (or its first), else a body generated from its schema with the seed, else no body.
 * Computed once per state, operation, status and example.
 */
export function declaredBody(doc: object, op: Operation, status: number, example: string | undefined, seed: number): DeclaredBody {
  let perDoc = cache.get(doc);
  if (!perDoc) {
    perDoc = new Map();
    cache.set(doc, perDoc);
  }
  const key = `${op.pointer} ${status} ${example ?? ''} ${seed}`;
  const hit = perDoc.get(key);
  if (hit) return hit;
  const result = compute(doc, op, status, example, seed);
  perDoc.set(key, result);
  return result;
}

function compute(doc: object, op: Operation, status: number, example: string | undefined, seed: number): DeclaredBody {
  const declared = op.responses[String(status)];
  if (!declared) return { ok: false, problem: `${op.operationId} declares no ${status} response`, available: { codes: Object.keys(op.responses) } };
  const names = Object.keys(declared.examples);
  if (example !== undefined) {
    if (!(example in declared.examples)) {
      return { ok: false, problem: `the ${status} response of ${op.operationId} has no example "${example}"`, available: { examples: names } };
    }
    return { ok: true, body: drfJson(declared.examples[example]) };
  }
  if (names.length > 0) return { ok: true, body: drfJson(declared.examples[names[0] as string]) };
  if (!declared.schemaPointer) return { ok: true, body: '' };
  const generated = generateSync({ $ref: declared.schemaPointer } as JsonSchema, {
    seed,
    alwaysFakeOptionals: true,
    fillProperties: false,
    refResolver: (ref: string) => {
      const { node } = follow(doc, ref.startsWith('#') ? ref : `#${ref}`);
      return (isObject(node) ? node : {}) as JsonSchema;
    },
  });
  return { ok: true, body: drfJson(generated) };
}
