/** Stores filled from real feed samples through the CLI, and an in-process HTTP app on a store. */
import fs from 'node:fs';
import path from 'node:path';
import { createApp, type AppOptions } from '../../src/http/app.js';
import { defaultConfig } from '../../src/config/defaults.js';
import { Store } from '../../src/store/db.js';
import type { Context } from '../../src/context.js';
import { tempDir } from './cli.js';
import { buildSeedStore, buildWeekStore, SEED_STORE_ENV, WEEK_STORE_ENV } from './shared-stores.js';

export { SEED_AS_OF, WEEK_NOW } from './shared-stores.js';

/**
 * A store file of the caller's own, copied from the one the run built (test/helpers/shared-stores.ts), or
 * built here when no run built one. A closed DuckDB store is the one file: the copy is the whole store.
 */
async function copyOf(env: string, name: string, build: (db: string) => Promise<void>): Promise<string> {
  const db = path.join(tempDir(), name);
  const shared = process.env[env];
  if (shared && fs.existsSync(shared)) fs.copyFileSync(shared, db);
  else await build(db);
  return db;
}

/** The USGS week feed ingested at WEEK_NOW (3,209 earthquakes). */
export function weekStore(): Promise<string> {
  return copyOf(WEEK_STORE_ENV, 'week.duckdb', buildWeekStore);
}

/** The embedded seed (`catintel db seed`) loaded at its own instant, SEED_AS_OF. */
export function seedStore(): Promise<string> {
  return copyOf(SEED_STORE_ENV, 'seed.duckdb', buildSeedStore);
}

/** The app on a store file, with rate limits off (these tests are about answers, not limits). */
export async function appOn(
  dbPath: string,
  now: string,
  options: Partial<AppOptions> & { env?: Record<string, string> } = {},
) {
  const { env, ...o } = options;
  const db = await Store.open(dbPath, { holder: 'test' });
  const ctx: Context = {
    config: defaultConfig({ dbPath, env }),
    db,
    clock: () => new Date(now),
    log: () => {},
    progress: () => {},
  };
  const app = createApp({ ctx, rateLimit: 'off', ...o });
  const get = (url: string, headers: Record<string, string> = {}) =>
    app.fetch(new Request(`http://localhost${url}`, { headers }));
  return { app, get, db, close: () => db.close() };
}
