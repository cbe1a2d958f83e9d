/**
 * A gauge trigger reads its gauge whatever the NWS flood category (docs/triggers.md "Which events"). The
 * real recorded USGS response (../shared/data/feeds/usgs_water/waterservices_iv_01491000_01645000.json)
 * has Seneca Creek at Dawsonville, MD (USGS 01645000) at 2.68 ft on 2020-02-13 16:50 EST, below its NWS
 * action stage (5 ft): the gauge's record is not a live flood event, yet a 2 ft trigger on that gauge is
 * triggered (134 %), and /events/live still shows no flood.
 */
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli, tempDir } from './helpers/cli.js';
import { sharedData } from './helpers/paths.js';

const env = { CATINTEL_NOW: '2020-02-14T00:00:00Z' };
const SENECA = ['--lat', '39.1281', '--lng', '-77.3358'];

describe('a gauge_stage_ft trigger below the action stage', () => {
  let db: string;
  const run = (argv: string[]) => cli(['--db', db, ...argv], env);

  beforeAll(async () => {
    db = path.join(tempDir('catintel-gauge-trigger-'), 'gauges.duckdb');
    const ingest = await run([
      'ingest',
      'usgs-gauges',
      '--from',
      sharedData('feeds/usgs_water/waterservices_iv_01491000_01645000.json'),
    ]);
    expect(ingest.code, ingest.stderr).toBe(0);
  }, 60_000);

  it('reads Seneca Creek at 2.68 ft against a 2 ft threshold: triggered, and the gauge is still not a live flood', async () => {
    const made = await run([
      'trigger',
      'create',
      '--name',
      'Seneca Creek 2 ft',
      '--peril',
      'flood',
      ...SENECA,
      '--radius-km',
      '5',
      '--threshold-type',
      'gauge_stage_ft',
      '--threshold-value',
      '2',
      '--json',
    ]);
    expect(made.code, made.stderr).toBe(0);
    const id = made.json().id;
    const r = await run(['trigger', 'evaluate', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json().newly_triggered).toMatchObject([
      { trigger_id: id, observed_value: 2.68, unit: 'ft', proximity_pct: 134 },
    ]);

    const [entry] = (await run(['trigger', 'history', id, '--json'])).json().entries;
    expect(entry).toMatchObject({
      source: 'usgs-gauges',
      source_id: '01645000',
      observed_at: '2020-02-13T21:50:00Z',
      observed_value: 2.68,
      state: 'triggered',
    });
    expect((await run(['trigger', 'verify', id, '--json'])).json()).toMatchObject({ agreeing: 1, disagreeing: [] });

    // Below action stage the reading is not a flood: nothing of it on the live map.
    const live = await run(['events', 'live', '--event-type', 'flood', '--json']);
    expect(live.code, live.stderr).toBe(0);
    expect(JSON.stringify(live.json())).not.toContain('01645000');
  });
});
