/**
 * The site wind profile uses the storm's own size where the record gives it (docs/triggers.md "The wind
 * profile"). Hurricane Ian's real best track (../shared/data/hazard_history/hurricanes/bal092022.dat) read
 * as of its landfall fix, 2022-09-28 19:05Z: 130 kt, 941 mb, RMW 20 nm (37 km), 64-kt radii 30/40/30/45 nm.
 * Fort Myers lies 33.5 km from that centre, inside the eye wall, and the track between the 18:00Z and 19:05Z
 * fixes passed 37 km from it, right at the RMW: a 100 kt / 50 km trigger there is triggered as of that fix
 * (with the statistical Rm of ~12.6 km it read 95.5 kt, "alert", and fired only at the 20:35Z fix), and
 * the receipt names the Rm and B that decided.
 */
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli, tempDir } from './helpers/cli.js';
import { FORT_MYERS_OPTIONS } from './helpers/fort-myers-trigger.js';
import { sharedData } from './helpers/paths.js';

const env = { CATINTEL_NOW: '2022-09-28T19:05:00Z' };

describe("Ian's landfall fix with the b-deck's own radius of maximum wind", () => {
  let db: string;
  const run = (argv: string[]) => cli(['--db', db, ...argv], env);

  beforeAll(async () => {
    db = path.join(tempDir('catintel-storm-size-'), 'ian.duckdb');
    const ingest = await run(['ingest', 'nhc', '--from', sharedData('hazard_history/hurricanes/bal092022.dat')]);
    expect(ingest.code, ingest.stderr).toBe(0);
  }, 60_000);

  it('a Fort Myers 100 kt / 50 km trigger is triggered as of the 19:05Z fix, and the receipt cites the RMW', async () => {
    const made = await run(['trigger', 'create', ...FORT_MYERS_OPTIONS, '--json']);
    expect(made.code, made.stderr).toBe(0);
    const id = made.json().id;
    const r = await run(['trigger', 'evaluate', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json().newly_triggered.map((t: any) => t.trigger_id)).toEqual([id]);

    const [hit] = (await run(['trigger', 'history', id, '--json'])).json().entries;
    // Between the 18:00Z fix and the 19:05Z one the centre passed 37 km from the site, the deck's RMW: the
    // site had the eye wall's full wind (the interpolated Vmax there, ~131 kt).
    expect(hit).toMatchObject({
      observed_at: '2022-09-28T18:52:00Z',
      distance_km: 37,
      state: 'triggered',
      rule_version: 'catintel-trigger-rules/2',
    });
    expect(hit.observed_value).toBeGreaterThanOrEqual(125);
    expect(hit.method).toMatch(/Rm 37\.0 km \(the record's RMW\), B 2\.\d\d \(fitted to the record's wind radii\)/);

    const verify = await run(['trigger', 'verify', id, '--json']);
    expect(verify.json()).toMatchObject({ entries_checked: 1, agreeing: 1, disagreeing: [] });
  });
});
