import { describe, expect, it, vi } from 'vitest';
import { wallTime } from '../../../src/core/clock.js';

describe('wallTime: the wall clock at a reading of the monotonic clock', () => {
  it('answers what Date.now() answers then, within a millisecond', () => {
    for (let i = 0; i < 2000; i++) {
      const before = Date.now();
      const at = wallTime(performance.now());
      const after = Date.now();
      expect(at).toBeGreaterThanOrEqual(before - 1);
      expect(at).toBeLessThanOrEqual(after + 1);
      expect(Number.isInteger(at)).toBe(true);
    }
  });

  it('reads the offset once a second: a step of the wall clock shows at the next second, not before', () => {
    const at = performance.now();
    // A reading a second or more from the last read of the offset: it is read again now.
    wallTime(at - 5000);
    const before = wallTime(at);
    const hour = 3_600_000;
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + hour);
      // Within the second: the offset read before the step.
      expect(wallTime(at)).toBe(before);
      expect(wallTime(at + 500)).toBe(before + 500);
      // A second on: read again, the step shows.
      expect(Math.abs(wallTime(at + 1500) - (Date.now() + 1500 - (performance.now() - at)))).toBeLessThanOrEqual(5);
    } finally {
      vi.useRealTimers();
    }
  });
});
