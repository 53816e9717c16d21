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

/**
 * A document of one collection, `GET /api/v1/thing` (operationId `listThings`) answering 200 with
 * `schema`; `list` adds to the operation, `paths` beside it, `top` to the document's top level.
 */
export function thingListSpec(
  schema: unknown,
  o: {
    list?: Record<string, unknown>;
    paths?: Record<string, unknown>;
    top?: Record<string, unknown>;
    components?: Record<string, unknown>;
  } = {},
) {
  return {
    openapi: '3.1.0',
    info: { title: 't', version: '1' },
    ...o.top,
    paths: {
      '/api/v1/thing': {
        get: {
          operationId: 'listThings',
          responses: { '200': { description: 'ok', content: { 'application/json': { schema } } } },
          ...o.list,
        },
      },
      ...o.paths,
    },
    ...(o.components === undefined ? {} : { components: o.components }),
  };
}
