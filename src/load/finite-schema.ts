import type { JsonSchema } from 'json-schema-faker';
import { follow, isObject } from '../openapi/pointer.js';
import { SCHEMA, SCHEMA_LIST, SCHEMA_MAP } from './schema-keywords.js';

/**
 * A schema to generate data from, for json-schema-faker: the schema at `pointer` as it is (a
 * `$ref` to it, resolved by the generator), unless a `$ref` under it leads back to itself (a tree:
 * `children: {items: {$ref: Node}}`, `parent: {anyOf: [{$ref: Node}, {type: 'null'}]}`). The
 * generator follows such a cycle to its depth limit, then fills the required members of what it
 * is making with placeholders that ignore their schema (`pk: 0` under `minimum: 1`), so that every
 * item broke its own schema and the collection was served empty. A recursive schema is expanded
 * instead: each `$ref` inlined, a `$ref` already met twice on the way cut off where the schema
 * lets a value end without it (an array then empty, an `anyOf`/`oneOf` without that branch, an
 * optional member left out), so that what is generated is finite and valid: a tree two levels
 * deep. A cycle the schema gives no way out of (a required member that is the object itself), or
 * one in a place this does not reason about (`not`, `if`, `prefixItems`, …), leaves the schema as
 * it is, and the generator as before.
 *
 * `finite`: the schema holds no cycle (so the generator's depth limit need not stop it).
 */
export function generationSchema(doc: unknown, pointer: string): { schema: Record<string, unknown>; finite: boolean } {
  const asIs = { $ref: pointer };
  const expansion = new Expansion(doc);
  let expanded: Expanded;
  try {
    expanded = expansion.schema(asIs, []);
  } catch (e) {
    if (e instanceof GiveUp) return { schema: asIs, finite: false };
    throw e;
  }
  // A `$ref` left where the expansion does not go (a draft-04 tuple, `dependencies`, …) may hide a cycle.
  if (expanded === CUT || !isObject(expanded) || holdsRef(expanded)) return { schema: asIs, finite: false };
  return { schema: expansion.cycles ? (blankless(expanded) as Record<string, unknown>) : asIs, finite: true };
}

/**
 * A schema as the stub's own writes read it: a string with no `minLength` (nor `enum`, `const`,
 * `format` or `pattern` of its own) is DRF's CharField, whose `allow_blank` is false, so that the
 * stub refuses `""` in a write. Generated data keeps that rule: such a string gets `minLength: 1`
 * (`minLength: 0` says blank is allowed, and stays). Data members are left as they are.
 */
function blankless(node: unknown, seen = new WeakMap<object, unknown>()): unknown {
  if (Array.isArray(node)) return node.map((n) => blankless(n, seen));
  if (!isObject(node)) return node;
  const done = seen.get(node);
  if (done !== undefined) return done;
  const out: Record<string, unknown> = {};
  seen.set(node, out);
  for (const [k, v] of Object.entries(node)) out[k] = DATA.has(k) ? v : blankless(v, seen);
  const types = Array.isArray(node.type) ? node.type : [node.type];
  const free = ['minLength', 'enum', 'const', 'format', 'pattern'].every((k) => node[k] === undefined);
  if (types.includes('string') && free) out.minLength = 1;
  return out;
}

/** Data, not schemas: a `$ref` member in them is a value. */
const DATA = new Set(['enum', 'const', 'default', 'examples', 'example', '$defs', 'definitions']);

/** A `$ref` member anywhere in an expanded schema, but in its data. */
function holdsRef(node: unknown): boolean {
  if (Array.isArray(node)) return node.some(holdsRef);
  if (!isObject(node)) return false;
  for (const [key, value] of Object.entries(node)) {
    if (key === '$ref') return true;
    if (!DATA.has(key) && !key.startsWith('x-') && holdsRef(value)) return true;
  }
  return false;
}

/** Where a `$ref` met for the third time on its way was cut off. */
const CUT = Symbol('cut');
type Expanded = unknown;

class GiveUp extends Error {}

/** How often one `$ref` may stand on the way from the item to a place: the item, and its children. */
const TIMES = 2;
/** Nodes made at most (a schema whose expansion is larger is left as it is). */
const MAX_NODES = 20_000;

