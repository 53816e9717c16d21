import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type CollectionInput, compileModel, type Model } from '../../../src/core/model.js';
import { reloadSummary } from '../../../src/load/reload-summary.js';
import { readOperations } from '../../../src/openapi/operations.js';
import { smallSpec } from './helpers.js';

const item = { type: 'object', required: ['pk'], properties: { pk: { type: 'integer' } } };
const pks = (n: number) => Array.from({ length: n }, (_, i) => ({ pk: i + 1 }));

/** A model of the collections named, each served as said; `extra` paths added to the spec. */
function model(
  collections: Record<string, Pick<CollectionInput, 'source' | 'from'> & { count: number }>,
  extra: Record<string, unknown> = {},
): Model {
  const doc = smallSpec(Object.fromEntries(Object.keys(collections).map((c) => [c, { item }])), { paths: extra });
  const { operations } = readOperations(doc, 'openapi.yaml');
  const inputs = Object.fromEntries(
    Object.entries(collections).map(([c, { source, from, count }]) => [
      `/api/v1/${c}`,
      { source, from, items: pks(count), examples: {} },
    ]),
  );
  return compileModel(doc, operations, inputs, {});
}
const fixture = (name: string, count: number) => ({ source: 'fixture' as const, from: `fixtures/${name}.json`, count });
const generated = (count: number) => ({ source: 'generated' as const, from: 'openapi.yaml (generated)', count });
const ROOT = path.join(process.cwd(), 'openapi', 'openapi.yaml');
const view = { '/api/v1/me': { get: { operationId: 'me', responses: { '200': { description: 'ok' } } } } };

describe('reloadSummary: what a reload changed in what is served, in one line', () => {
  it.each<[string, Model, Model, string[], string]>([
    [
      'nothing served changed: the root file named',
      model({ desk: fixture('desk', 2) }),
      model({ desk: fixture('desk', 2) }),
      [],
      'reloaded openapi/openapi.yaml: nothing served changed',
    ],
    [
      'a fixture grew: the files that changed, its count',
      model({ desk: fixture('desk', 2) }),
      model({ desk: fixture('desk', 3) }),
      [path.join(process.cwd(), 'fixtures', 'desk.json')],
      'reloaded fixtures/desk.json: desk.json 2 → 3 items',
    ],
    [
      'generated items counted by the collection path',
      model({ desk: generated(25) }),
      model({ desk: generated(1) }),
      [],
      'reloaded openapi/openapi.yaml: /api/v1/desk 25 → 1 item',
    ],
    [
      'served from elsewhere: where from, before and after',
      model({ desk: fixture('desk', 2) }),
      model({ desk: generated(25) }),
      [],
      'reloaded openapi/openapi.yaml: /api/v1/desk: fixture desk.json, 2 items → generated, 25 items',
    ],
    [
      'the same source from another file',
      model({ desk: fixture('desk', 2) }),
      model({ desk: fixture('desks', 2) }),
      [],
      'reloaded openapi/openapi.yaml: /api/v1/desk: fixture desk.json, 2 items → fixture desks.json, 2 items',
    ],
    [
      'collections and operations added and removed',
      model({ desk: fixture('desk', 1), room: fixture('room', 1) }),
      model({ desk: fixture('desk', 1), tag: fixture('tag', 1), chair: fixture('chair', 1) }, view),
      ['/elsewhere/a.yaml', '/elsewhere/b.yaml'],
      'reloaded /elsewhere/a.yaml, /elsewhere/b.yaml: +2 collections /api/v1/tag, /api/v1/chair; −1 collection /api/v1/room; ' +
        '+5 operations list-tag, get-tag, list-chair, get-chair, me; −2 operations list-room, get-room',
    ],
  ])('%s', (_name, before, next, changed, want) => {
    expect(reloadSummary(before, next, changed, ROOT)).toBe(want);
  });
});
