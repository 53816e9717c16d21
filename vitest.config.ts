import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // One temporary folder per run, removed at its end (test/global-temp.ts).
    globalSetup: ['test/global-temp.ts'],
    // Reports are read as text: no colour, even where CI=true would turn picocolors' on.
    env: { NO_COLOR: '1' },
  },
});
