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

/** process.exit, stopped where it is called: what a command that exits is left to say. */
export class Exit extends Error {
  constructor(readonly code: number | undefined) {
    super(`exit ${code}`);
  }
}

/** In every test of the file, process.exit throws Exit instead of ending the process. */
export function stopExit(): void {
  beforeEach(() => {
    vi.spyOn(process, 'exit').mockImplementation((code) => {
      throw new Exit(code as number | undefined);
    });
  });
}

/** The code `run` exits with (undefined when it returns). */
export async function exitOf(run: () => unknown): Promise<number | undefined> {
  try {
    await run();
    return undefined;
  } catch (e) {
    if (e instanceof Exit) return e.code;
    throw e;
  }
}
