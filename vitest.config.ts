import { defineConfig } from 'vitest/config';
import { CLUSTER_GLOB, DATA_CHECK_GLOB, PROCESS_FILES } from './test/projects.js';
import SlowestFirstSequencer from './test/helpers/sequencer.js';

/**
 * Projects by cost (test/projects.ts). The in-process projects run first on two workers (this machine has
 * two cores); the process project runs after them. The committed-data rebuilds are a project only when
 * CATINTEL_DATA_CHECK=1 (`make data-check`, and `make test` when their inputs changed).
 */
const dataCheck = process.env.CATINTEL_DATA_CHECK === '1';
/** The cluster checks (a throwaway PostgreSQL, worker processes) are a project only in `make test-cluster`. */
const cluster = process.env.CATINTEL_CLUSTER === '1';

export default defineConfig({
  test: {
    // No in-process test but three (which say so) took over 15 s even on a loaded machine; the slow ones
    // (kill trials, data rebuilds, servers) set their own. Hooks build stores and portfolios: a minute.
    testTimeout: 30_000,
    // Two files run at once on two cores: each store's DuckDB (and the CLI processes the files start, which
    // inherit this) runs its small queries on one thread instead of waking a second for each
    // (src/store/duckdb-threads.ts).
    env: { CATINTEL_DUCKDB_THREADS: '1' },
    hookTimeout: 60_000,
    pool: 'forks',
    // The slowest files first within each project (test/projects.ts SLOWEST_FIRST): a fresh clone has no
    // durations of earlier runs for vitest to order by.
    sequence: { sequencer: SlowestFirstSequencer },
    // Every temporary of the run lives under one directory removed at the end (test/helpers/run-tmpdir.ts);
    // the stores many files start from are built once, into it (test/helpers/shared-stores.ts). Model
    // packages built by the run are cached under models/.test/cache (test/helpers/model-cache.ts).
    globalSetup: ['test/helpers/run-tmpdir.ts', 'test/helpers/shared-stores.ts', 'test/helpers/model-cache.ts'],
    projects: [
      // In-process files share a worker's modules (isolate: false): each no longer imports the CLI, the app and
      // their libraries for itself (a fifth of the suite's time). They hold no global state of their own.
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts'],
          exclude: PROCESS_FILES,
          isolate: false,
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['test/**/*.test.ts'],
          exclude: [...PROCESS_FILES, DATA_CHECK_GLOB, CLUSTER_GLOB],
          isolate: false,
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
        },
      },
      // The process files share a worker's modules too: their own imports (helpers, harness) were 30 s of the
      // project's 250 s, and what they test runs in the children they start.
      {
        extends: true,
        test: { name: 'process', include: PROCESS_FILES, isolate: false, maxWorkers: 2, sequence: { groupOrder: 1 } },
      },
      ...(dataCheck
        ? [
            {
              extends: true,
              test: { name: 'data-check', include: [DATA_CHECK_GLOB], maxWorkers: 2, sequence: { groupOrder: 2 } },
            },
          ]
        : []),
      ...(cluster
        ? [
            {
              extends: true,
              // Each file runs servers, ingests and workers as processes against its own PostgreSQL: minutes, not seconds.
              test: {
                name: 'cluster',
                include: [CLUSTER_GLOB],
                maxWorkers: 1,
                testTimeout: 120_000,
                sequence: { groupOrder: 3 },
              },
            },
          ]
        : []),
    ],
  },
});
