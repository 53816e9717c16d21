import v8 from 'node:v8';

/** The full collection `--expose-gc` gives (the CLI runs node with it), if this process has it. */
function exposedGc(): (() => void) | undefined {
  return (globalThis as { gc?: () => void }).gc;
}

/**
 * One full collection that also compacts: what lives is moved onto as few pages as it fills, and
 * every other page of the old generation is given back. A plain full collection frees the objects
 * but keeps each page that still holds one of them, and V8 compacts only the pages it judges worth
 * it; a page kept costs every scavenge a visit (the scavenger walks each page of the old
 * generation for pointers into the young one: docs/performance.md, "Pages left by loading"). The
 * flag is V8's own (`--compact-on-every-full-gc`), set for this one collection. Nothing without a
 * `gc` (a process without `--expose-gc`: V8 collects as it would).
 */
export function compactNow(gc = exposedGc()): void {
  if (gc === undefined) return;
  v8.setFlagsFromString('--compact-on-every-full-gc');
  try {
    gc();
  } finally {
    v8.setFlagsFromString('--no-compact-on-every-full-gc');
  }
}

/** compactNow, `delayMs` from now (the timer keeps no process alive). */
export function compactSoon(gc = exposedGc(), delayMs = 1000): void {
  if (gc === undefined) return;
  setTimeout(() => compactNow(gc), delayMs).unref();
}
