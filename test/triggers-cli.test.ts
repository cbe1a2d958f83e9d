/**
 * Parametric triggers from the CLI (issue 10 parts 2-4) on the real Hurricane Ian 2022 best track
 * (../shared/data/hazard_history/hurricanes/bal092022.dat), read as of 2022-09-29 12:00Z (after landfall):
 * a 100 kt wind trigger within 50 km of Fort Myers is triggered, the same trigger at Miami is not, and the
 * receipts say which value, position and rule produced each answer. A second run adds nothing; verify
 * agrees with every receipt, and disagrees once a stored input is altered.
 */
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { DuckDBInstance } from '@duckdb/node-api';
import { cli, tempDir } from './helpers/cli.js';
import { sharedData } from './helpers/paths.js';

const NOW = '2022-09-29T12:00:00Z';
const env = { CATINTEL_NOW: NOW };
const FORT_MYERS = ['--lat', '26.64', '--lng', '-81.87'];
const MIAMI = ['--lat', '25.76', '--lng', '-80.19'];
const wind100 = (name: string, site: string[]) => [
  'trigger',
  'create',
  '--name',
  name,
  '--peril',
  'hurricane',
  ...site,
  '--radius-km',
  '50',
  '--threshold-type',
  'wind_speed_kt',
  '--threshold-value',
  '100',
  '--json',
];

async function sql(db: string, statement: string): Promise<void> {
  const inst = await DuckDBInstance.create(db);
  const conn = await inst.connect();
  await conn.run(statement);
  conn.closeSync();
  inst.closeSync();
}

