import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { generateSync, type JsonSchema } from 'json-schema-faker';
import { describe, expect, it } from 'vitest';
import type { LoadProblem } from '../../../src/load/errors.js';
import { generationOptions, generationSchema } from '../../../src/load/finite-schema.js';
import { loadState } from '../../../src/load/state.js';
import { smallSpec } from './helpers.js';

/** A spec of one collection `/api/v1/node` (and its item path) whose item is `schemas.Node`. */
function specWith(schemas: Record<string, unknown>): string {
  return JSON.stringify(smallSpec({ node: { item: { $ref: '#/components/schemas/Node' } } }, { schemas }));
}

async function served(
  schemas: Record<string, unknown>,
): Promise<{ items: unknown[]; late: LoadProblem[]; doc: unknown }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'finite-'));
  await writeFile(path.join(dir, 'openapi.json'), specWith(schemas));
  const late: LoadProblem[] = [];
  const state = await loadState({
    specFile: path.join(dir, 'openapi.json'),
    fixturesDir: dir,
    seed: 1,
    defaultGenerateCount: 25,
    onLateProblem: (p) => late.push(p),
  });
  const collection = state.model.collections.get('/api/v1/node');
  const items = Array.from(
    (collection?.dynamic ?? collection?.items)?.items ?? [],
    (i) => JSON.parse(i.json) as unknown,
  );
  return { items, late, doc: state.spec.doc };
}

const pk = { type: 'integer', minimum: 1 };
const tree = {
  Node: {
    type: 'object',
    required: ['pk', 'name', 'children'],
    properties: {
      pk,
      name: { type: 'string', minLength: 1 },
      parent: { anyOf: [{ $ref: '#/components/schemas/Node' }, { type: 'null' }] },
      children: { type: 'array', items: { $ref: '#/components/schemas/Node' } },
    },
  },
};

/** How deep a generated tree goes, through `children` and `parent`. */
function levels(node: unknown): number {
  if (node === null || typeof node !== 'object') return 0;
  const n = node as { children?: unknown[]; parent?: unknown };
  return 1 + Math.max(0, levels(n.parent), ...(n.children ?? []).map(levels));
}

