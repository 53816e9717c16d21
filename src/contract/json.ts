import { LOADER_LIMITS } from './limits.js';

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

/** The deepest nesting of `[` and `{` in `text`, outside strings; stops counting past `limit`. */
export function nestingDepth(text: string, limit = Number.POSITIVE_INFINITY): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: the next character is escaped
      else if (c === 0x22) inString = false;
      continue;
    }
    if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > deepest) {
        deepest = depth;
        if (deepest > limit) return deepest;
      }
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return deepest;
}

/** Parses an answer's JSON, refusing what nests deeper than `maxDepth`; never throws. */
export function parseJson(text: string, maxDepth = MAX_JSON_DEPTH): Parsed {
  if (nestingDepth(text, maxDepth) > maxDepth)
    return { ok: false, reason: `JSON nested deeper than ${maxDepth} levels` };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (e) {
    return { ok: false, reason: (e as Error).message };
  }
}
