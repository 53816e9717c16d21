import { generateSync, type JsonSchema } from 'json-schema-faker';
import type { Operations } from '../core/spec/operations.js';
import { follow, isObject } from '../core/spec/pointer.js';

/**
 * For `Prefer: code=N` on a declared response without an example: a body generated from its
 * schema with the seed, once at load (json-schema-faker, options per call, never global), by
 * `<operation pointer> <status>`. 200 answers are the collections' own items, not generated here.
 */
export function generatedBodies(doc: object, operations: Operations, seed: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const op of operations.all) {
    for (const [status, declared] of Object.entries(op.responses)) {
      if (status === '200' || Object.keys(declared.examples).length > 0 || !declared.schemaPointer) continue;
      out[`${op.pointer} ${status}`] = generateSync({ $ref: declared.schemaPointer } as JsonSchema, {
        seed,
        alwaysFakeOptionals: true,
        fillProperties: false,
        refResolver: (ref: string) => {
          const { node } = follow(doc, ref.startsWith('#') ? ref : `#${ref}`);
          return (isObject(node) ? node : {}) as JsonSchema;
        },
      });
    }
  }
  return out;
}
