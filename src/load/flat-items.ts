import type { ValidateFunction } from 'ajv';
import { getAt, isObject } from '../openapi/pointer.js';
import type { PreparedItem } from '../core/prepared-items.js';
import { type CheckContext, validationUrlOf } from './items.js';

/**
 * Flat items read straight from their bytes. A fixture of a million desks is a million small
 * objects whose members are all strings, integers, booleans or null: parsing each into an object,
 * validating the object and dropping it is most of a start-up's time and garbage. For an item
 * schema that constrains nothing but its members one by one (type, properties, required), an item
 * is matched here in one pass over its bytes: each member's value is checked by Ajv's own validator
 * of that member's schema (answers kept for short values: a million desks hold a few dozen distinct
 * buildings and booleans), and the item becomes the same PreparedItem the parsed path would make.
 *
 * The matcher only ever accepts: anything it does not take for certain (white space, an escape, a
 * fraction, a non-ASCII byte, a nested value, a member out of order or not described, a member
 * missing, a value its schema refuses, malformed JSON) answers undefined, and the item goes the
 * parsed way, which reports whatever is wrong with it, as before. An item it accepts is one the
 * parsed way accepts, with the same pk and the same text.
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_OBJ = 0x7b;
const CLOSE_OBJ = 0x7d;
const MINUS = 0x2d;
const ZERO = 0x30;
const NINE = 0x39;

/** Keywords of an object schema that assert nothing of an item whose every member is described. */
const ANNOTATIONS = new Set([
  'description',
  'title',
  'examples',
  'example',
  'default',
  'deprecated',
  'readOnly',
  'writeOnly',
  '$comment',
  'externalDocs',
  'xml',
  'discriminator',
  '$defs',
  // Applies to members `properties` does not name: the matcher takes no such item.
  'additionalProperties',
]);
const isAnnotation = (k: string) => ANNOTATIONS.has(k) || k.startsWith('x-');
/** Keywords that change what a `$ref` into a subschema means: no matcher where they stand. */
const SCOPING = /"\$(id|anchor|dynamicAnchor|dynamicRef|recursiveRef|recursiveAnchor)"/;
/** Property names that stand in a JSON pointer and a URI fragment as they are. */
const PLAIN_NAME = /^[A-Za-z0-9_-]+$/;

/** The item schema as an object schema, through `$ref`s that have only annotations beside them. */
function objectSchema(doc: unknown, pointer: string): { pointer: string; node: Record<string, unknown> } | undefined {
  let at = pointer.startsWith('#') ? pointer : `#${pointer}`;
  for (let hops = 0; hops < 16; hops++) {
    const node = getAt(doc, at);
    if (!isObject(node)) return undefined;
    if (typeof node.$ref !== 'string') return { pointer: at, node };
    if (!node.$ref.startsWith('#/') || Object.keys(node).some((k) => k !== '$ref' && !isAnnotation(k)))
      return undefined;
    at = node.$ref;
  }
  return undefined;
}

// Kinds of value.
const STRING = 1;
const INTEGER = 2;
const TRUE = 3;
const FALSE = 4;
const NULL = 5;
const KINDS = 8;
// What is known of a kind of value for a member without asking its validator.
const ASK = 0;
const VALID = 1;
const INVALID = 2;
const MAX_REMEMBERED = 1 << 16;
/** `true`, `alse` (of false) and `null` as little-endian 32-bit words. */
const word = (s: string) => Buffer.from(s, 'latin1').readInt32LE(0);
const TRUE_WORD = word('true');
const ALSE_WORD = word('alse');
const NULL_WORD = word('null');

/**
 * Which kinds of value a member's schema takes whatever the value: a schema of a type and
 * annotations only takes every string (type string), every integer (integer or number).
 */
function takesEvery(schema: unknown): { string: boolean; integer: boolean } {
  if (schema === true) return { string: true, integer: true };
  if (!isObject(schema) || Object.keys(schema).some((k) => k !== 'type' && !isAnnotation(k)))
    return { string: false, integer: false };
  const types =
    schema.type === undefined ? ['string', 'integer'] : Array.isArray(schema.type) ? schema.type : [schema.type];
  return { string: types.includes('string'), integer: types.includes('integer') || types.includes('number') };
}