describe('a recursive item schema is generated finite and valid (json-schema-faker alone filled the deepest levels with placeholders that broke the schema)', () => {
  it('a tree: children and a nullable parent of the same schema', async () => {
    const { items, late } = await served(tree);
    // Every generated item kept: none broke its schema (pk 0 under minimum 1, an empty name).
    expect(late).toEqual([]);
    expect(items).toHaveLength(25);
    for (const item of items) {
      expect(levels(item)).toBe(2);
      const node = item as { children: { pk: number; name: string; parent: unknown; children: unknown[] }[] };
      expect(node.children.length).toBeGreaterThan(0);
      for (const child of node.children) {
        expect(child.pk).toBeGreaterThanOrEqual(1);
        expect(child.name.length).toBeGreaterThan(0);
        expect(child.parent).toBeNull();
        expect(child.children).toEqual([]);
      }
    }
  });

  it('through a second schema and a oneOf (Node -> Edge -> Node)', async () => {
    const { items, late } = await served({
      Node: {
        type: 'object',
        required: ['pk', 'edges'],
        properties: { pk, edges: { type: 'array', items: { $ref: '#/components/schemas/Edge' } } },
      },
      Edge: {
        type: 'object',
        required: ['weight'],
        properties: {
          weight: { type: 'integer', minimum: 5 },
          to: { oneOf: [{ $ref: '#/components/schemas/Node' }, { type: 'null' }] },
        },
      },
    });
    expect(late).toEqual([]);
    expect(items).toHaveLength(25);
  });

  it('the same seed gives the same items', async () => {
    expect((await served(tree)).items).toEqual((await served(tree)).items);
  });

  it('a schema without a cycle is handed over as it was (the generated data of every other spec is unchanged)', async () => {
    const { doc } = await served({
      Node: { type: 'object', required: ['pk'], properties: { pk, tag: { $ref: '#/components/schemas/Tag' } } },
      Tag: { type: 'string', minLength: 2 },
    });
    expect(generationSchema(doc, '#/components/schemas/Node')).toEqual({
      schema: { $ref: '#/components/schemas/Node' },
      finite: true,
    });
  });

  it("a deep schema without a cycle: past the generator's default depth its members still follow their schema", async () => {
    let inner: Record<string, unknown> = { type: 'object', required: ['pk'], properties: { pk } };
    for (let i = 0; i < 8; i++) inner = { type: 'object', required: ['pk', 'next'], properties: { pk, next: inner } };
    const { items, late } = await served({ Node: inner });
    expect(late).toEqual([]);
    expect(items).toHaveLength(25);
  });

  it.each<[string, Record<string, unknown>]>([
    [
      'a required member that is the object itself (no finite value)',
      {
        Node: {
          type: 'object',
          required: ['pk', 'self'],
          properties: { pk, self: { $ref: '#/components/schemas/Node' } },
        },
      },
    ],
    [
      'a cycle under `not`',
      {
        Node: {
          type: 'object',
          required: ['pk'],
          properties: { pk, x: { not: { $ref: '#/components/schemas/Node' } } },
        },
      },
    ],
    [
      'a cycle in a tuple (prefixItems)',
      {
        Node: {
          type: 'object',
          required: ['pk'],
          properties: {
            pk,
            pair: { type: 'array', prefixItems: [{ $ref: '#/components/schemas/Node' }], minItems: 1, items: false },
          },
        },
      },
    ],
  ])('%s: left to the generator as before, its depth limit kept', async (_name, schemas) => {
    const { doc } = await served(schemas);
    expect(generationSchema(doc, '#/components/schemas/Node')).toEqual({
      schema: { $ref: '#/components/schemas/Node' },
      finite: false,
    });
  });
});

// An item as a designer declares it: DRF's CharField refuses "" unless the schema allows blank.
const DOC = {
  components: {
    schemas: {
      Employee: {
        type: 'object',
        required: ['name', 'nickname', 'code', 'team'],
        properties: {
          name: { type: 'string', maxLength: 3 },
          nickname: { type: 'string', minLength: 0, maxLength: 3 },
          code: { type: 'string', pattern: '^[A-Z]{2}$' },
          team: { $ref: '#/components/schemas/Team' },
          tags: { type: 'array', items: { type: 'string', maxLength: 2 } },
        },
      },
      Team: {
        type: 'object',
        required: ['title'],
        properties: { title: { type: ['string', 'null'], maxLength: 2 } },
      },
    },
  },
};

function generate(count: number) {
  const item = generationSchema(DOC, '#/components/schemas/Employee');
  const schema = { type: 'array', minItems: count, maxItems: count, items: item.schema } as JsonSchema;
  return generateSync(schema, generationOptions(DOC, 7, item.finite)) as {
    name: string;
    nickname: string;
    code: string;
    team: { title: string | null };
    tags?: string[];
  }[];
}

describe('generated data keeps the rules the stub’s own writes apply', () => {
  const items = generate(300);

  it('a string without minLength is never blank (a CharField refuses "")', () => {
    expect(items).toHaveLength(300);
    expect(items.filter((e) => e.name === '')).toEqual([]);
    expect(items.filter((e) => e.team.title === '')).toEqual([]);
    expect(items.flatMap((e) => e.tags ?? []).filter((t) => t === '')).toEqual([]);
  });

  it('what the schema says of its own is kept: minLength 0 may be blank, a pattern is followed', () => {
    for (const e of items) {
      expect(e.name.length).toBeLessThanOrEqual(3);
      expect(e.code).toMatch(/^[A-Z]{2}$/);
      expect(e.nickname.length).toBeLessThanOrEqual(3);
    }
  });

  it('the same seed, the same items', () => {
    expect(generate(300)).toEqual(items);
  });
});
