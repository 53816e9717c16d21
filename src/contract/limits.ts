/**
 * The loader's bounds (DEFAULT_LOAD_LIMITS in src/load/limits.ts), which the checker, the proxy
 * and the recorder share so that what they accept from a deployment, and what the recorder
 * writes, is what the stub loads. Repeated rather than imported: the contract may read only
 * load's spec reading (test/unit/architecture.test.ts); test/contract/limits.test.ts holds the two
 * equal.
 */
export const LOADER_LIMITS = Object.freeze({
  /** The deepest nesting of arrays and objects in one JSON text (the outermost counts 1). */
  maxDepth: 256,
  /** The largest fixture file the stub reads, in bytes. */
  maxFileBytes: 512 * 2 ** 20,
});
