/**
 * Every trigger says how it is evaluated (docs/triggers.md "Which threshold fits which peril"): the feed
 * that moves it, or "manual observations" for the index values no feed publishes (industry loss, PCS-style;
 * hurricane storm surge). A combination no feed can evaluate and no report supplies (storm surge on a
 * flood: river gauges report stage) is refused with the reason. HTTP answers are validated against
 * openapi.yaml by the harness; the CLI's text names the same.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, tempDir } from './helpers/cli.js';
import { platform, seededStore, token, type Platform } from './http/helpers/harness.js';

const SITE = { lat: 26.64, lng: -81.87, radius_km: 50 };
const BODIES = [
  { name: 'wind', peril: 'hurricane', threshold_type: 'wind_speed_kt', threshold_value: 100, from: 'nhc' },
  { name: 'pressure', peril: 'hurricane', threshold_type: 'central_pressure_mb', threshold_value: 950, from: 'nhc' },
  { name: 'quake', peril: 'earthquake', threshold_type: 'magnitude', threshold_value: 7, from: 'usgs-earthquakes' },
  { name: 'gauge', peril: 'flood', threshold_type: 'gauge_stage_ft', threshold_value: 10, from: 'usgs-gauges' },
  {
    name: 'surge',
    peril: 'hurricane',
    threshold_type: 'storm_surge_ft',
    threshold_value: 8,
    from: 'manual observations',
  },
  {
    name: 'industry',
    peril: 'hurricane',
    threshold_type: 'industry_loss_usd',
    threshold_value: 30e9,
    from: 'manual observations',
  },
];

let p: Platform;
beforeAll(async () => {
  p = await platform(await seededStore(), { rateLimit: 'off' });
}, 60_000);
afterAll(async () => p?.close());

describe('evaluated_from over HTTP', () => {
  it('the 201 body and the list name the feed, or manual observations', async () => {
    const owner = await token('enterprise', { sub: 'evaluated-from@example.com' });
    for (const b of BODIES) {
      const { from, ...body } = b;
      const r = await p.call('/api/v1/triggers', { token: owner, body: { ...body, ...SITE } });
      expect([r.status, r.body.evaluated_from], b.name).toEqual([201, from]);
    }
    const list = (await p.call('/api/v1/triggers', { token: owner })).body;
    const byName = (a: string[], b: string[]) => a[0].localeCompare(b[0]);
    expect(list.triggers.map((t: any) => [t.name, t.evaluated_from]).sort(byName)).toEqual(
      BODIES.map((b) => [b.name, b.from]).sort(byName),
    );
  });

  it('storm surge on a flood is refused: 422 naming threshold_type and peril, with the reason', async () => {
    const owner = await token('agency', { sub: 'surge-flood@example.com' });
    const r = await p.call('/api/v1/triggers', {
      token: owner,
      body: { name: 'surge on a river', peril: 'flood', threshold_type: 'storm_surge_ft', threshold_value: 8, ...SITE },
    });
    expect([r.status, r.body.code]).toEqual([422, 'validation_failed']);
    expect(r.body.errors.map((e: any) => e.field)).toEqual(['threshold_type', 'peril']);
    expect(r.body.errors[0].message).toMatch(/no feed reports storm surge for a flood.*gauge_stage_ft/);
    expect((await p.call('/api/v1/triggers', { token: owner })).body.count).toBe(0);
  });
});

describe('evaluated_from on the CLI', () => {
  it('create and list say how each trigger is evaluated; surge on a flood exits 2 with the reason', async () => {
    const db = path.join(tempDir('catintel-evaluated-from-'), 'x.duckdb');
    const run = (argv: string[]) => cli(['--db', db, ...argv], { CATINTEL_NOW: '2022-09-29T03:32:09Z' });
    const site = ['--lat', '26.64', '--lng', '-81.87', '--radius-km', '50'];
    const made = await run([
      'trigger',
      'create',
      '--name',
      'FL industry 30bn',
      '--peril',
      'hurricane',
      ...site,
      '--threshold-type',
      'industry_loss_usd',
      '--threshold-value',
      '30000000000',
    ]);
    expect(made.code, made.stderr).toBe(0);
    expect(made.stdout).toMatch(/evaluated from manual observations \(`catintel trigger observe`\)/);
    await run([
      'trigger',
      'create',
      '--name',
      'Fort Myers 100 kt',
      '--peril',
      'hurricane',
      ...site,
      '--threshold-type',
      'wind_speed_kt',
      '--threshold-value',
      '100',
    ]);
    const list = await run(['trigger', 'list']);
    expect(list.stdout).toMatch(/evaluated from/);
    expect(list.stdout).toMatch(/FL industry 30bn.*manual observations/);
    expect(list.stdout).toMatch(/Fort Myers 100 kt.*nhc/);
    const refused = await run([
      'trigger',
      'create',
      '--name',
      'x',
      '--peril',
      'flood',
      ...site,
      '--threshold-type',
      'storm_surge_ft',
      '--threshold-value',
      '8',
    ]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/threshold_type: .*no feed reports storm surge for a flood/);
  });
});
