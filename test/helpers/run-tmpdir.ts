/**
 * vitest global setup: one temporary directory for the whole run, removed at its end.
 *
 * Tests, the CLI processes they spawn and DuckDB's spill files all create their temporaries under
 * os.tmpdir(); pointing TMPDIR at a directory of this run's own means a finished run leaves nothing behind
 * (stores, portfolios, bulk outputs and sockets of thousands of tests used to accumulate in /tmp).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const RUN_DIR_ENV = 'CATINTEL_TEST_RUN_DIR';

export default function setup(): () => void {
  // Every project of the run calls its global setups: the first makes the directory, the others keep it.
  if (process.env[RUN_DIR_ENV]) return () => {};
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'catintel-tests-'));
  process.env[RUN_DIR_ENV] = dir;
  process.env.TMPDIR = dir;
  return () => fs.rmSync(dir, { recursive: true, force: true });
}