/**
 * The matcher for a collection's stored items, or undefined when its item schema asks more of an
 * item than its members one by one (then every item is parsed). `fields` are the item's fields in
 * the order served (the schema's `properties`).
 */
export function flatItemMatcher(
  doc: unknown,
  ctx: CheckContext,
  fields: readonly string[],
  kept: readonly string[] = [],
): FlatItems | undefined {
  const found = objectSchema(doc, ctx.list.itemPointer);
  if (!found) return undefined;
  const { node } = found;
  for (const k of Object.keys(node))
    if (k !== 'type' && k !== 'properties' && k !== 'required' && !isAnnotation(k)) return undefined;
  const type = node.type;
  if (type !== undefined && type !== 'object' && !(Array.isArray(type) && type.includes('object'))) return undefined;
  if (!isObject(node.properties) || SCOPING.test(JSON.stringify(node.properties))) return undefined;
  const names = Object.keys(node.properties);
  if (
    names.length === 0 ||
    names.length !== fields.length ||
    names.some((n, i) => n !== fields[i] || !PLAIN_NAME.test(n))
  )
    return undefined;
  const urlIndex = ctx.withUrl ? names.indexOf('url') : -1;
  // The parsed way serializes again an item whose url goes after other members.
  if (ctx.withUrl && urlIndex !== 0) return undefined;
  const required = node.required ?? [];
  if (!Array.isArray(required) || required.some((r) => typeof r !== 'string' || !names.includes(r))) return undefined;
  const validators = names.map((n) => ctx.ajv.validator(`${found.pointer}/properties/${n}`));
  // Every item is validated with the same url: one check for all.
  if (ctx.withUrl && !(validators[urlIndex] as ValidateFunction)(validationUrlOf(ctx))) return undefined;
  const schemas = names.map((n) => (node.properties as Record<string, unknown>)[n]);
  return new FlatItems(
    names,
    schemas,
    validators,
    required as string[],
    urlIndex,
    ctx.lookup === undefined ? -1 : names.indexOf(ctx.lookup),
    kept,
  );
}

/** A flat item schema's matcher (see above): scan finds and checks an item, prepare makes it. */
export class FlatItems {
  /** Where the last item scanned holds its pk's value, and the kind of that value (0: none). */
  #pkFrom = -1;
  #pkTo = -1;
  #pkKind = 0;
  /** The place in `kept` of each member (-1: not kept), and where the last item scanned holds each kept one. */
  readonly #keptSlot: Int32Array;
  /** What a parsed item lacking each kept member reads of it (undefined, unless inherited). */
  readonly #absent: readonly unknown[];
  readonly #keptFrom: Int32Array;
  readonly #keptTo: Int32Array;
  readonly #keptKind: Uint8Array;
  /** `"name":` as bytes, per member. */
  readonly #keys: readonly Buffer[];
  /** The same, as little-endian 32-bit words (whole ones only). */
  readonly #keyWords: readonly Int32Array[];
  #viewOf: Buffer | undefined;
  #view: DataView | undefined;
  readonly #isRequired: readonly boolean[];
  readonly #requiredCount: number;
  /** Answers for short values (up to 6 bytes: packed in a number), per member. */
  readonly #remembered: readonly Map<number, boolean>[];
  /** Per member and kind of value: VALID or INVALID whatever the value, else ASK its validator. */
  readonly #known: Uint8Array;

