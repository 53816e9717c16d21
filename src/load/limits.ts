/**
 * Bounds on what loading reads, so that no spec or fixture file can hang start-up, exhaust memory
 * or the stack, or reach outside its folder: every bound crossed is a load error with file, place
 * and reason, never a crash.
 */
export interface LoadLimits {
  /** The largest spec or fixture file read, in bytes. */
  readonly maxFileBytes: number;
  /** The deepest nesting of arrays and objects (JSON) or collections (YAML) in one file. */
  readonly maxDepth: number;
  /** YAML alias expansions allowed per anchor (the `yaml` package's `maxAliasCount`; a billion laughs stops here). */
  readonly maxAliasCount: number;
}

export const DEFAULT_LOAD_LIMITS: LoadLimits = Object.freeze({
  // 1,000,000 desks are about 150 MiB of JSON: well inside.
  maxFileBytes: 512 * 2 ** 20,
  // Real specs and fixtures stay under 30 levels; V8's stack allows a few thousand in the
  // recursive steps after parsing (Ajv, JSON.stringify, structuredClone).
  maxDepth: 256,
  // The yaml package's default.
  maxAliasCount: 100,
});

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
