import { DEFAULT_LOAD_LIMITS as LOADER_LIMITS, nestingDepth } from '../load/limits.js';

export { nestingDepth };

/**
 * How deep an answer's JSON may nest: the loader's bound, so that an item the checker accepts in
 * a page (three levels in: envelope, results, item) is one the stub loads from a fixture (two
 * levels in). DRF renders with Python's json module, whose recursion limit (about 1,000) no
 * serializer nears; the list envelope with desk items is 3 deep. Anything deeper is refused before
 * it is parsed: JSON.parse would manage, but every recursive walk after it (Ajv, deep equality,
 * JSON.stringify of a value to show) would overflow the stack.
 */
export const MAX_JSON_DEPTH = LOADER_LIMITS.maxDepth;

export type Parsed = { ok: true; value: unknown } | { ok: false; reason: string };

/** Parses an answer's JSON, refusing what nests deeper than `maxDepth`; never throws. */
export function parseJson(text: string, maxDepth = MAX_JSON_DEPTH): Parsed {
  if (nestingDepth(text, maxDepth) > maxDepth)
    return { ok: false, reason: `JSON nested deeper than ${maxDepth} levels` };
  try {
    return { ok: true, value: parseExact(text) };
  } catch (e) {
    return { ok: false, reason: (e as Error).message };
  }
}

/*
 * Integers past 2^53 as the deployment wrote them. JSON.parse rounds them (Django's BigAutoField
 * goes to 2^63: `9007199254740993` becomes …992), and Node 20 has neither JSON.parse's source
 * text nor JSON.rawJSON. The parsed value keeps its rounded numbers (Ajv sees an integer either
 * way); the text of each such integer is kept beside it, by the object or array that holds it and
 * the member's key, for what must be exact: a pk compared with its url, two items compared, a
 * fixture written. Held weakly: it goes when its value goes.
 */
const exactIntegers = new WeakMap<object, Map<string, string>>();

// Every integer past 2^53 has 16 digits or more: a text without such a run needs no scan.
const LONG_DIGITS = /[0-9]{16}/;
const INTEGER_TEXT = /^-?[0-9]+$/;

// Digits, '.', 'e', 'E', '+', '-': what a number token is made of.
const isNumberChar = (c: number): boolean =>
  (c >= 0x30 && c <= 0x39) || c === 0x2e || c === 0x65 || c === 0x45 || c === 0x2b || c === 0x2d;

/** Notes the text of every integer of `text` that `value` (JSON.parse's of `text`) holds rounded. */
function noteExactIntegers(text: string, value: unknown): void {
  // One frame per open object or array: the value parsed for it, and the member being read.
  const frames: { container: Record<string, unknown>; key: string; array: boolean; index: number }[] = [];
  let readingKey = false;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    const top = frames[frames.length - 1];
    if (c === 0x22) {
      let j = i + 1;
      for (; j < n && text.charCodeAt(j) !== 0x22; j++) if (text.charCodeAt(j) === 0x5c) j++;
      if (top && readingKey) {
        const raw = text.slice(i + 1, j);
        top.key = raw.includes('\\') ? (JSON.parse(`"${raw}"`) as string) : raw;
      }
      i = j;
    } else if (c === 0x7b || c === 0x5b) {
      const container = (top ? top.container[top.key] : value) as Record<string, unknown>;
      frames.push({ container, key: '0', array: c === 0x5b, index: 0 });
      readingKey = c === 0x7b;
    } else if (c === 0x7d || c === 0x5d) frames.pop();
    else if (c === 0x2c) {
      if (top?.array) top.key = String(++top.index);
      else readingKey = true;
    } else if (c === 0x3a) readingKey = false;
    else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      let j = i + 1;
      while (j < n && isNumberChar(text.charCodeAt(j))) j++;
      const number = text.slice(i, j);
      if (top && INTEGER_TEXT.test(number) && !Number.isSafeInteger(Number(number))) {
        let kept = exactIntegers.get(top.container);
        if (!kept) exactIntegers.set(top.container, (kept = new Map()));
        kept.set(top.key, number);
      }
      i = j - 1;
    }
  }
}

