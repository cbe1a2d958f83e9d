/**
 * vitest global setup: the stores many test files start from, built once a run instead of once a file.
 *
 * Ten files loaded the embedded seed and ten ingested the USGS week feed, each for itself (a few seconds
 * of CPU each). Here each is built once, through the CLI as the files did, and its path is handed to the
 * test processes in the environment; test/helpers/store.ts gives every caller its own copy, so a test that
 * writes never touches another's store.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cli } from './cli.js';
import { sharedData, REPO_ROOT } from './paths.js';

/** The USGS week sample was generated 2020-07-08 20:36Z: the clock is pinned just after it. */
export const WEEK_NOW = '2020-07-08T21:00:00Z';
/** The embedded seed's instant (data/seed/as-of.txt). */
export const SEED_AS_OF = fs.readFileSync(path.join(REPO_ROOT, 'data/seed/as-of.txt'), 'utf8').trim();

export const WEEK_STORE_ENV = 'CATINTEL_TEST_WEEK_STORE';
export const SEED_STORE_ENV = 'CATINTEL_TEST_SEED_STORE';

/** The week feed ingested at WEEK_NOW into a new store at `db`. */
export async function buildWeekStore(db: string): Promise<void> {
  const r = await cli(
    [
      '--db',
      db,
      '--quiet',
      'ingest',
      'usgs-earthquakes',
      '--from',
      sharedData('feeds/usgs_earthquakes/all_week.geojson'),
    ],
    { CATINTEL_NOW: WEEK_NOW },
  );
  if (r.code !== 0) throw new Error(`the shared week store could not be built: ${r.stderr}`);
}

/** The embedded seed loaded at its own instant into a new store at `db`. */
export async function buildSeedStore(db: string): Promise<void> {
  const r = await cli(['--db', db, '--quiet', 'db', 'seed'], { CATINTEL_NOW: SEED_AS_OF });
  if (r.code !== 0) throw new Error(`the shared seed store could not be built: ${r.stderr}`);
}

export default async function setup(): Promise<void> {
  // Once a run, however many projects share this setup.
  if (process.env[WEEK_STORE_ENV] && process.env[SEED_STORE_ENV]) return;
  // Under the run's own temporary directory (run-tmpdir.ts, set up first), removed with it.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'catintel-shared-stores-'));
  const week = path.join(dir, 'week.duckdb');
  const seed = path.join(dir, 'seed.duckdb');
  // Side by side: no test file starts before both are in, and DuckDB's work runs off the JavaScript thread.
  await Promise.all([buildWeekStore(week), buildSeedStore(seed)]);
  process.env[WEEK_STORE_ENV] = week;
  process.env[SEED_STORE_ENV] = seed;
}
