/**
 * The suite's projects, grouped by cost (vitest.config.ts runs them; test/suite-projects.test.ts keeps
 * every test file in exactly one):
 *
 * - unit: src/ beside the code, in-process and quick;
 * - integration: test/, in-process (the CLI's run(), the app's fetch, real stores and feeds);
 * - process: the files that start child processes (the compiled CLI, `serve`, kill trials, a mount), run
 *   last and on their own, so their children get the CPU their timings assume;
 * - data-check: the committed-data rebuilds, only in `make data-check` or when their inputs changed
 *   (data/inputs.sha256, scripts/data-inputs.ts);
 * - cluster: test/cluster/, the cluster store's servers and ingest leaders and the scale-out workers, each
 *   file against a PostgreSQL of its own, only in `make test-cluster` (docs/cluster-store.md, docs/scale-out.md).
 */
export const PROCESS_FILES = [
  'src/loss/kernel.test.ts',
  'test/bigbook-exposure.test.ts',
  'test/bigbook-import.test.ts',
  'test/data-inputs.test.ts',
  'test/docs-stand-alone.test.ts',
  'test/earthquake-model-package.test.ts',
  'test/epcurve-chunks.test.ts',
  'test/epcurve.test.ts',
  'test/briefing-portfolio-loss.test.ts',
  'test/event-diff.test.ts',
  'test/event-loss-over-versions.test.ts',
  'test/event-loss-shakemap-stored.test.ts',
  'test/event-loss-stream.test.ts',
  'test/event-loss.test.ts',
  'test/events-stream.test.ts',
  'test/events-watch.test.ts',
  'test/hurricane-model-package.test.ts',
  'test/ingest-watch.test.ts',
  'test/install-duckdb-extensions.test.ts',
  'test/intelligence-serve.test.ts',
  'test/kills-bulk.test.ts',
  'test/kills-ingest.test.ts',
  'test/kills-oasis-files.test.ts',
  'test/kills-oasis.test.ts',
  'test/kills-portfolio.test.ts',
  'test/kills-serve.test.ts',
  'test/kills-triggers.test.ts',
  'test/make-run.test.ts',
  'test/oasis-files-scale.test.ts',
  'test/platform/client-errors.test.ts',
  'test/platform/rate-limit.test.ts',
  'test/platform/serve.test.ts',
  'test/platform/trust-proxy.test.ts',
  'test/portfolios-serve.test.ts',
  'test/readme-examples.test.ts',
  'test/reports-perils.test.ts',
  'test/score-bulk.test.ts',
  'test/serve-clock.test.ts',
  'test/serve-sharing.test.ts',
  'test/store-disk-full.test.ts',
  'test/store-lock.test.ts',
  'test/trigger-backtest-serve.test.ts',
  'test/trigger-basis-risk.test.ts',
  'test/trigger-fire-probability.test.ts',
  'test/trigger-probability-stream.test.ts',
  'test/triggers-serve.test.ts',
];

export const DATA_CHECK_GLOB = 'test/data-check/**/*.test.ts';

/**
 * The cluster checks (docs/cluster-store.md, docs/scale-out.md): a throwaway PostgreSQL, servers, ingest
 * leaders, workers and submitters as processes. Only
 * `make test-cluster` runs them (CATINTEL_CLUSTER=1), not `make test`; CI runs both.
 */
export const CLUSTER_GLOB = 'test/cluster/**/*.test.ts';

/**
 * The slowest files, slowest first: each project starts them before its other files
 * (test/helpers/sequencer.ts), so the two workers end together instead of one waiting on a long file
 * started last. From the per-file times `.ci/run` prints (the kill trials, the README walk-through, the
 * report renderers, the servers); a file missing here only starts later.
 */
export const SLOWEST_FIRST = [
  // process
  'test/readme-examples.test.ts',
  'test/kills-triggers.test.ts',
  'test/kills-bulk.test.ts',
  'test/kills-ingest.test.ts',
  'test/kills-oasis.test.ts',
  'test/reports-perils.test.ts',
  'test/serve-sharing.test.ts',
  'test/kills-oasis-files.test.ts',
  'test/kills-portfolio.test.ts',
  'test/make-run.test.ts',
  'test/hurricane-model-package.test.ts',
  'test/events-stream.test.ts',
  'test/epcurve-chunks.test.ts',
  'test/epcurve.test.ts',
  'test/event-loss.test.ts',
  'test/platform/rate-limit.test.ts',
  'test/score-bulk.test.ts',
  // integration
  'test/reports.test.ts',
  'test/intelligence.test.ts',
  'test/triggers-http.test.ts',
  'test/live-index.test.ts',
  'test/hurricane-event-set.test.ts',
  'test/oasis-fm-test.test.ts',
  'test/hostile-input-feeds.test.ts',
  'test/live-index-sockets.test.ts',
  'test/hostile-input-portfolio.test.ts',
  // unit
  'src/domain/scoring/score-point.test.ts',
  'src/loss/wasm/kernel-module.test.ts',
];
