/** Pieces of the small specs tests write, each written once. */

/** A `$ref` to a schema of the same document. */
export const schemaRef = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** The list envelope of PageNumberPagination around `items` (§2.1: count, next, previous, results). */
export function listEnvelope(items: unknown) {
  return {
    type: 'object',
    required: ['count', 'next', 'previous', 'results'],
    properties: {
      count: { type: 'integer' },
      next: { type: ['string', 'null'] },
      previous: { type: ['string', 'null'] },
      results: { type: 'array', items },
    },
  };
}
