/**
 * SIGKILL at random moments of an ingest (real child processes, seeded kill points spread over the whole
 * run: node start, store creation, parsing, the write transaction, commit). After every kill the store
 * is consistent: it is absent (killed before it was created) or opens with its whole schema, `db info`
 * works, the write is all or nothing, and nothing is duplicated. The re-run completes and gives exactly
 * the state of an uninterrupted run.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { Store } from '../src/store/db.js';
import { migrations } from '../src/store/migrations.js';
import { cli, tempDir } from './helpers/cli.js';
import { KILL_POINTS, KILL_SEED, RunLength, runAndKill, seeded, storesFor } from './helpers/kill.js';
import { sharedData } from './helpers/paths.js';
import { WEEK_NOW } from './helpers/store.js';

const FEED = sharedData('feeds/usgs_earthquakes/all_week.geojson');
const env = { CATINTEL_NOW: WEEK_NOW };
const { stores: STORES, perStore: TRIALS_PER_STORE } = storesFor(KILL_POINTS); // 4 stores of 5 at the full 20 points

interface State {
  events: number;
  rings: number;
  observations: number;
  runs: number;
  dupEvents: number;
  dupRings: number;
  dupObs: number;
}

async function stateOf(db: string): Promise<State> {
  const store = await Store.open(db, { readOnly: true });
  try {
    expect(await store.schemaVersion()).toBe(migrations.at(-1)!.version);
    const n = async (sql: string) => Number((await store.one<{ n: bigint }>(sql))!.n);
    return {
      events: await n('SELECT count(*) AS n FROM events'),
      rings: await n('SELECT count(*) AS n FROM rings'),
      observations: await n('SELECT count(*) AS n FROM observations'),
      runs: await n("SELECT count(*) AS n FROM ingest_runs WHERE status = 'ok'"),
      dupEvents: await n('SELECT count(*) - count(DISTINCT (source, source_id)) AS n FROM events'),
      dupRings: await n('SELECT count(*) - count(DISTINCT (event_id, ordinal)) AS n FROM rings'),
      dupObs: await n('SELECT count(*) - count(DISTINCT (event_id, kind, observed_at)) AS n FROM observations'),
    };
  } finally {
    await store.close();
  }
}

let reference: State;
let runMs: number;

beforeAll(async () => {
  // Two at once, as the trials run: the kill points spread over a run as long as theirs. (No warm-up pair:
  // every run that finishes on its own re-measures the length, test/helpers/kill.ts.)
  const dbs = [path.join(tempDir(), 'reference.duckdb'), path.join(tempDir(), 'reference.duckdb')];
  const runs = await Promise.all(
    dbs.map((db) => runAndKill(['--db', db, 'ingest', 'usgs-earthquakes', '--from', FEED], Infinity, env)),
  );
  for (const t of runs) expect(t.code, t.stderr).toBe(0);
  runMs = Math.max(...runs.map((t) => t.ms));
  reference = await stateOf(dbs[0]);
  expect(await stateOf(dbs[1])).toEqual(reference);
  expect(reference.events).toBeGreaterThan(3000);
}, 60_000);

describe(`ingest killed at random moments (seed ${KILL_SEED})`, () => {
  it(`${STORES * TRIALS_PER_STORE} kills leave a consistent store, and the re-run completes with no duplicates`, async () => {
    const random = seeded(KILL_SEED);
    // The first kill on a fresh store aims at its start (node loading, then the store being created).
    const fractions = Array.from({ length: STORES }, () =>
      Array.from({ length: TRIALS_PER_STORE }, (_, k) => (k === 0 ? 0.1 + 0.4 * random() : random() * 1.05)),
    );
    const runLength = new RunLength(runMs);
    const outcomes = { killed: 0, noStore: 0, empty: 0, complete: 0 };
    // Two stores at a time (each store's trials in order): the kills wait on timers, not on the CPU.
    const storeTrials = async (s: number) => {
      const dir = tempDir('catintel-kill-');
      const db = path.join(dir, 'store.duckdb');
      for (let k = 0; k < TRIALS_PER_STORE; k++) {
        const at = runLength.at(fractions[s][k]);
        const where = `store ${s}, kill ${k} at ${at} ms (seed ${KILL_SEED})`;
        const t = await runAndKill(['--db', db, 'ingest', 'usgs-earthquakes', '--from', FEED], at, env);
        runLength.observe(t);
        if (t.finished) expect(t.code, `${where}: ${t.stderr}`).toBe(0);
        else outcomes.killed++;
        // Killed before the store existed: nothing at its name, not even a half-made file.
        if (!fs.existsSync(db)) {
          outcomes.noStore++;
          expect(
            fs.readdirSync(dir).filter((f) => f.startsWith('store.duckdb') && !f.includes('.creating-')),
            where,
          ).toEqual([]);
          continue;
        }
        const info = await cli(['--db', db, '--json', 'db', 'info'], env);
        expect(info.code, `${where}: ${info.stderr}`).toBe(0);
        const state = await stateOf(db);
        expect({ dupEvents: state.dupEvents, dupRings: state.dupRings, dupObs: state.dupObs }, where).toEqual({
          dupEvents: 0,
          dupRings: 0,
          dupObs: 0,
        });
        // One transaction per run: the store holds nothing of a killed run, or all of a finished one.
        if (state.events === 0) {
          outcomes.empty++;
          expect(state, where).toMatchObject({ rings: 0, observations: 0, runs: 0 });
        } else {
          outcomes.complete++;
          expect({ events: state.events, rings: state.rings, observations: state.observations }, where).toEqual({
            events: reference.events,
            rings: reference.rings,
            observations: reference.observations,
          });
        }
        // The killed writer's lock sidecar was cleared by the command that opened the store after it.
        if (!t.finished) expect(fs.existsSync(`${db}.lock`), where).toBe(false);
      }
      // The re-run completes, and the store is exactly an uninterrupted run's.
      const rerun = await runAndKill(['--db', db, 'ingest', 'usgs-earthquakes', '--from', FEED], Infinity, env);
      expect(rerun.code, rerun.stderr).toBe(0);
      const final = await stateOf(db);
      expect({ ...final, runs: 0 }).toEqual({ ...reference, runs: 0 });
      expect(fs.readdirSync(dir).filter((f) => f.includes('.creating-'))).toEqual([]);
    };
    for (let s = 0; s < STORES; s += 2)
      await Promise.all([storeTrials(s), s + 1 < STORES ? storeTrials(s + 1) : undefined]);
    console.log(`ingest kill trials (seed ${KILL_SEED}, run ${runMs} ms): ${JSON.stringify(outcomes)}`);
    // The kill points reached every phase: before the store existed, mid-write, and after a commit.
    expect(outcomes.killed).toBeGreaterThanOrEqual(Math.ceil(0.5 * STORES * TRIALS_PER_STORE)); // most kill points fall inside a run (10 of 20; timing varies with load)
    expect(outcomes.noStore + outcomes.empty).toBeGreaterThan(0);
  }, 90_000);
});
