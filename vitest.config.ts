import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Generous: CI runs the suite on a shared 2-core machine, where spawning node with tsx under
    // the whole suite has taken 10 s; a hang still fails, a minute later.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // One temporary folder per run, removed at its end (test/global-temp.ts).
    globalSetup: ['test/global-temp.ts'],
    // Reports are read as text: no colour, even where CI=true would turn picocolors' on.
    env: { NO_COLOR: '1' },
  },
});