  constructor(
    names: readonly string[],
    schemas: readonly unknown[],
    private readonly validators: readonly ValidateFunction[],
    required: readonly string[],
    /** The url member (built per request): never taken (a stored url is a fault the parsed way reports). */
    private readonly urlIndex: number,
    private readonly lookupIndex: number,
    /** Members whose values `pushKept` gives of the last item scanned (a queryset's fields). */
    kept: readonly string[],
  ) {
    const plain: Record<string, unknown> = {};
    this.#absent = kept.map((n) => plain[n]);
    this.#keptSlot = Int32Array.from(names, (n) => kept.indexOf(n));
    this.#keptFrom = new Int32Array(kept.length);
    this.#keptTo = new Int32Array(kept.length);
    this.#keptKind = new Uint8Array(kept.length);
    this.#keys = names.map((n) => Buffer.from(`"${n}":`, 'latin1'));
    this.#keyWords = this.#keys.map((k) => Int32Array.from({ length: k.length >> 2 }, (_, w) => k.readInt32LE(w * 4)));
    this.#isRequired = names.map((n, i) => i !== urlIndex && required.includes(n));
    this.#requiredCount = this.#isRequired.filter(Boolean).length;
    this.#remembered = names.map(() => new Map<number, boolean>());
    this.#known = new Uint8Array(names.length * KINDS);
    names.forEach((_, k) => {
      const every = takesEvery(schemas[k]);
      const validate = validators[k] as ValidateFunction;
      const known = this.#known;
      if (every.string) known[k * KINDS + STRING] = VALID;
      if (every.integer) known[k * KINDS + INTEGER] = VALID;
      known[k * KINDS + TRUE] = validate(true) ? VALID : INVALID;
      known[k * KINDS + FALSE] = validate(false) ? VALID : INVALID;
      known[k * KINDS + NULL] = validate(null) ? VALID : INVALID;
    });
  }

