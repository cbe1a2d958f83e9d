/** A store filled from real feed samples through the CLI, and an in-process HTTP app on it. */
import path from 'node:path';
import { createApp, type AppOptions } from '../../src/http/app.js';
import { defaultConfig } from '../../src/config/defaults.js';
import { Store } from '../../src/store/db.js';
import type { Context } from '../../src/context.js';
import { cli, tempDir } from './cli.js';
import { sharedData } from './paths.js';

/** The USGS week sample was generated 2020-07-08 20:36Z: pin the clock just after it. */
export const WEEK_NOW = '2020-07-08T21:00:00Z';

export async function weekStore(): Promise<string> {
  const db = path.join(tempDir(), 'week.duckdb');
  const r = await cli(['--db', db, 'ingest', 'usgs-earthquakes', '--from', sharedData('feeds/usgs_earthquakes/all_week.geojson')], { CATINTEL_NOW: WEEK_NOW });
  if (r.code !== 0) throw new Error(r.stderr);
  return db;
}

/** The app on a store file, with rate limits off (these tests are about answers, not limits). */
export async function appOn(dbPath: string, now: string, o: Partial<AppOptions> = {}) {
  const db = await Store.open(dbPath, { holder: 'test' });
  const ctx: Context = { config: defaultConfig({ dbPath }), db, clock: () => new Date(now), log: () => {}, progress: () => {} };
  const app = createApp({ ctx, rateLimit: 'off', ...o });
  const get = (url: string, headers: Record<string, string> = {}) => app.fetch(new Request(`http://localhost${url}`, { headers }));
  return { app, get, db, close: () => db.close() };
}
