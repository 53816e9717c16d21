import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Reports are read as text: no colour, even where CI=true would turn picocolors' on.
    env: { NO_COLOR: '1' },
  },
});
