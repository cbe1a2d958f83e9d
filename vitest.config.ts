import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Every temporary of the run lives under one directory removed at the end (test/helpers/run-tmpdir.ts).
    globalSetup: ['test/helpers/run-tmpdir.ts'],
  },
});
