/**
 * SIGKILL at random moments of `catintel portfolio import` (issue 9 part 4; real child processes, seeded kill
 * points spread over the whole run: node start, store creation, the header, the streaming append inside the
 * transaction, the commit). After every kill the store is consistent: absent, or open with its whole schema;
 * the portfolio is wholly there (every location, totals matching) or absent, with no orphan locations. The
 * re-run completes with exactly one portfolio and no duplicate locations (an import of the same file under the
 * same name after a commit answers the stored portfolio).
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { writeUsPortfolio } from '../scripts/make-us-portfolio.js';
import { Store } from '../src/store/db.js';
import { migrations } from '../src/store/migrations.js';
import { cli, tempDir } from './helpers/cli.js';
import { KILL_POINTS, KILL_SEED, RunLength, runAndKill, seeded, storesFor } from './helpers/kill.js';

const ROWS = 30_000;
const { stores: STORES, perStore: TRIALS_PER_STORE } = storesFor(KILL_POINTS); // 4 stores of 5 at the full 20 points
const env = { CATINTEL_NOW: '2026-01-01T00:00:00Z' };

interface State {
  portfolios: number;
  locations: number;
  orphans: number;
  duplicates: number;
  complete: number;
  building: number;
}

async function stateOf(db: string): Promise<State> {
  const store = await Store.open(db, { readOnly: true });
  try {
    expect(await store.schemaVersion()).toBe(migrations.at(-1)!.version);
    const n = async (sql: string) => Number((await store.one<{ n: bigint | number | null }>(sql))!.n ?? 0);
    return {
      portfolios: await n('SELECT count(*) AS n FROM portfolios'),
      locations: await n('SELECT count(*) AS n FROM portfolio_locations'),
      orphans: await n(
        'SELECT count(*) AS n FROM portfolio_locations l WHERE NOT EXISTS (SELECT 1 FROM portfolios p WHERE p.id = l.portfolio_id)',
      ),
      duplicates: await n('SELECT count(*) - count(DISTINCT (portfolio_id, seq)) AS n FROM portfolio_locations'),
      // Portfolios whose stored count and totals match their location rows.
      complete:
        await n(`SELECT count(*) AS n FROM portfolios p WHERE p.location_count = (SELECT count(*) FROM portfolio_locations l WHERE l.portfolio_id = p.id)
                           AND abs(p.building_tiv - (SELECT coalesce(sum(building_tiv), 0) FROM portfolio_locations l WHERE l.portfolio_id = p.id)) < 0.01`),
      building: await n('SELECT coalesce(sum(building_tiv), 0) AS n FROM portfolio_locations'),
    };
  } finally {
    await store.close();
  }
}

let input: string;
let reference: State;
let runMs: number;

beforeAll(async () => {
  input = path.join(tempDir('catintel-kill-portfolio-'), 'book.csv');
  await writeUsPortfolio(input, { rows: ROWS, seed: 11 });
  // Two at once, as the trials run: the kill points spread over a run as long as theirs.
  const dbs = [path.join(tempDir(), 'reference.duckdb'), path.join(tempDir(), 'reference.duckdb')];
  const runs = await Promise.all(
    dbs.map((db) => runAndKill(['--db', db, '--quiet', 'portfolio', 'import', input, '--name', 'book'], Infinity, env)),
  );
  for (const t of runs) expect(t.code, t.stderr).toBe(0);
  runMs = Math.max(...runs.map((t) => t.ms));
  reference = await stateOf(dbs[0]);
  expect(reference).toMatchObject({ portfolios: 1, locations: ROWS, orphans: 0, duplicates: 0, complete: 1 });
  expect(await stateOf(dbs[1])).toEqual(reference);
}, 60_000);

describe(`portfolio import killed at random moments (seed ${KILL_SEED})`, () => {
  it(`${STORES * TRIALS_PER_STORE} kills leave the portfolio wholly there or absent, and the re-run completes with no duplicates`, async () => {
    const random = seeded(KILL_SEED + 11);
    // The first store's first kill aims at node loading and the store being created; the others at the
    // import itself (the store already there), from the header to past the commit.
    const fractions = Array.from({ length: STORES }, (_, s) =>
      Array.from({ length: TRIALS_PER_STORE }, (_, k) =>
        s === 0 && k === 0 ? 0.05 + 0.3 * random() : 0.2 + 0.8 * random(),
      ),
    );
    const runLength = new RunLength(runMs);
    const outcomes = { killed: 0, noStore: 0, absent: 0, whole: 0 };
    const storeTrials = async (s: number) => {
      const dir = tempDir('catintel-kill-');
      const db = path.join(dir, 'store.duckdb');
      if (s > 0)
        expect(
          (await cli(['--db', db, 'locations', 'add', '--name', 'x', '--lat', '30', '--lng', '-90'], env)).code,
        ).toBe(0);
      for (let k = 0; k < TRIALS_PER_STORE; k++) {
        const at = runLength.at(fractions[s][k]);
        const where = `store ${s}, kill ${k} at ${at} ms (seed ${KILL_SEED})`;
        const t = await runAndKill(['--db', db, '--quiet', 'portfolio', 'import', input, '--name', 'book'], at, env);
        runLength.observe(t);
        if (t.finished) expect(t.code, `${where}: ${t.stderr}`).toBe(0);
        else outcomes.killed++;
        if (!fs.existsSync(db)) {
          outcomes.noStore++;
          continue;
        }
        const info = await cli(['--db', db, '--json', 'db', 'info'], env);
        expect(info.code, `${where}: ${info.stderr}`).toBe(0);
        const state = await stateOf(db);
        expect({ orphans: state.orphans, duplicates: state.duplicates }, where).toEqual({ orphans: 0, duplicates: 0 });
        if (state.portfolios === 0) {
          outcomes.absent++;
          expect(state.locations, where).toBe(0);
        } else {
          // Wholly there, and never twice: a run after a commit answers the stored portfolio.
          outcomes.whole++;
          expect(state, where).toEqual(reference);
        }
        if (!t.finished) expect(fs.existsSync(`${db}.lock`), where).toBe(false);
      }
      const rerun = await runAndKill(
        ['--db', db, '--quiet', 'portfolio', 'import', input, '--name', 'book'],
        Infinity,
        env,
      );
      expect(rerun.code, rerun.stderr).toBe(0);
      expect(await stateOf(db)).toEqual(reference);
    };
    for (let s = 0; s < STORES; s += 2)
      await Promise.all([storeTrials(s), s + 1 < STORES ? storeTrials(s + 1) : undefined]);
    console.log(`portfolio import kill trials (seed ${KILL_SEED}, run ${runMs} ms): ${JSON.stringify(outcomes)}`);
    expect(outcomes.killed).toBeGreaterThanOrEqual(Math.ceil(0.4 * STORES * TRIALS_PER_STORE)); // most kill points fall inside a run (8 of 20; timing varies with load)
    expect(outcomes.noStore + outcomes.absent).toBeGreaterThan(0);
  }, 120_000);
});
