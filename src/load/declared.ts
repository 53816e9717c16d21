import { generateSync, type JsonSchema } from 'json-schema-faker';
import type { Operations } from '../openapi/operations.js';
import { withoutWriteOnly } from '../openapi/response-view.js';
import { generationOptions, generationSchema } from './finite-schema.js';

/**
 * For `Prefer: code=N` on a declared response without an example: a body generated from its
 * schema with the seed, once at load (json-schema-faker, options per call, never global), by
 * `<operation pointer> <status>`; also the success of an action or a view without an example (its
 * answer when no handler or fixture gives one). A collection's 200 answers are its own items, not
 * generated here.
 */
export function generatedBodies(doc: object, operations: Operations, seed: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const op of [...operations.all, ...operations.customs]) {
    for (const [status, declared] of Object.entries(op.responses)) {
      if (status === '200' && op.kind !== 'custom') continue;
      if (Object.keys(declared.examples).length > 0 || !declared.schemaPointer) continue;
      // A recursive schema made finite, as for items (finite-schema.ts).
      const body = generationSchema(doc, declared.schemaPointer);
      // As an answer holds it: no writeOnly member.
      out[`${op.pointer} ${status}`] = withoutWriteOnly(
        doc,
        { $ref: declared.schemaPointer },
        generateSync(body.schema as JsonSchema, generationOptions(doc, seed, body.finite)),
      );
    }
  }
  return out;
}