  /**
   * The end (exclusive) of the flat object item at `start` of `b` (read no further than `limit`),
   * every member described, in order, and valid; or -1. Notes where its pk stands.
   */
  scan(b: Buffer, start: number, limit: number): number {
    if (b[start] !== OPEN_OBJ) return -1;
    const keys = this.#keys;
    const isRequired = this.#isRequired;
    const urlIndex = this.urlIndex;
    const knownOf = this.#known;
    const keyWords = this.#keyWords;
    if (this.#viewOf !== b) {
      this.#viewOf = b;
      this.#view = new DataView(b.buffer, b.byteOffset, b.length);
    }
    const view = this.#view as DataView;
    let i = start + 1;
    let next = 0;
    let requiredSeen = 0;
    this.#pkKind = 0;
    const keptSlot = this.#keptSlot;
    this.#keptKind.fill(0);
    // No byte is read from `limit` on (a read past a typed array's end costs the optimized code).
    for (;;) {
      // The member: the next described one in order whose `"name":` stands here (a value follows).
      let k = next;
      for (; k < keys.length; k++) {
        if (k === urlIndex) continue;
        const key = keys[k] as Buffer;
        const words = keyWords[k] as Int32Array;
        if (i + key.length >= limit) return -1;
        // Four bytes at a time, then the rest.
        let m = 0;
        let w = 0;
        while (w < words.length && view.getInt32(i + m, true) === words[w]) {
          w++;
          m += 4;
        }
        if (w < words.length) continue;
        while (m < key.length && b[i + m] === key[m]) m++;
        if (m === key.length) break;
      }
      if (k === keys.length) return -1;
      i += (keys[k] as Buffer).length;
      next = k + 1;
      if (isRequired[k]) requiredSeen++;
      const from = i;
      const c = b[i] as number;
      let kind: number;
      if (c === QUOTE) {
        i++;
        for (;;) {
          if (i >= limit) return -1;
          const x = b[i] as number;
          if (x === QUOTE) break;
          if (x < 0x20 || x >= 0x80 || x === BACKSLASH) return -1;
          i++;
        }
        i++;
        kind = STRING;
      } else if (c === MINUS || (c >= ZERO && c <= NINE)) {
        if (c === MINUS) i++;
        // -0 is written 0, fractions and exponents otherwise: the parsed way serializes those again.
        if (i >= limit) return -1;
        const d = b[i] as number;
        if (d === ZERO && c !== MINUS) i++;
        else if (d > ZERO && d <= NINE) {
          i++;
          while (i < limit && (b[i] as number) >= ZERO && (b[i] as number) <= NINE) i++;
        } else return -1;
        kind = INTEGER;
      } else if (i + 4 > limit) return -1;
      else if (c === 0x74 && view.getInt32(i, true) === TRUE_WORD) {
        i += 4;
        kind = TRUE;
      } else if (c === 0x66 && i + 5 <= limit && view.getInt32(i + 1, true) === ALSE_WORD) {
        i += 5;
        kind = FALSE;
      } else if (c === 0x6e && view.getInt32(i, true) === NULL_WORD) {
        i += 4;
        kind = NULL;
      } else return -1;
      if (i >= limit) return -1;
      const known = knownOf[k * KINDS + kind];
      if (known === INVALID || (known === ASK && !this.#valueOk(k, b, from, i, kind))) return -1;
      if (k === this.lookupIndex) {
        this.#pkFrom = from;
        this.#pkTo = i;
        this.#pkKind = kind;
      }
      const slot = keptSlot[k] as number;
      if (slot >= 0) {
        this.#keptFrom[slot] = from;
        this.#keptTo[slot] = i;
        this.#keptKind[slot] = kind;
      }
      const after = b[i];
      if (after === COMMA) {
        i++;
        continue;
      }
      if (after !== CLOSE_OBJ || requiredSeen !== this.#requiredCount) return -1;
      return i + 1;
    }
  }

  #valueOk(k: number, b: Buffer, from: number, to: number, kind: number): boolean {
    const short = to - from <= 6;
    let packed = 0;
    const memo = this.#remembered[k] as Map<number, boolean>;
    if (short) {
      for (let i = from; i < to; i++) packed = packed * 256 + (b[i] as number);
      const known = memo.get(packed);
      if (known !== undefined) return known;
    }
    const value = valueAt(b, from, to, kind);
    const ok = (this.validators[k] as ValidateFunction)(value);
    if (short && memo.size < MAX_REMEMBERED) memo.set(packed, ok);
    return ok;
  }

  /**
   * The values of the kept members of the item last scanned (in `b`), pushed onto `out` in the
   * order of `kept`, as its parsed members would read: a member it lacks as a plain object reads it.
   */
  pushKept(b: Buffer, out: unknown[]): void {
    const kinds = this.#keptKind;
    for (let s = 0; s < kinds.length; s++) {
      const kind = kinds[s] as number;
      out.push(kind === 0 ? this.#absent[s] : valueAt(b, this.#keptFrom[s] as number, this.#keptTo[s] as number, kind));
    }
  }

  /**
   * The item last scanned, at `start`..`end`, as the parsed way prepares it: its text, and its pk
   * as pkOf makes it (a string's text, an integer's digits: exact up to 15 of them); undefined when
   * the parsed way would refuse it (a url to build from a pk that cannot stand in a path).
   */
  prepare(b: Buffer, start: number, end: number): PreparedItem | undefined {
    const pkFrom = this.#pkFrom;
    const pkTo = this.#pkTo;
    const pkKind = this.#pkKind;
    if (pkKind === INTEGER && pkTo - pkFrom > 15) return undefined;
    const withUrl = this.urlIndex >= 0;
    // A string's text without its quotes; an integer's digits (and sign) always stand in a path.
    const [from, to] = pkKind === STRING ? [pkFrom + 1, pkTo - 1] : pkKind === INTEGER ? [pkFrom, pkTo] : [-1, -1];
    if (withUrl && (from < 0 || (pkKind === STRING && !isPkSegment(b, from, to)))) return undefined;
    return {
      pk: from < 0 ? undefined : b.toString('latin1', from, to),
      json: b.toString('latin1', start, end),
      urlAt: withUrl ? 1 : -1,
    };
  }
}

/** The value of bytes `from` to `to` the scan found of `kind` (a string: ASCII, no escape). */
function valueAt(b: Buffer, from: number, to: number, kind: number): unknown {
  if (kind === STRING) return b.toString('latin1', from + 1, to - 1);
  if (kind === TRUE) return true;
  if (kind === FALSE) return false;
  if (kind === NULL) return null;
  if (to - from > 15) return Number(b.toString('latin1', from, to));
  // Up to 15 digits a double holds exactly: summed as read, no string made.
  let n = 0;
  for (let i = b[from] === MINUS ? from + 1 : from; i < to; i++) n = n * 10 + ((b[i] as number) - ZERO);
  return b[from] === MINUS ? -n : n;
}

/** PK_SEGMENT (`^[^/.]+$`) of the bytes `from` to `to` (ASCII), without making their text. */
function isPkSegment(b: Buffer, from: number, to: number): boolean {
  if (to <= from) return false;
  for (let i = from; i < to; i++) if (b[i] === 0x2f || b[i] === 0x2e) return false;
  return true;
}
