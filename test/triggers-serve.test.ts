/**
 * Every trigger command works while a real `catintel serve` owns the store: the CLI hands it to the server
 * over the local channel, with the same answers and exit codes (3 for --fail-on-breach, 1 for a verify
 * mismatch); and `serve --ingest-every N` evaluates the triggers after each scheduled ingest.
 */
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cli, tempDir } from './helpers/cli.js';
import { FORT_MYERS_OPTIONS } from './helpers/fort-myers-trigger.js';
import { startServe } from './helpers/serve.js';
import { REPO_ROOT, sharedData } from './helpers/paths.js';

const built = fs.existsSync(path.join(REPO_ROOT, 'dist/src/cli/main.js'));
const NOW = '2022-09-29T12:00:00Z';
// The scheduler's feeds point at a closed local port (no network is touched): every feed fails at once,
// and the evaluation round after the tick must run all the same.
const DEAD = 'http://127.0.0.1:9/feed';
const feeds = Object.fromEntries(
  ['USGS_EARTHQUAKES', 'NWS_ALERTS', 'NHC', 'NIFC_WILDFIRES', 'USGS_GAUGES'].map((s) => [
    `CATINTEL_FEED_URL_${s}`,
    DEAD,
  ]),
);
const env = { CATINTEL_NOW: NOW, CATINTEL_FETCH_TIMEOUT_MS: '1500', CATINTEL_FETCH_ATTEMPTS: '1', ...feeds };

let child: ChildProcess | undefined;
afterEach(() => {
  if (child && child.exitCode === null) child.kill('SIGKILL');
  child = undefined;
});

async function serve(db: string, ...extra: string[]): Promise<void> {
  child = await startServe(db, { env, args: extra });
}

async function ianStore(): Promise<string> {
  const db = path.join(tempDir('catintel-triggers-serve-'), 'ian.duckdb');
  const r = await cli(
    ['--db', db, 'ingest', 'nhc', '--from', sharedData('hazard_history/hurricanes/bal092022.dat')],
    env,
  );
  expect(r.code, r.stderr).toBe(0);
  return db;
}

describe.skipIf(!built)('trigger commands beside a running server (a real process; needs `make build`)', () => {
  let db: string;
  /** The same store untouched, for the scheduler's test: a copy made before the first test writes to it. */
  let fresh: string;
  beforeAll(async () => {
    db = await ianStore();
    fresh = path.join(tempDir('catintel-triggers-serve-'), 'ian.duckdb');
    fs.copyFileSync(db, fresh); // a closed store is its one file
  }, 60_000);

  it('create, list, evaluate (exit 3), history, verify, alerts, observe and deactivate run through the server', async () => {
    await serve(db);
    const run = (argv: string[]) => cli(['--db', db, ...argv], env);
    const created = await run(['trigger', 'create', ...FORT_MYERS_OPTIONS, '--json']);
    expect(created.code, created.stderr).toBe(0);
    const id = created.json().id;
    expect((await run(['trigger', 'list', '--json'])).json().triggers.map((t: any) => t.id)).toEqual([id]);

    const evaluated = await run(['trigger', 'evaluate', '--json', '--fail-on-breach']);
    expect(evaluated.code, evaluated.stderr).toBe(3);
    expect(evaluated.json().newly_triggered[0]).toMatchObject({ trigger_id: id, observed_value: 131, unit: 'kt' });
    expect((await run(['trigger', 'evaluate', '--fail-on-breach', '--json'])).json().entries_added).toBe(0);

    expect((await run(['trigger', 'history', id, '--json'])).json().entries[0]).toMatchObject({
      state: 'triggered',
      distance_km: 37,
    });
    const verified = await run(['trigger', 'verify', id, '--json']);
    expect([verified.code, verified.json().agreeing]).toEqual([0, 1]);
    expect((await run(['trigger', 'alerts', '--mark-read', '--json'])).json().count).toBe(1);

    const loss = (
      await run([
        'trigger',
        'create',
        '--name',
        'loss',
        '--peril',
        'hurricane',
        '--lat',
        '26.64',
        '--lng',
        '-81.87',
        '--radius-km',
        '500',
        '--threshold-type',
        'industry_loss_usd',
        '--threshold-value',
        '1000',
        '--json',
      ])
    ).json();
    const observed = await run([
      'trigger',
      'observe',
      loss.id,
      '--value',
      '2000',
      '--source',
      'test',
      '--event',
      'AL092022',
      '--json',
    ]);
    expect(observed.code, observed.stderr).toBe(0);
    expect((await run(['trigger', 'deactivate', id, '--json'])).json().status).toBe('inactive');
    expect((await run(['trigger', 'history', '00000000-0000-4000-8000-000000000000'])).code).toBe(2); // not found, as standalone
  }, 60_000);

  it('serve --ingest-every evaluates the triggers after each scheduled ingest', async () => {
    const id = (await cli(['--db', fresh, 'trigger', 'create', ...FORT_MYERS_OPTIONS, '--json'], env)).json().id;
    await serve(fresh, '--ingest-every', '1');
    let entries = 0;
    // Asked every 100 ms for up to 20 s: the test waits for the round's entry, not for a fixed delay.
    for (let i = 0; i < 200 && entries === 0; i++) {
      await new Promise((r) => setTimeout(r, 100));
      entries = (await cli(['--db', fresh, 'trigger', 'history', id, '--json'], env)).json().numberMatched;
    }
    expect(entries).toBe(1);
    const t = (await cli(['--db', fresh, 'trigger', 'list', '--json'], env)).json().triggers[0];
    expect(t).toMatchObject({ state: 'triggered', proximity_pct: 131 });
  }, 60_000);
});
