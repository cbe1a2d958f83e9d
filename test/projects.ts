/**
 * The suite's projects, grouped by cost (vitest.config.ts runs them; test/suite-projects.test.ts keeps
 * every test file in exactly one):
 *
 * - unit: src/ beside the code, in-process and quick;
 * - integration: test/, in-process (the CLI's run(), the app's fetch, real stores and feeds);
 * - process: the files that start child processes (the compiled CLI, `serve`, kill trials, a mount), run
 *   last and on their own, so their children get the CPU their timings assume;
 * - data-check: the committed-data rebuilds, only in `make data-check` or when their inputs changed
 *   (data/inputs.sha256, scripts/data-inputs.ts).
 */
export const PROCESS_FILES = [
  'src/loss/kernel.test.ts',
  'test/data-inputs.test.ts',
  'test/docs-stand-alone.test.ts',
  'test/earthquake-model-package.test.ts',
  'test/epcurve.test.ts',
  'test/events-stream.test.ts',
  'test/events-watch.test.ts',
  'test/hurricane-model-package.test.ts',
  'test/ingest-watch.test.ts',
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
  'test/triggers-serve.test.ts',
];

export const DATA_CHECK_GLOB = 'test/data-check/**/*.test.ts';
