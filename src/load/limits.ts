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