/** `JSON.parse` that keeps the text of integers past 2^53 (see memberText). */
export function parseExact(text: string): unknown {
  const value = JSON.parse(text) as unknown;
  if (value !== null && typeof value === 'object' && LONG_DIGITS.test(text)) noteExactIntegers(text, value);
  return value;
}

/**
 * The text of the string or number at `container[key]`, a number as the deployment wrote it: a
 * pk compared as text. Undefined for anything else.
 */
export function memberText(container: object, key: string | number): string | undefined {
  const v = (container as Record<string, unknown>)[key];
  if (typeof v === 'string') return v;
  if (typeof v !== 'number') return undefined;
  const exact = exactIntegers.get(container)?.get(String(key));
  return exact !== undefined && Number(exact) === v ? exact : JSON.stringify(v);
}

/** `to` (a copy of `from`, member for member) keeps `from`'s exact integers. */
export function keepExact(from: object, to: object): void {
  const kept = exactIntegers.get(from);
  if (kept) exactIntegers.set(to, new Map(kept));
}

/** A copy of `item` without its member `name`, its exact integers kept. */
export function withoutMember(item: Readonly<Record<string, unknown>>, name: string): Record<string, unknown> {
  const { [name]: _dropped, ...rest } = item;
  keepExact(item, rest);
  return rest;
}

/** Are `x` and `y` the same JSON value (members in any order), integers compared by their text? */
export function sameJson(x: unknown, y: unknown): boolean {
  if (x === null || y === null || typeof x !== 'object' || typeof y !== 'object') return Object.is(x, y) || x === y;
  if (Array.isArray(x) !== Array.isArray(y)) return false;
  const keys = Object.keys(x);
  if (keys.length !== Object.keys(y).length) return false;
  return keys.every((k) => Object.hasOwn(y, k) && sameMember(x, k, y, k));
}

/** Are `a[ka]` and `b[kb]` the same JSON value, integers compared by their text? */
export function sameMember(a: object, ka: string | number, b: object, kb: string | number): boolean {
  const x = (a as Record<string, unknown>)[ka];
  const y = (b as Record<string, unknown>)[kb];
  if (typeof x === 'number' && typeof y === 'number') return memberText(a, ka) === memberText(b, kb);
  return sameJson(x, y);
}

/** JSON.stringify(value, null, indent), integers past 2^53 written as they were parsed. */
export function stringifyExact(value: unknown, indent = 0): string {
  const pad = ' '.repeat(indent);
  const write = (v: unknown, container: object | undefined, key: string, margin: string): string => {
    if (typeof v === 'number') return container ? (memberText(container, key) ?? 'null') : JSON.stringify(v);
    if (v === null || typeof v !== 'object') return JSON.stringify(v) ?? 'null';
    const inner = indent > 0 ? `${margin}${pad}` : '';
    const [open, close, nl] = indent > 0 ? ['\n', `\n${margin}`, ',\n'] : ['', '', ','];
    if (Array.isArray(v)) {
      if (v.length === 0) return '[]';
      const parts = v.map((x, i) => `${inner}${write(x, v, String(i), inner)}`);
      return `[${open}${parts.join(nl)}${close}]`;
    }
    const keys = Object.keys(v).filter((k) => {
      const x = (v as Record<string, unknown>)[k];
      return x !== undefined && typeof x !== 'function';
    });
    if (keys.length === 0) return '{}';
    const sep = indent > 0 ? ': ' : ':';
    const parts = keys.map(
      (k) => `${inner}${JSON.stringify(k)}${sep}${write((v as Record<string, unknown>)[k], v, k, inner)}`,
    );
    return `{${open}${parts.join(nl)}${close}}`;
  };
  return write(value, undefined, '', '');
}