/**
 * Keywords whose value is one schema (a cut is resolved under `items` only): the lint's, and
 * `contentSchema` (a schema too, which the lint leaves to Ajv as an annotation).
 */
const ONE = [...SCHEMA, 'contentSchema'];
/** Keywords whose value is a list of schemas. */
const LIST = [...SCHEMA_LIST];
/** Keywords whose value is a map of schemas, but definitions (data here: see DATA). */
const MAP = [...SCHEMA_MAP].filter((k) => !DATA.has(k));

class Expansion {
  cycles = false;
  #nodes = 0;
  constructor(readonly doc: unknown) {}

  schema(node: unknown, path: readonly string[]): Expanded {
    if (++this.#nodes > MAX_NODES) throw new GiveUp();
    if (!isObject(node)) return node;
    const ref = node.$ref;
    if (ref !== undefined) {
      if (typeof ref !== 'string' || !ref.startsWith('#')) throw new GiveUp();
      // The place a chain of `$ref`s ends at: what is counted on the way.
      const { pointer, node: target } = follow(this.doc, ref);
      if (target === undefined) throw new GiveUp();
      const times = path.filter((p) => p === pointer).length;
      if (times > 0) this.cycles = true;
      if (times >= TIMES) return CUT;
      const inner = this.schema(target, [...path, pointer]);
      const { $ref: _ref, ...siblings } = node;
      if (Object.keys(siblings).length === 0) return inner;
      if (inner === CUT) return CUT;
      return { allOf: [inner, this.members(siblings, path)] };
    }
    return this.members(node, path);
  }

  /** A schema object that is no `$ref`: each subschema expanded, and a cut resolved where it can be. */
  members(node: Record<string, unknown>, path: readonly string[]): Expanded {
    const out: Record<string, unknown> = { ...node };
    for (const key of ONE) {
      if (!(key in node) || typeof node[key] === 'boolean') continue;
      if (!isObject(node[key])) throw new GiveUp();
      const sub = this.schema(node[key], path);
      if (sub !== CUT) out[key] = sub;
      else if (key !== 'items') throw new GiveUp();
      else if (typeof node.minItems === 'number' && node.minItems > 0) return CUT;
      else {
        // No item can be made: the array is empty.
        delete out.items;
        out.maxItems = 0;
      }
    }
    for (const key of LIST) {
      if (!Array.isArray(node[key])) continue;
      const subs = (node[key] as unknown[]).map((s) => this.schema(s, path));
      if (!subs.includes(CUT)) out[key] = subs;
      else if (key === 'allOf') return CUT;
      else if (key === 'prefixItems') throw new GiveUp();
      else {
        const left = subs.filter((s) => s !== CUT);
        if (left.length === 0) return CUT;
        out[key] = left;
      }
    }
    for (const key of MAP) {
      if (!isObject(node[key])) continue;
      const map: Record<string, unknown> = {};
      for (const [name, s] of Object.entries(node[key])) {
        const sub = this.schema(s, path);
        if (sub !== CUT) map[name] = sub;
        else if (key !== 'properties') throw new GiveUp();
        else if (Array.isArray(node.required) && node.required.includes(name)) return CUT;
        // An optional member that cannot be made is left out.
      }
      out[key] = map;
    }
    return out;
  }
}

/**
 * The generator's depth limit for a schema known to be finite: past its default (5 levels) the
 * generator fills an object's required members with placeholders that ignore their schema.
 */
const FINITE_MAX_DEPTH = 64;

/**
 * json-schema-faker's options for a schema of the spec (`generationSchema`'s answer), per call,
 * never global: the seed, every optional member made, no member the schema does not describe,
 * `$ref`s resolved in the bundled spec, and no depth limit short of a finite schema's own depth.
 */
export function generationOptions(doc: unknown, seed: number, finite: boolean) {
  const resolved = new WeakMap<object, unknown>();
  return {
    seed,
    alwaysFakeOptionals: true,
    fillProperties: false,
    refResolver: (ref: string): JsonSchema => {
      const { node } = follow(doc, ref.startsWith('#') ? ref : `#${ref}`);
      return (isObject(node) ? blankless(node, resolved) : {}) as JsonSchema;
    },
    ...(finite ? { maxDepth: FINITE_MAX_DEPTH } : {}),
  };
}
