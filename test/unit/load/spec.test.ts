import path from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import { describe, expect, it } from 'vitest';
import { loadSpec } from '../../../src/load/spec.js';
import { readOperations } from '../../../src/openapi/operations.js';
import { follow, isObject } from '../../../src/openapi/pointer.js';
import { scanDocument } from '../../../src/openapi/document-scan.js';
import { ROOT } from '../../cli-helpers.js';
import { DOCUMENT_COLLECTIONS, SPEC } from '../../helpers.js';

const { doc } = await loadSpec(SPEC);
const { operations, problems } = readOperations(doc, SPEC);
const node = (pointer: string) => follow(doc, pointer).node as Record<string, unknown>;

describe('the authored spec against the interface document', () => {
  it('is valid OpenAPI 3.1 (swagger-parser)', async () => {
    const api = (await SwaggerParser.validate(SPEC)) as { openapi: string };
    expect(api.openapi).toMatch(/^3\.1\./);
    expect(problems).toEqual([]);
  });

  it('has exactly the 20 collections of §4, GET only, and the desk item path', () => {
    expect(operations.lists.map((l) => l.path).sort()).toEqual(DOCUMENT_COLLECTIONS.map((r) => `/api/v1/${r}`).sort());
    expect(Object.keys(doc.paths as object).sort()).toEqual(
      [...DOCUMENT_COLLECTIONS.map((r) => `/api/v1/${r}`), '/api/v1/desk/{pk}'].sort(),
    );
    for (const item of Object.values(doc.paths as Record<string, Record<string, unknown>>))
      expect(Object.keys(item)).toEqual(['get']);
  });

  it.each(DOCUMENT_COLLECTIONS)(
    '/api/v1/%s: operationId, tag, format (api, json) and page, the envelope, 404 {detail}',
    (resource) => {
      const list = operations.lists.find((l) => l.resource === resource);
      expect(list).toBeDefined();
      const op = node(list?.pointer ?? '');
      expect(op.operationId).toMatch(/^list[A-Z]/);
      expect((op.tags as string[]).length).toBeGreaterThan(0);
      expect(list?.formats).toEqual(['api', 'json']);
      expect(Object.keys(list?.queryParams ?? {}).sort()).toEqual(['format', 'page']);
      // The 200 answer is the one generic envelope (allOf) narrowed to the resource's item.
      const schema = node(list?.responses['200']?.schemaPointer ?? '');
      const allOf = schema.allOf as Record<string, unknown>[];
      expect(allOf.some((s) => s.$ref === '#/components/schemas/ListEnvelope')).toBe(true);
      expect(list?.responses['404']?.schemaPointer).toBeDefined();
      expect(node(list?.responses['404']?.schemaPointer ?? '').required).toEqual(['detail']);
    },
  );

  it('the envelope: count >= 0, next and previous absolute uri or null, all four required (§2.1)', () => {
    const env = node('#/components/schemas/ListEnvelope');
    expect(env.required).toEqual(['count', 'next', 'previous', 'results']);
    const props = env.properties as Record<string, Record<string, unknown>>;
    expect(props.count).toMatchObject({ type: 'integer', minimum: 0 });
    for (const link of ['next', 'previous'])
      expect(props[link]).toMatchObject({ type: ['string', 'null'], format: 'uri' });
  });

  it('the desk (§2.2): nine required fields with their shapes', () => {
    const desk = node('#/components/schemas/Desk');
    expect(desk.required).toEqual([
      'url',
      'pk',
      'building',
      'floor',
      'number',
      'active',
      'lead',
      'ergonomic',
      'held_today',
    ]);
    const p = desk.properties as Record<string, Record<string, unknown>>;
    expect(p.url).toMatchObject({ type: 'string', format: 'uri' });
    expect(p.pk).toMatchObject({ type: 'integer' });
    expect(p.building).toMatchObject({ type: 'string', pattern: '^[A-Z]$' });
    expect(p.floor).toMatchObject({ type: 'integer' });
    expect(p.number).toMatchObject({ type: 'string', pattern: '^[0-9]+[A-Za-z]*$' });
    for (const flag of ['active', 'lead', 'ergonomic', 'held_today'])
      expect(p[flag]).toMatchObject({ type: 'boolean' });
    const detail = operations.detailOf.get('/api/v1/desk');
    expect(detail?.itemPointer).toBe('#/components/schemas/Desk');
    expect(detail?.pkIsInteger).toBe(true);
  });

  it('the 19 other items: one named schema each, an object with no invented field', () => {
    const others = operations.lists.filter((l) => l.resource !== 'desk');
    expect(others).toHaveLength(19);
    for (const list of others) {
      expect(list.itemPointer).toMatch(/^#\/components\/schemas\/[A-Z][A-Za-z]+$/);
      const item = node(list.itemPointer);
      expect(item.type).toBe('object');
      expect(item.properties).toBeUndefined();
      expect(item.required).toBeUndefined();
    }
    expect(new Set(others.map((l) => l.itemName)).size).toBe(19);
  });

  it('names production and staging through a {base_url} variable, and declares the 405 of DRF', () => {
    const servers = doc.servers as { url: string; description: string; variables?: Record<string, unknown> }[];
    expect(
      servers
        .filter((s) => s.url === '{base_url}' && isObject(s.variables?.base_url))
        .map((s) => s.description.split('.')[0]),
    ).toEqual(['Production deployment', 'Staging deployment']);
    expect(node('#/components/responses/MethodNotAllowed').headers).toHaveProperty('Allow');
  });
});

describe('what a spec uses, gathered as its files are parsed', () => {
  it.each([
    ['the authored spec', SPEC],
    ["the designer's spec", path.join(ROOT, 'test/fixtures/designer/openapi.yaml')],
    ['the mini spec', path.join(ROOT, 'test/fixtures/mini/openapi.yaml')],
  ])('%s: what a walk of the bundled document finds (extensions: those and perhaps more)', async (_name, file) => {
    const spec = await loadSpec(file);
    const walked = scanDocument(spec.doc);
    expect(spec.scan.identifies).toBe(walked.identifies);
    expect(spec.scan.writeOnly).toBe(walked.writeOnly);
    expect(new Set(spec.scan.extensions)).toEqual(new Set([...spec.scan.extensions, ...walked.extensions]));
  });
});
