import { shapeOf } from '../../../src/core/model.js';
import type { FixtureCheck } from '../../../src/load/fixtures.js';
import { ContractAjv } from '../../../src/openapi/ajv.js';
import { type ListOperation, type Operations, readOperations } from '../../../src/openapi/operations.js';
import { listEnvelope } from '../../spec-parts.js';

/**
 * A small OpenAPI 3.1 document of the tests' own: for each name, a collection `/api/v1/<name>` (a
 * list in DRF's envelope) and, unless `detail` is false, its item path `/api/v1/<name>/{pk}` with
 * an integer pk; the item schema is `#/components/schemas/<name>`. `extra` adds paths and schemas.
 */
export function smallSpec(
  collections: Readonly<Record<string, { readonly item: unknown; readonly detail?: boolean }>>,
  extra: { readonly paths?: Record<string, unknown>; readonly schemas?: Record<string, unknown> } = {},
): Record<string, unknown> {
  const ok = (schema: unknown) => ({ '200': { description: 'ok', content: { 'application/json': { schema } } } });
  const paths: Record<string, unknown> = {};
  const schemas: Record<string, unknown> = {};
  for (const [name, { item, detail = true }] of Object.entries(collections)) {
    const ref = { $ref: `#/components/schemas/${name}` };
    schemas[name] = item;
    paths[`/api/v1/${name}`] = {
      get: {
        operationId: `list-${name}`,
        responses: ok(listEnvelope(ref)),
      },
    };
    if (detail)
      paths[`/api/v1/${name}/{pk}`] = {
        parameters: [{ name: 'pk', in: 'path', required: true, schema: { type: 'integer' } }],
        get: { operationId: `get-${name}`, responses: ok(ref) },
      };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'small', version: '1' },
    paths: { ...paths, ...extra.paths },
    components: { schemas: { ...schemas, ...extra.schemas } },
  };
}

/** The operations of a document, and its collection at `path`. */
export function collectionOf(
  doc: Record<string, unknown>,
  path: string,
): { operations: Operations; list: ListOperation } {
  const { operations, problems } = readOperations(doc, 'openapi.json');
  if (problems.length > 0) throw new Error(JSON.stringify(problems));
  const list = operations.lists.find((l) => l.path === path);
  if (!list) throw new Error(`no collection ${path}`);
  return { operations, list };
}

/** How the loader checks the items of the collection at `path` (state.ts's checkOf): stored items of `file`. */
export function checkOf(doc: Record<string, unknown>, path: string, file: string): (sample: unknown) => FixtureCheck {
  const { operations, list } = collectionOf(doc, path);
  const ajv = new ContractAjv(doc);
  return (sample) => {
    const shape = shapeOf(doc, operations, list, sample);
    return {
      shape,
      ctx: {
        ajv,
        list,
        detail: operations.detailOf.get(list.path),
        withUrl: shape.withUrl,
        lookup: shape.lookup,
        writeOnly: shape.writeOnly,
        file,
        stored: true,
      },
    };
  };
}

/** V8's message for `text`, which JSON.parse refuses (its words vary between versions of Node). */
export function parseError(text: string): string {
  try {
    JSON.parse(text);
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error(`${text} parses`);
}
