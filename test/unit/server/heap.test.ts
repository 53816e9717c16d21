import v8 from 'node:v8';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { compactNow, compactSoon } from '../../../src/server/heap.js';

// V8's own full collection, as --expose-gc gives it: the flag set now, the function from a new context.
v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

/** The old generation's pages, in bytes, after `collect` has run on a heap of a tenth live objects. */
async function pagesAfter(collect: () => Promise<void>): Promise<number> {
  const keep: object[] = [];
  let junk: object[] | undefined = [];
  // Promoted to the old generation as they are made (they outlive the scavenges), then garbage but
  // for every tenth.
  for (let i = 0; i < 2_000_000; i++) (i % 10 === 0 ? keep : junk).push({ a: i, b: `x${i}` });
  junk = undefined;
  await collect();
  const old = v8.getHeapSpaceStatistics().find((s) => s.space_name === 'old_space');
  expect(keep.length).toBe(200_000);
  return old?.space_size ?? 0;
}

const soon = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('compactNow: one full collection that gives the pages back', () => {
  it('leaves far fewer pages than a plain full collection, and the next collection plain again', async () => {
    const plain = await pagesAfter(async () => gc());
    const compacted = await pagesAfter(async () => compactNow(gc));
    // A tenth lives: the plain collection keeps nearly every page, the compacting one about a tenth.
    expect(compacted).toBeLessThan(plain / 2);
    // The flag was V8's for that one collection only.
    const after = await pagesAfter(async () => gc());
    expect(after).toBeGreaterThan(compacted * 2);
  });

  it('does nothing without a gc (a process without --expose-gc); compactSoon does it later', async () => {
    let called = 0;
    compactNow(undefined);
    compactSoon(undefined, 0);
    compactSoon(() => void called++, 0);
    expect(called).toBe(0);
    await soon(20);
    expect(called).toBe(1);
  });
});
