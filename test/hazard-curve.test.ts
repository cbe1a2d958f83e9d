/**
 * `catintel hazard curve` and GET /hazard/curve (free tier): hurricane wind gust curves from the stochastic
 * catalog and earthquake PGA curves from the rupture set, through the one handler both share. The models
 * read the real shared data (HURDAT2, NSHM 2023 sources); each loads once for the file.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../src/store/db.js';
import { cli } from './helpers/cli.js';
import { platform, seededStore, type Platform } from './http/helpers/harness.js';

let db: Store;
let p: Platform;
beforeAll(async () => {
  db = await seededStore();
  p = await platform(db, { rateLimit: 'off' });
}, 60_000);
afterAll(async () => {
  await db?.close();
});

const LOS_ANGELES = { lat: 34.05, lng: -118.24 };
const CHICAGO = { lat: 41.88, lng: -87.63 };
const MIAMI = { lat: 25.77, lng: -80.19 };
const NEW_YORK = { lat: 40.71, lng: -74.01 };

const curveOf = async (q: string) => {
  const r = await p.call(`/api/v1/hazard/curve?${q}`);
  expect(r.status, JSON.stringify(r.body).slice(0, 300)).toBe(200);
  return r.body;
};
const gustAt = (b: any, years: number) => b.return_periods.find((r: any) => r.return_period_years === years).intensity;

describe('earthquake PGA hazard curve', () => {
  it('Los Angeles over HTTP (free tier, no credential): PGA at 2 %/50 years above 0.5 g, 18 NSHM levels, provenance', async () => {
    const b = await curveOf(`lat=${LOS_ANGELES.lat}&lng=${LOS_ANGELES.lng}&peril=earthquake&imt=pga`);
    expect(b).toMatchObject({
      peril: 'earthquake',
      imt: 'pga',
      unit: 'g',
      site: { vs30_m_s: 760 },
      source_url: 'https://code.usgs.gov/ghsc/nshmp/nshms/nshm-conus',
    });
    expect(b.curve).toHaveLength(18);
    expect(b.pga_2pct_in_50_years_g).toBeGreaterThan(0.5);
    expect(b.pga_10pct_in_50_years_g).toBeLessThan(b.pga_2pct_in_50_years_g);
    expect(b.return_periods.map((r: any) => r.return_period_years)).toEqual([100, 250, 475, 1000, 2475]);
    expect(b.ground_motion_models.join(' ')).toContain('BSSA14');
    // Rates fall as the level rises.
    for (let i = 1; i < b.curve.length; i++)
      expect(b.curve[i].annual_rate).toBeLessThanOrEqual(b.curve[i - 1].annual_rate);
  }, 60_000);

  it('Chicago on the CLI: PGA at 2 %/50 years below 0.1 g, as text and as --json', async () => {
    const json = await cli([
      'hazard',
      'curve',
      '--lat',
      String(CHICAGO.lat),
      '--lng',
      String(CHICAGO.lng),
      '--peril',
      'earthquake',
      '--json',
    ]);
    expect(json.code, json.stderr).toBe(0);
    expect(json.json().pga_2pct_in_50_years_g).toBeLessThan(0.1);
    const text = await cli([
      'hazard',
      'curve',
      '--lat',
      String(CHICAGO.lat),
      '--lng',
      String(CHICAGO.lng),
      '--peril',
      'earthquake',
    ]);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/pga_2pct_in_50_years_g:\s+0\.0\d+/);
    expect(text.stdout).toContain('vs30_m_s');
    expect(text.stdout).toContain('USGS National Seismic Hazard Model 2023');
  }, 60_000);
});

describe('hurricane wind gust hazard curve', () => {
  it("Miami's 100-year gust is above New York's; the answer says how many simulated years and which seed", async () => {
    const miami = await curveOf(`lat=${MIAMI.lat}&lng=${MIAMI.lng}&peril=hurricane_wind`);
    const ny = await curveOf(`lat=${NEW_YORK.lat}&lng=${NEW_YORK.lng}&peril=hurricane`);
    expect(ny.peril).toBe('hurricane_wind');
    expect(miami).toMatchObject({ imt: 'peak_gust_3s', unit: 'mph', event_set: { simulated_years: 1000, seed: 1 } });
    expect(miami.curve.map((c: any) => c.intensity)).toEqual([
      40, 50, 60, 70, 80, 90, 100, 110, 120, 130, 140, 150, 160, 170, 180, 190, 200,
    ]);
    expect(miami.return_periods.map((r: any) => r.return_period_years)).toEqual([10, 25, 50, 100, 250, 500, 700, 1000]);
    expect(gustAt(miami, 100)).toBeGreaterThan(gustAt(ny, 100) + 30);
    expect(gustAt(miami, 100)).toBeGreaterThan(110);
    expect(miami.source).toContain('HURDAT2');
  }, 60_000);

  it('on the CLI as text: the gust table, the simulated years and the seed', async () => {
    const r = await cli([
      'hazard',
      'curve',
      '--lat',
      String(MIAMI.lat),
      '--lng',
      String(MIAMI.lng),
      '--peril',
      'hurricane_wind',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/simulated_years:\s+1000/);
    expect(r.stdout).toMatch(/return_period_years\s+intensity\s+method/);
    expect(r.stdout).toContain('unit:');
  }, 60_000);

  it('Denver, inland on the grid, answers with a negligible curve and a note', async () => {
    const b = await curveOf('lat=39.74&lng=-104.99&peril=hurricane_wind');
    expect(b.curve.find((c: any) => c.intensity === 60).annual_rate).toBeLessThan(0.002);
    expect(b.notes.join(' ')).toMatch(/negligible/);
  }, 60_000);
});

describe('bad input', () => {
  it('HTTP: an unknown peril, an unsupported imt or a missing lat is 400 naming the parameter', async () => {
    for (const [q, field] of [
      ['lat=34&lng=-118&peril=wildfire', 'peril'],
      ['lat=34&lng=-118&peril=earthquake&imt=sa1', 'imt'],
      ['lng=-118&peril=earthquake', 'lat'],
      ['lat=95&lng=-118&peril=earthquake', 'lat'],
    ]) {
      const r = await p.call(`/api/v1/hazard/curve?${q}`, { unchecked: true });
      expect(r.status, q).toBe(400);
      expect(r.headers.get('content-type'), q).toContain('application/problem+json');
      expect(JSON.stringify(r.body), q).toContain(field);
    }
    const imt = await p.call('/api/v1/hazard/curve?lat=34&lng=-118&peril=earthquake&imt=sa1', { unchecked: true });
    expect(imt.body.detail).toContain('pga');
  });

  it('HTTP: a point outside the US, or outside the model, is 422 with the reason', async () => {
    const london = await p.call('/api/v1/hazard/curve?lat=51.5&lng=-0.12&peril=earthquake');
    expect(london.status).toBe(422);
    expect(london.body.detail).toMatch(/outside the covered area/);
    const honolulu = await p.call('/api/v1/hazard/curve?lat=21.31&lng=-157.86&peril=hurricane_wind');
    expect(honolulu.status).toBe(422);
    expect(honolulu.body.detail).toMatch(/hurricane wind model's grid/);
    const withImt = await p.call('/api/v1/hazard/curve?lat=25.77&lng=-80.19&peril=hurricane_wind&imt=pga');
    expect(withImt.status).toBe(422);
    expect(withImt.body.detail).toMatch(/imt/);
  });

  it('CLI: exit 2 with one line naming the parameter', async () => {
    const peril = await cli(['hazard', 'curve', '--lat', '34', '--lng', '-118', '--peril', 'tornado']);
    expect(peril.code).toBe(2);
    expect(peril.stderr).toMatch(/peril: "tornado" is not one of hurricane_wind, earthquake/);
    const imt = await cli(['hazard', 'curve', '--lat', '34', '--lng', '-118', '--peril', 'earthquake', '--imt', 'sa1']);
    expect(imt.code).toBe(2);
    expect(imt.stderr).toMatch(/imt: "sa1" is not one of pga/);
    const outside = await cli(['hazard', 'curve', '--lat', '51.5', '--lng', '-0.12', '--peril', 'earthquake']);
    expect(outside.code).toBe(2);
    expect(outside.stderr).toMatch(/outside the covered area/);
  });
});