describe('trigger evaluate on Hurricane Ian (2022)', () => {
  let db: string;
  let fortMyers: string;
  let miami: string;
  const run = (argv: string[], e: Record<string, string> = env) => cli(['--db', db, ...argv], e);

  beforeAll(async () => {
    db = path.join(tempDir('catintel-triggers-'), 'ian.duckdb');
    const ingest = await run(['ingest', 'nhc', '--from', sharedData('hazard_history/hurricanes/bal092022.dat')]);
    expect(ingest.code, ingest.stderr).toBe(0);
    fortMyers = (await run(wind100('Fort Myers 100 kt', FORT_MYERS))).json().id;
    miami = (await run(wind100('Miami 100 kt', MIAMI))).json().id;
  }, 60_000);

  it('triggers Fort Myers and not Miami, naming the value, the position and the rule; --fail-on-breach exits 3', async () => {
    const r = await run(['trigger', 'evaluate', '--json', '--fail-on-breach']);
    expect(r.code, r.stderr).toBe(3);
    const out = r.json();
    expect(out).toMatchObject({
      triggers_evaluated: 2,
      events_considered: 1,
      entries_added: 2,
      rule_version: 'catintel-trigger-rules/2',
    });
    expect(out.newly_triggered.map((t: any) => t.trigger_id)).toEqual([fortMyers]);

    const fm = (await run(['trigger', 'history', fortMyers, '--json'])).json();
    expect(fm.trigger).toMatchObject({ state: 'triggered', status: 'active' });
    const [hit] = fm.entries;
    // Between the 18:00Z and 19:05Z (landfall) fixes the centre passed 37 km from the site: the deck's own
    // radius of maximum wind (20 nm), so the site had the eye wall's wind, the interpolated Vmax of 131 kt.
    expect(hit).toMatchObject({
      source: 'nhc',
      source_id: 'al092022',
      observed_at: '2022-09-28T18:52:00Z',
      observed_value: 131,
      unit: 'kt',
      distance_km: 37,
      proximity_pct: 131,
      state: 'triggered',
      previous_state: 'clear',
      rule_version: 'catintel-trigger-rules/2',
    });
    expect(hit.method).toMatch(
      /^site_wind_holland: .*Here: Rm 37\.0 km \(the record's RMW\), B 2\.32 \(fitted to the record's wind radii\)$/,
    );
    expect(hit.source_version).toMatch(/^[0-9a-f]{40}$/);
    expect(hit.inputs_hash).toMatch(/^[0-9a-f]{64}$/);

    const mi = (await run(['trigger', 'history', miami, '--json'])).json();
    expect(mi.trigger).toMatchObject({ state: 'clear', proximity_pct: 0 });
    // No track position came within 50 km of Miami: the nearest approach (214 km) is recorded, no value.
    expect(mi.entries).toHaveLength(1);
    expect(mi.entries[0]).toMatchObject({ observed_value: null, distance_km: 214.3, proximity_pct: 0, state: 'clear' });

    const alerts = (await run(['trigger', 'alerts', '--json'])).json();
    expect(alerts.alerts.map((a: any) => [a.trigger_id, a.kind])).toEqual([[fortMyers, 'triggered']]);
  });

  it('a second evaluate over the same data adds no entry, raises no alert and exits 0 with --fail-on-breach', async () => {
    const r = await run(['trigger', 'evaluate', '--json', '--fail-on-breach']);
    expect(r.code).toBe(0);
    expect(r.json()).toMatchObject({ entries_added: 0, alerts_raised: 0, newly_triggered: [] });
    expect((await run(['trigger', 'history', fortMyers, '--json'])).json().numberMatched).toBe(1);
    const alerts = (await run(['trigger', 'alerts', '--mark-read', '--json'])).json();
    expect(alerts.count).toBe(1);
    expect((await run(['trigger', 'alerts', '--json'])).json().count).toBe(0); // read now
  });

  it('a pressure trigger fires below its threshold: Ian bottomed at 940 mb inside a 100 km Fort Myers circle', async () => {
    const t = (
      await run([
        'trigger',
        'create',
        '--name',
        'FM 950 mb',
        '--peril',
        'hurricane',
        ...FORT_MYERS,
        '--radius-km',
        '100',
        '--threshold-type',
        'central_pressure_mb',
        '--threshold-value',
        '950',
        '--json',
      ])
    ).json();
    await run(['trigger', 'evaluate', '--json']);
    const [e] = (await run(['trigger', 'history', t.id, '--json'])).json().entries;
    expect(e.unit).toBe('mb');
    expect(e.observed_value).toBeLessThan(950);
    // Deficit from 1010 mb: (1010 - observed) / (1010 - 950).
    expect(e.proximity_pct).toBeCloseTo(Math.round((1000 * (1010 - e.observed_value)) / 60) / 10, 1);
    expect(e.state).toBe('triggered');
  });

  it('verify agrees with every entry, and fails (exit 1) naming the entry once a stored input is altered', async () => {
    const ok = await run(['trigger', 'verify', fortMyers, '--json']);
    expect(ok.code, ok.stdout).toBe(0);
    expect(ok.json()).toMatchObject({ entries_checked: 1, agreeing: 1, disagreeing: [] });

    // Someone edits the stored best-track fix the receipt was computed from.
    await sql(
      db,
      `UPDATE observations SET value = 90 WHERE kind = 'wind_speed_kt' AND observed_at = TIMESTAMP '2022-09-28 20:35:00'`,
    );
    const bad = await run(['trigger', 'verify', fortMyers, '--json']);
    expect(bad.code).toBe(1);
    expect(bad.json().disagreeing).toHaveLength(1);
    expect(bad.json().disagreeing[0].problems.join(' ')).toMatch(/store's data differ/);
    await sql(
      db,
      `UPDATE observations SET value = 125 WHERE kind = 'wind_speed_kt' AND observed_at = TIMESTAMP '2022-09-28 20:35:00'`,
    );
    expect((await run(['trigger', 'verify', fortMyers])).code).toBe(0);

    // Someone edits the receipt's own copy of the inputs: the recomputation no longer gives 131 kt.
    await sql(
      db,
      `UPDATE trigger_history SET inputs = replace(inputs::VARCHAR, '"windKt":130', '"windKt":95')::JSON WHERE trigger_id = '${fortMyers}'`,
    );
    const altered = await run(['trigger', 'verify', fortMyers, '--json']);
    expect(altered.code).toBe(1);
    const problems = altered.json().disagreeing[0].problems.join(' ');
    expect(problems).toMatch(/no longer match their recorded hash/);
    expect(problems).toMatch(/observed_value: recorded 131, recomputed/);
  });

  it('refuses a threshold that does not fit the peril, naming the types that do (exit 2)', async () => {
    const r = await run([
      'trigger',
      'create',
      '--name',
      'x',
      '--peril',
      'hurricane',
      ...MIAMI,
      '--radius-km',
      '50',
      '--threshold-type',
      'magnitude',
      '--threshold-value',
      '7',
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /threshold_type: magnitude does not fit peril hurricane; for hurricane use wind_speed_kt, storm_surge_ft, industry_loss_usd, central_pressure_mb/,
    );
  });

  it('an industry loss trigger fires on a value entered with `trigger observe`, once', async () => {
    const t = (
      await run([
        'trigger',
        'create',
        '--name',
        'FL industry 30bn',
        '--peril',
        'hurricane',
        ...FORT_MYERS,
        '--radius-km',
        '500',
        '--threshold-type',
        'industry_loss_usd',
        '--threshold-value',
        '30000000000',
        '--alert-at-pct',
        '50',
        '--json',
      ])
    ).json();
    const o = await run([
      'trigger',
      'observe',
      t.id,
      '--value',
      '20000000000',
      '--source',
      'PCS estimate 2022-10-05',
      '--event',
      'AL092022',
      '--json',
    ]);
    expect(o.code, o.stderr).toBe(0);
    expect(o.json()).toMatchObject({ unit: 'USD', event_title: expect.stringMatching(/Ian/) });
    let r = (await run(['trigger', 'evaluate', '--json'])).json();
    expect(r.entries.filter((e: any) => e.trigger_id === t.id)).toMatchObject([
      { observed_value: 20000000000, proximity_pct: 66.7, state: 'alert' },
    ]);
    await run([
      'trigger',
      'observe',
      t.id,
      '--value',
      '41000000000',
      '--source',
      'PCS resurvey 2022-11-10',
      '--event',
      'AL092022',
    ]);
    r = await run(['trigger', 'evaluate', '--json', '--fail-on-breach']);
    expect(r.code).toBe(3);
    expect(r.json().newly_triggered).toMatchObject([
      { trigger_id: t.id, observed_value: 41000000000, proximity_pct: 136.7 },
    ]);
    expect((await run(['trigger', 'verify', t.id])).code).toBe(0);
    // Altering an entered value after the fact is caught like any other input.
    await sql(db, `UPDATE trigger_observations SET value = 45000000000 WHERE source = 'PCS resurvey 2022-11-10'`);
    expect((await run(['trigger', 'verify', t.id])).code).toBe(1);
  });

  it('deactivate ends the trigger (gone from every command, not evaluated again); another account never sees it', async () => {
    expect((await run(['--account', 'bob', 'trigger', 'history', miami])).code).toBe(2);
    expect((await run(['--account', 'bob', 'trigger', 'history', miami])).stderr).toMatch(
      /no trigger .* in account bob/,
    );
    expect((await run(['--account', 'bob', 'trigger', 'deactivate', miami])).code).toBe(2);
    const d = await run(['trigger', 'deactivate', miami, '--json']);
    expect(d.json()).toMatchObject({ status: 'inactive', deactivated_at: NOW });
    expect((await run(['trigger', 'list', '--json'])).json().triggers.map((t: any) => t.id)).not.toContain(miami);
    expect((await run(['trigger', 'history', miami])).code).toBe(2);
    expect((await run(['trigger', 'deactivate', miami])).code).toBe(2);
    await sql(db, `DELETE FROM trigger_history WHERE trigger_id = '${miami}'`);
    expect((await run(['trigger', 'evaluate', '--json'])).json().entries.map((e: any) => e.trigger_id)).not.toContain(
      miami,
    );
  });
});
