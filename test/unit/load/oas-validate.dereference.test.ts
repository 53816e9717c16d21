import { isDeepStrictEqual } from 'node:util';
import { $RefParser } from '@apidevtools/json-schema-ref-parser';
import { describe, expect, it } from 'vitest';
import { bundleSpec } from '../../../src/load/spec.js';
import { published, type RefParser, REPOSITORY_SPECS, seededRandom, useBundleHarness } from './bundle-harness.js';

// validateDocument (src/load/oas-validate.ts) dereferences with the library, whose crawl is
// patched at install (patches/: a key's path made a string only when read): the patched
// library's output must be the published one's, whatever the $refs.

useBundleHarness();

const OPTIONS = { resolve: { external: false }, dereference: { circular: 'ignore' } } as const;

/** A value written out with the sharing of its objects (a second meeting is `<n>`), cycles included. */
function shape(value: unknown): string {
  const ids = new Map<object, number>();
  const walk = (v: unknown): unknown => {
    if (v === null || typeof v !== 'object') return v;
    const id = ids.get(v);
    if (id !== undefined) return `<${id}>`;
    ids.set(v, ids.size);
    if (Array.isArray(v)) return v.map(walk);
    return Object.fromEntries(Object.keys(v).map((k) => [k, walk((v as Record<string, unknown>)[k])]));
  };
  return JSON.stringify(walk(value));
}

type Outcome = { value: string; circular: boolean } | { error: string };

async function dereferenceWith(parser: RefParser, doc: unknown): Promise<Outcome> {
  try {
    const value = await parser.dereference(structuredClone(doc), OPTIONS);
    return { value: shape(value), circular: parser.$refs.circular };
  } catch (e) {
    return { error: `${(e as Error).name}: ${(e as Error).message}` };
  }
}
const libraryDereference = (doc: unknown) => dereferenceWith(published().newParser(), doc);
const patchedDereference = (doc: unknown) => dereferenceWith(new $RefParser() as unknown as RefParser, doc);

const bundled = async (root: string) => (await bundleSpec(root, undefined, undefined, 'inline')).spec.doc;

/**
 * A random document of internal `$ref`s: trees, then leaves turned into refs to places that exist
 * (whole subtrees, the root, places inside other refs' targets, themselves), some extended with a
 * sibling, some to places that do not exist.
 */
