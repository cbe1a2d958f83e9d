/**
 * One ingest per source across the processes of a cluster store: while one process ingests a source, another
 * is refused (store_locked, exit code 4); a leader killed mid-run leaves nothing of its run, the next process
 * takes the source over at once, and the store then holds exactly what a single-node run on a DuckDB file
 * holds (docs/cluster-store.md#one-ingest-per-source).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, tempDir } from '../helpers/cli.js';
import { BIN } from '../helpers/kill.js';
import { REPO_ROOT, sharedData } from '../helpers/paths.js';
import { startPostgres, type ThrowawayPostgres } from '../helpers/throwaway-postgres.js';

const AS_OF = fs.readFileSync(path.join(REPO_ROOT, 'data/seed/as-of.txt'), 'utf8').trim();
const env = { CATINTEL_NOW: AS_OF };
const WEEK_FEED = sharedData('feeds/usgs_earthquakes/all_week.geojson');

let pg: ThrowawayPostgres;
beforeAll(async () => {
  pg = await startPostgres();
}, 60_000);
afterAll(() => pg?.stop());

const counts = async (db: string) => {
  const info = await cli(['--db', db, '--json', 'db', 'info'], env);
  expect(info.code, info.stderr).toBe(0);
  const { events, rings, observations, events_by_type } = info.json();
  return { events, rings, observations, events_by_type };
};

describe('the ingest leader of a source on a cluster store', () => {
  it('refuses a second ingest of the source while it runs; killed, it is replaced, and no event is stored twice', async () => {
    const store = await pg.storeAddress('leader');
    // A first writing command creates the store's tables, so the race below is only for the source.
    expect((await cli(['--db', store, 'keys', 'create', '--tier', 'analyst', '--name', 'setup'], env)).code).toBe(0);
    const leader = spawn(process.execPath, [BIN, '--db', store, 'ingest', 'usgs-earthquakes', '--from', WEEK_FEED], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const exited = new Promise<void>((resolve) => leader.once('exit', () => resolve()));
    // Its first progress line comes once it leads the source and is writing the run's one transaction.
    await new Promise<void>((resolve, reject) => {
      let err = '';
      leader.stderr!.on('data', (d: Buffer) => {
        err += d;
        if (err.includes('"progress":"ingest usgs-earthquakes"')) resolve();
      });
      leader.once('exit', (code) => reject(new Error(`the leader exited (${code}) before writing: ${err}`)));
    });
    const refused = await cli(['--db', store, 'ingest', 'usgs-earthquakes', '--from', WEEK_FEED], env);
    expect(refused.code, refused.stderr).toBe(4);
    expect(refused.stderr).toMatch(
      /^catintel: ingest usgs-earthquakes is running in another process on cluster store postgres:\/\/catintel@127\.0\.0\.1:\d+\/leader\?data=\S+ \(one at a time\); it goes on there, or wait for it to finish \[store_locked\]\n$/,
    );
    expect(leader.exitCode, 'the leader was still writing when killed').toBeNull();
    leader.kill('SIGKILL');
    await exited;
    // The killed leader's connection closed with it, and its lock with that: the next ingest leads at once.
    const next = await cli(['--db', store, '--json', 'ingest', 'usgs-earthquakes', '--from', WEEK_FEED], env);
    expect(next.code, next.stderr).toBe(0);

    const file = path.join(tempDir('catintel-leader-'), 'single.duckdb');
    const single = await cli(['--db', file, '--json', 'ingest', 'usgs-earthquakes', '--from', WEEK_FEED], env);
    expect(single.code, single.stderr).toBe(0);
    expect(await counts(store)).toEqual(await counts(file));
  });
});
