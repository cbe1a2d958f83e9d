import { defineConfig } from 'vitest/config';
import { DATA_CHECK_GLOB, PROCESS_FILES } from './test/projects.js';

/**
 * Projects by cost (test/projects.ts). The in-process projects run first on two workers (this machine has
 * two cores); the process project runs after them. The committed-data rebuilds are a project only when
 * CATINTEL_DATA_CHECK=1 (`make data-check`, and `make test` when their inputs changed).
 */
const dataCheck = process.env.CATINTEL_DATA_CHECK === '1';

export default defineConfig({
  test: {
    // The slowest in-process tests take about 10 s on a quiet machine; files that need more say so.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Every temporary of the run lives under one directory removed at the end (test/helpers/run-tmpdir.ts);
    // the stores many files start from are built once, into it (test/helpers/shared-stores.ts).
    globalSetup: ['test/helpers/run-tmpdir.ts', 'test/helpers/shared-stores.ts'],
    projects: [
      { extends: true, test: { name: 'unit', include: ['src/**/*.test.ts'], exclude: PROCESS_FILES, maxWorkers: 2, sequence: { groupOrder: 0 } } },
      { extends: true, test: { name: 'integration', include: ['test/**/*.test.ts'], exclude: [...PROCESS_FILES, DATA_CHECK_GLOB], maxWorkers: 2, sequence: { groupOrder: 0 } } },
      { extends: true, test: { name: 'process', include: PROCESS_FILES, maxWorkers: 2, sequence: { groupOrder: 1 } } },
      ...(dataCheck ? [{ extends: true, test: { name: 'data-check', include: [DATA_CHECK_GLOB], maxWorkers: 2, sequence: { groupOrder: 2 } } }] : []),
    ],
  },
});
