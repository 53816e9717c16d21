// What a command writes to stdout and stderr, caught for the length of a test.
import { afterEach, beforeEach, vi } from 'vitest';

export const io = { out: '', err: '' };

/** Catches process.stdout and process.stderr writes in every test of the file. */
export function catchOutput(): void {
  beforeEach(() => {
    io.out = '';
    io.err = '';
    vi.spyOn(process.stdout, 'write').mockImplementation((s, cb?: unknown) => {
      io.out += String(s);
      if (typeof cb === 'function') (cb as () => void)();
      return true;
    });
    vi.spyOn(process.stderr, 'write').mockImplementation((s) => ((io.err += String(s)), true));
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });
}