function randomDocument(rand: (n: number) => number): Record<string, unknown> {
  const keys = ['a', 'bb', 'items', 'p~q', 'r/s', 'é', '$defs', 'description', 'x y', '0'];
  const places: string[][] = [];
  const grow = (at: string[], depth: number): Record<string, unknown> | unknown[] => {
    if (rand(6) === 0)
      return Array.from(
        { length: 1 + rand(3) },
        (_, i) => (places.push([...at, String(i)]), depth < 3 ? grow([...at, String(i)], depth + 1) : 'leaf'),
      );
    const node: Record<string, unknown> = {};
    for (let i = 0, n = 1 + rand(3); i < n; i++) {
      const k = keys[rand(keys.length)] as string;
      if (k in node) continue;
      places.push([...at, k]);
      node[k] = depth < 3 && rand(3) > 0 ? grow([...at, k], depth + 1) : rand(2) === 0 ? 'leaf' : { type: 'string' };
    }
    return node;
  };
  const tree = { x: grow(['x'], 0), y: grow(['y'], 0) } as Record<string, unknown>;
  places.unshift(['x'], ['y']);
  const nodeAt = (at: string[]) =>
    at.reduce<unknown>((o, k) => (o && typeof o === 'object' ? (o as Record<string, unknown>)[k] : undefined), tree);
  // A third of the documents have their refs under x and their targets under y (no cycle can
  // form); the others have them anywhere. One in eight has a ref to nowhere.
  const acyclic = rand(3) === 0;
  const from = acyclic ? places.filter((p) => p[0] === 'x' && p.length > 1) : places;
  const to = acyclic ? places.filter((p) => p[0] === 'y') : places;
  const popular = Array.from({ length: 1 + rand(3) }, () => to[rand(to.length)] as string[]);
  const dangling = rand(8) === 0 ? rand(4) : -1;
  for (let r = 0, refs = 1 + rand(5); r < refs; r++) {
    const at = from[rand(from.length)] as string[];
    const parent = nodeAt(at.slice(0, -1));
    if (!parent || typeof parent !== 'object') continue;
    const target =
      rand(4) > 0
        ? (popular[rand(popular.length)] as string[])
        : !acyclic && rand(8) === 0
          ? []
          : (to[rand(to.length)] as string[]);
    const pointer = target.map((t) => encodeURIComponent(t.replace(/~/g, '~0').replace(/\//g, '~1'))).join('/');
    const ref: Record<string, unknown> = {
      $ref: r === dangling ? '#/nowhere/at/all' : target.length === 0 ? '#' : `#/${pointer}`,
    };
    if (rand(4) === 0) ref.description = 'extended';
    if (rand(10) === 0) ref[keys[rand(keys.length)] as string] = { type: 'integer' };
    (parent as Record<string, unknown>)[at[at.length - 1] as string] = ref;
  }
  return { openapi: '3.1.0', info: { title: 'r', version: '1' }, paths: {}, ...tree };
}

describe("the library's dereference step, patched: the published library's document", () => {
  it.each(REPOSITORY_SPECS)('%s', async (_name, file) => {
    const doc = await bundled(file);
    const theirs = await libraryDereference(doc);
    expect('value' in theirs).toBe(true);
    expect(await patchedDereference(doc)).toEqual(theirs);
  });

  it.each<[string, Record<string, unknown>]>([
    // The second $ref meets the first one's cached value: its siblings are added where the value has none of that name.
    [
      'an extended $ref to a value met before, with a sibling the value has',
      {
        a: { $ref: '#/defs/T' },
        b: { $ref: '#/defs/T', description: 'mine', title: 'added' },
        defs: { T: { description: 'theirs', type: 'object' } },
      },
    ],
    [
      'an extended $ref first, then a plain one',
      { a: { $ref: '#/defs/T', description: 'mine' }, b: { $ref: '#/defs/T' }, defs: { T: { description: 'theirs' } } },
    ],
    [
      'a chain through a circular value, met twice',
      {
        a: { $ref: '#/defs/L' },
        b: { $ref: '#/defs/L', description: 'x' },
        defs: { L: { next: { $ref: '#/defs/L' } } },
      },
    ],
    ['a $ref to the whole document', { a: { b: { $ref: '#' } } }],
    ['a $ref to itself', { a: { $ref: '#/a' } }],
    // A direct cycle takes the path it was met by; a later $ref to it is crawled again.
    [
      'a $ref to itself, reached first from elsewhere, then again',
      { b: { $ref: '#/a' }, a: { $ref: '#/a' }, c: { $ref: '#/a' } },
    ],
    [
      'a deeper $ref to itself, reached from three places',
      { c: { d: { $ref: '#/a/x' } }, a: { x: { $ref: '#/a/x' } }, e: { $ref: '#/a/x' }, f: [{ $ref: '#/a/x' }] },
    ],
  ])('%s', async (_name, members) => {
    const doc = { openapi: '3.1.0', info: { title: 't', version: '1' }, paths: {}, ...members };
    const theirs = await libraryDereference(doc);
    expect(await patchedDereference(doc)).toEqual(theirs);
  });

  it('2,000 random documents: chains, cycles, self-references, the root, extended and dangling refs, arrays', async () => {
    const rand = seededRandom(4242);
    let circular = 0;
    let failed = 0;
    for (let round = 0; round < 2000; round++) {
      const doc = randomDocument(rand);
      const theirs = await libraryDereference(doc);
      const ours = await patchedDereference(doc);
      if (!isDeepStrictEqual(ours, theirs)) expect({ doc, ours }).toEqual({ doc, ours: theirs });
      if ('circular' in theirs && theirs.circular) circular++;
      if ('error' in theirs) failed++;
    }
    // The corpus holds each kind of case, many times.
    expect(circular).toBeGreaterThan(200);
    expect(failed).toBeGreaterThan(50);
    expect(2000 - failed - circular).toBeGreaterThan(200);
  });
});
