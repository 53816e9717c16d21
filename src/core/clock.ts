/** How long an offset between the two clocks is trusted before it is read again. */
const SYNC_MS = 1000;

let syncedAt = Number.NEGATIVE_INFINITY;
let offset = 0;

/**
 * The wall clock's milliseconds since the epoch (what `Date.now()` answers) at a reading of the
 * monotonic clock (`performance.now()`): the reading plus the clocks' offset, read again once
 * a second, so that a request that has read the monotonic clock for its duration needs no other
 * reading for its time (docs/performance.md, "What a cached answer still cost").
 * Within a millisecond of `Date.now()` at that instant; a step of the wall clock (a date set by
 * hand, a resume) shows within a second.
 */
export function wallTime(monotonic: number): number {
  if (!(Math.abs(monotonic - syncedAt) < SYNC_MS)) {
    syncedAt = performance.now();
    offset = Date.now() - syncedAt;
  }
  return Math.floor(offset + monotonic);
}
