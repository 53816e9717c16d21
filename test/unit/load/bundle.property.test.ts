import path from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { writeFile } from 'node:fs/promises';
import { bundle } from '../../../src/load/bundle.js';
import { both, freshDir, published, same, seededRandom, useBundleHarness } from './bundle-harness.js';

// The bundler against the published library on many generated specs (npm run test:slow).
useBundleHarness();

describe('the bundler patched at install: the library output on generated specs', () => {
  it('1,000 random three-file specs: chains, sub-pointers, whole files, cycles, extended refs, $defs', async () => {
    const rand = seededRandom(12345);
    const keys = ['a', 'bb', 'definitions', '$defs', 'schemas', 'x', 'items', 'p~q', 'r/s', 'long_name_here', 'é'];
    const files = ['root.yaml', 'a.yaml', 'b.yaml'];
    let differing = 0;
    let failedAlike = 0;
    for (let round = 0; round < 1000; round++) {
      const dir = await freshDir();
      // Trees first, then some leaves turned into $refs to places that exist.
      const trees: Record<string, unknown>[] = [];
      const places: [number, string[]][] = [];
      const grow = (fileIndex: number, at: string[], depth: number): Record<string, unknown> => {
        const node: Record<string, unknown> = {};
        const n = 1 + rand(3);
        for (let i = 0; i < n; i++) {
          const k = keys[rand(keys.length)] as string;
          if (k in node) continue;
          places.push([fileIndex, [...at, k]]);
          node[k] =
            depth < 3 && rand(3) > 0
              ? grow(fileIndex, [...at, k], depth + 1)
              : rand(2) === 0
                ? 'leaf'
                : [{ type: 'string' }];
        }
        return node;
      };
      for (let f = 0; f < files.length; f++) trees.push(grow(f, [], 0));
      const nodeAt = (tree: unknown, at: string[]) =>
        at.reduce<unknown>(
          (o, k) => (o && typeof o === 'object' ? (o as Record<string, unknown>)[k] : undefined),
          tree,
        );
      // A few popular targets (and places beneath them), referenced from many places at many depths.
      // Refs start in the root half of the time (what the root does not reach is not bundled).
      const inFile = (f: number) => places.filter((p) => p[0] === f);
      const pick = (list: [number, string[]][]) => list[rand(list.length)] as [number, string[]];
      const popular = Array.from({ length: 1 + rand(4) }, () => pick(rand(4) === 0 ? places : inFile(1 + rand(2))));
      const refs = 4 + rand(16);
      for (let r = 0; r < refs; r++) {
        const [from, at] = rand(2) === 0 ? pick(inFile(0)) : pick(places);
        const [to, target] =
          rand(4) > 0
            ? (popular[rand(popular.length)] as [number, string[]])
            : (places[rand(places.length)] as [number, string[]]);
        const parent = nodeAt(trees[from], at.slice(0, -1));
        if (!parent || typeof parent !== 'object' || Array.isArray(parent)) continue;
        const pointer = target.map((t) => encodeURIComponent(t.replace(/~/g, '~0').replace(/\//g, '~1'))).join('/');
        const whole = rand(6) === 0;
        const fileRef = to === from ? '' : `./${files[to]}`;
        const ref: Record<string, unknown> = { $ref: whole && to !== from ? fileRef : `${fileRef}#/${pointer}` };
        if (rand(5) === 0) ref.description = 'extended';
        (parent as Record<string, unknown>)[at[at.length - 1] as string] = ref;
      }
      const root = { openapi: '3.1.0', info: { title: 'r', version: '1' }, paths: {}, ...trees[0] };
      await writeFile(path.join(dir, 'root.yaml'), stringify(root));
      await writeFile(path.join(dir, 'a.yaml'), stringify(trees[1]));
      await writeFile(path.join(dir, 'b.yaml'), stringify(trees[2]));
      const { ours, theirs, handed } = await both(path.join(dir, 'root.yaml'));
      if (!same(ours, theirs)) differing++;
      if ('error' in (theirs as object) ? !('error' in (handed as object)) : !same(handed, theirs)) differing++;
      if ('error' in (theirs as object)) failedAlike++;
    }
    expect(differing).toBe(0);
    // Most specs bundle; the cases the library refuses are refused alike.
    expect(failedAlike).toBeLessThan(500);
  });

  it('3,000 paths sharing components and an external file: the same document (the bench times it)', async () => {
    const dir = await freshDir();
    const paths: Record<string, unknown> = {};
    const schemas: Record<string, unknown> = {
      Envelope: { type: 'object', properties: { count: { type: 'integer' } } },
    };
    const external: Record<string, unknown> = {};
    for (let i = 0; i < 3000; i++) {
      external[`S${i}`] = { type: 'object', properties: { id: { type: 'integer' } } };
      schemas[`S${i}`] = { $ref: `./schemas.yaml#/S${i}` };
      schemas[`L${i}`] = {
        allOf: [
          { $ref: '#/components/schemas/Envelope' },
          { properties: { results: { items: { $ref: `#/components/schemas/S${i}` } } } },
        ],
      };
      paths[`/p${i}`] = {
        get: {
          responses: {
            '200': {
              description: 'ok',
              content: { 'application/json': { schema: { $ref: `#/components/schemas/L${i}` } } },
            },
          },
        },
      };
    }
    await writeFile(path.join(dir, 'schemas.yaml'), stringify(external));
    await writeFile(
      path.join(dir, 'root.yaml'),
      stringify({ openapi: '3.1.0', info: { title: 'big', version: '1' }, paths, components: { schemas } }),
    );
    const ours = await bundle(new SwaggerParser(), path.join(dir, 'root.yaml'), {});
    const theirs = await published().bundle(path.join(dir, 'root.yaml'));
    expect(same(ours, theirs)).toBe(true);
    expect(Object.keys((ours as { paths: object }).paths)).toHaveLength(3000);
  });
});
