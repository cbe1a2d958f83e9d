/**
 * Event intelligence (issue 13, docs/intelligence.md): infrastructure near a point with coverage, the
 * prediction of a real ingested M6+ earthquake checked against the Reasenberg & Jones formula by hand, the
 * hurricane inland decay and the timeline of Hurricane Ian in the embedded default. Real files in, answers
 * validated against openapi.yaml by the HTTP harness.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { Store } from '../src/store/db.js';
import { cli, tempDir } from './helpers/cli.js';
import { seedStore } from './helpers/store.js';
import { FIXTURES, sharedData } from './helpers/paths.js';
import { SECRET, contextOn, platform, token, type Platform } from './http/helpers/harness.js';
import { probabilityAtLeastOne } from '../src/intelligence/domain/aftershocks.js';

const LOMA = path.join(FIXTURES, 'feeds/usgs/nc216859_lomaprieta1989.geojson');
// Three quarters of an hour after the 00:04:15 UTC origin (1989-10-18).
const LOMA_NOW = '1989-10-18T00:50:00Z';
const SEED_NOW = '2022-09-29T03:32:09Z';

let seedDb: string;
let lomaDb: string;
beforeAll(async () => {
  seedDb = await seedStore(); // `db seed` at SEED_NOW, the seed's instant
  lomaDb = path.join(tempDir(), 'loma.duckdb');
  expect(
    (await cli(['--db', lomaDb, '--quiet', 'ingest', 'usgs-earthquakes', '--from', LOMA], { CATINTEL_NOW: LOMA_NOW }))
      .code,
  ).toBe(0);
});

/** The HTTP app on a store file with its clock pinned at `now` (responses checked against openapi.yaml by the harness). */
async function onHttp<T>(db: string, now: string, fn: (p: Platform) => Promise<T>): Promise<T> {
  const store = await Store.open(db);
  try {
    return await fn(
      await platform(store, { rateLimit: 'off', ctx: { ...contextOn(store), clock: () => new Date(now) } }),
    );
  } finally {
    await store.close();
  }
}

describe('prediction of a real M6+ earthquake (Loma Prieta, M6.9)', () => {
  it('gives the Reasenberg & Jones probabilities, equal to the formula worked by hand', async () => {
    const r = await cli(['--db', lomaDb, '--json', 'events', 'prediction', 'nc216859'], { CATINTEL_NOW: LOMA_NOW });
    expect(r.code, r.stderr).toBe(0);
    const b = r.json();
    expect(b.indicative).toBe(true);
    expect(b.valid_at).toBe('1989-10-18T00:50:00.000Z');
    expect(b.method.parameters).toEqual({ a: -1.67, b: 0.91, p: 1.08, c_days: 0.05 });
    expect(b.forecast.main_shock_magnitude).toBe(6.9);
    // By hand: t1 = elapsed days since the origin, t2 = t1 + window; N = 10^(a + b(Mm - M)) * ((t1+c)^(1-p) - (t2+c)^(1-p)) / (p-1).
    const t1 = (Date.parse(LOMA_NOW) - Date.parse('1989-10-18T00:04:15Z')) / 86_400_000;
    const byHand = (m: number, days: number) => {
      const n =
        (Math.pow(10, -1.67 + 0.91 * (6.9 - m)) * (Math.pow(t1 + 0.05, -0.08) - Math.pow(t1 + days + 0.05, -0.08))) /
        0.08;
      return 1 - Math.exp(-n);
    };
    const w = Object.fromEntries(b.forecast.windows.map((x: any) => [x.window, x]));
    expect(w.day.p_m5).toBeCloseTo(byHand(5, 1), 4);
    expect(w.week.p_m5).toBeCloseTo(byHand(5, 7), 4);
    expect(w.month.p_m5).toBeCloseTo(byHand(5, 30), 4);
    expect(w.day.p_larger).toBeCloseTo(byHand(6.9, 1), 4);
    expect(w.week.p_larger).toBeCloseTo(byHand(6.9, 7), 4);
    expect(w.month.p_larger).toBeCloseTo(byHand(6.9, 30), 4);
    // Longer windows can only hold more probability.
    expect(w.day.p_m5).toBeLessThan(w.week.p_m5);
    expect(w.week.p_m5).toBeLessThan(w.month.p_m5);
    expect(b.uncertainty).toMatch(/generic California/i);
  });

  it('reproduces the reference figures of docs/methods.md#severity-prediction from the origin', () => {
    // "Mm 6.0 -> P(>=M5, 7 d) = 59 %"; "P(>=Mm in first 7 d) = 10.5 %".
    expect(probabilityAtLeastOne(6.0, 5, 0, 7)).toBeCloseTo(0.594, 2);
    expect(probabilityAtLeastOne(6.0, 6.0, 0, 7)).toBeCloseTo(0.105, 2);
  });

  it('answers free callers over HTTP with the same body, validated against openapi.yaml', async () => {
    const cliBody = (
      await cli(['--db', lomaDb, '--json', 'events', 'prediction', 'nc216859'], { CATINTEL_NOW: LOMA_NOW })
    ).json();
    await onHttp(lomaDb, LOMA_NOW, async (p) => {
      const r = await p.call('/api/v1/events/nc216859/prediction');
      expect(r.status).toBe(200);
      expect(r.body).toEqual(cliBody);
    });
  });
});

describe('Hurricane Ian in the embedded default', () => {
  it('prediction: inland decay from the landfall fix (Kaplan & DeMaria 1995)', async () => {
    const r = await cli(['--db', seedDb, '--json', 'events', 'prediction', 'AL092022'], { CATINTEL_NOW: SEED_NOW });
    expect(r.code, r.stderr).toBe(0);
    const f = r.json().forecast;
    expect(f.state).toBe('inland_decay');
    expect(f.landfall.at).toMatch(/^2022-09-28/);
    const v0 = f.landfall.wind_kt_at_coast;
    expect(v0).toBeGreaterThanOrEqual(110);
    // Decay from the latest fix's 100 kt while the projected centre is over land, held over water.
    expect(f.projected[0].over_land).toBe(true);
    expect(f.projected[0].wind_kt).toBeLessThan(f.latest_fix.wind_kt);
    expect(f.projected[0].wind_kt).toBeGreaterThanOrEqual(f.projected.at(-1).wind_kt);
  });

  it('prediction: Ian re-emerges over the Atlantic and holds a tropical storm at +24 h, no decay over water (issue 28)', async () => {
    const r = await cli(['--db', seedDb, '--json', 'events', 'prediction', 'AL092022'], { CATINTEL_NOW: SEED_NOW });
    expect(r.code, r.stderr).toBe(0);
    const f = r.json().forecast;
    const day = f.projected.find((p: any) => p.hours === 24);
    // Ian made its second landfall in South Carolina at 70-75 kt; decay from the Florida landfall alone said 31.5 kt.
    expect(day.wind_kt).toBeGreaterThanOrEqual(50);
    expect(day.label).toMatch(/^(Tropical storm|Category \d)$/);
    expect(day.over_land).toBe(false);
    expect(day.lng).toBeGreaterThan(-80.6); // east of Cape Canaveral, over the Atlantic
    // Over water the wind holds: +24 h and +48 h carry the same wind.
    expect(f.projected.find((p: any) => p.hours === 48).wind_kt).toBe(day.wind_kt);
    expect(r.json().method.formula).toMatch(/over land/);
  });

  it('timeline: wind and pressure by fix, oldest first, with the status changes and their reason', async () => {
    const r = await cli(['--db', seedDb, '--json', 'events', 'timeline', 'AL092022'], { CATINTEL_NOW: SEED_NOW });
    expect(r.code, r.stderr).toBe(0);
    const b = r.json();
    const times = b.points.map((p: any) => Date.parse(p.at));
    expect(times).toEqual([...times].sort((x, y) => x - y));
    expect(b.points[0]).toMatchObject({ kind: 'status', status: 'active' });
    const wind = b.points.filter((p: any) => p.kind === 'wind_speed_kt');
    expect(wind.length).toBeGreaterThan(20);
    expect(Math.max(...wind.map((p: any) => p.value))).toBe(140);
    for (const p of b.points) expect(p.source).toBe('nhc');
    expect(b.summary.find((s: any) => s.kind === 'central_pressure_mb').min).toBe(937);
  });

  it('timeline is agency and up: 401 without a credential, 200 with one', async () => {
    await onHttp(seedDb, SEED_NOW, async (p) => {
      expect((await p.call('/api/v1/events/AL092022/timeline')).status).toBe(401);
      const r = await p.call('/api/v1/events/AL092022/timeline', { token: await token('agency') });
      expect(r.status).toBe(200);
      expect(r.body.event.source_id).toBe('al092022');
    });
  });
});

describe('infrastructure', () => {
  it('near Miami: hospitals nearest first with distances, all of them in the radius', async () => {
    await onHttp(seedDb, SEED_NOW, async (p) => {
      const r = await p.call('/api/v1/infrastructure?lat=25.77&lng=-80.19&radius_km=10&kind=hospital');
      expect(r.status).toBe(200);
      expect(r.headers.get('content-type')).toMatch(/geo\+json/);
      const d = r.body.features.map((f: any) => f.properties.distance_km);
      expect(d.length).toBeGreaterThan(5);
      expect(d).toEqual([...d].sort((a, b) => a - b));
      expect(Math.max(...d)).toBeLessThanOrEqual(10);
      expect(r.body.features.every((f: any) => f.properties.kind === 'hospital' && f.properties.state === 'FL')).toBe(
        true,
      );
      expect(r.body.features.map((f: any) => f.properties.name)).toContain('JACKSON MEMORIAL HOSPITAL');
      expect(r.body.coverage).toEqual([
        expect.objectContaining({ kind: 'hospital', covered: 'yes', covered_areas: 'national' }),
      ]);
    });
  });

  it('schools in Oregon: the coverage member says schools are not covered there', async () => {
    const r = await cli([
      '--json',
      'infra',
      'near',
      '--lat',
      '44.94',
      '--lng',
      '-123.03',
      '--radius-km',
      '20',
      '--kind',
      'school,fire_station',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const b = r.json();
    expect(b.counts_by_kind.school).toBe(0);
    expect(b.counts_by_kind.fire_station).toBeGreaterThan(0);
    const school = b.coverage.find((c: any) => c.kind === 'school');
    expect(school).toMatchObject({ covered: 'no', covered_areas: ['FL'], query_states: ['OR'] });
    expect(school.note).toMatch(/no data, not no schools/);
    expect(b.coverage.find((c: any) => c.kind === 'fire_station').covered).toBe('yes');
  });

  it('pages with links.next until every facility was seen once', async () => {
    await onHttp(seedDb, SEED_NOW, async (p) => {
      let url: string | undefined = '/api/v1/infrastructure?lat=25.77&lng=-80.19&radius_km=20&limit=7';
      const seen: string[] = [];
      let matched = 0;
      while (url) {
        const r = await p.call(url);
        matched = r.body.numberMatched;
        seen.push(...r.body.features.map((f: any) => f.id));
        url = r.body.links.find((l: any) => l.rel === 'next')?.href;
      }
      expect(seen.length).toBe(matched);
      expect(new Set(seen).size).toBe(matched);
    });
  });

  it('refuses a radius over the maximum with 400 naming the parameter', async () => {
    await onHttp(seedDb, SEED_NOW, async (p) => {
      const r = await p.call('/api/v1/infrastructure?lat=25.77&lng=-80.19&radius_km=900');
      expect(r.status).toBe(400);
      expect(r.body.errors[0].field).toBe('radius_km');
    });
  });
});

describe('exposure of Hurricane Ian in the embedded default', () => {
  let body: any;
  beforeAll(async () => {
    const r = await cli(['--db', seedDb, '--json', 'events', 'exposure', 'AL092022'], { CATINTEL_NOW: SEED_NOW });
    expect(r.code, r.stderr).toBe(0);
    body = r.json();
  });

  it('gives population and hospitals per ring, innermost first, the outer rings holding more', () => {
    expect(body.rings.map((r: any) => r.threshold)).toEqual([64, 50, 34]);
    const pops = body.rings.map((r: any) => r.population.population);
    expect(pops[0]).toBeGreaterThan(100_000);
    expect(pops[0]).toBeLessThan(pops[1]);
    expect(pops[1]).toBeLessThan(pops[2]);
    const inner = body.rings[0];
    expect(inner.infrastructure.counts.hospital).toBeGreaterThan(0);
    expect(inner.infrastructure.hospitals).toHaveLength(inner.infrastructure.counts.hospital);
    expect(inner.infrastructure.hospitals.every((h: any) => h.state === 'FL' && h.name.length > 0)).toBe(true);
    expect(body.rings[2].infrastructure.hospitals).toBeNull();
    expect(body.sources.map((s: any) => s.role)).toContain('county population (2020 Census)');
    expect(body.impact).toBeNull(); // the PAGER estimate is for earthquakes' MMI rings
  });

  it('counts each hospital once, and says "not covered" (null) for a kind with no data in Florida, never 0', async () => {
    const names = body.rings.flatMap((r: any) =>
      (r.infrastructure.hospitals ?? []).map((h: any) => `${r.threshold} ${h.name}`),
    );
    expect(names.filter((n: string) => n.endsWith('ADVENTHEALTH WAUCHULA')).length).toBeLessThanOrEqual(2); // once per listed ring at most
    for (const r of body.rings.filter((x: any) => x.infrastructure.hospitals)) {
      expect(new Set(r.infrastructure.hospitals.map((h: any) => h.name)).size, `ring ${r.threshold}`).toBe(
        r.infrastructure.hospitals.length,
      );
    }
    for (const r of body.rings) {
      expect(r.infrastructure.counts.fire_station, `fire stations in ring ${r.threshold}`).toBeNull();
      expect(r.infrastructure.counts.ems).toBeNull();
      expect(r.infrastructure.coverage.find((c: any) => c.kind === 'fire_station').covered).toBe('no');
      expect(r.infrastructure.counts.school).toBeGreaterThan(0); // Florida schools are in the data
    }
    const text = await cli(['--db', seedDb, 'events', 'exposure', 'AL092022'], { CATINTEL_NOW: SEED_NOW });
    expect(text.code, text.stderr).toBe(0);
    const innerRow = text.stdout.split('\n').find((l) => l.startsWith(body.rings[0].label))!;
    expect(innerRow).toMatch(/not covered/);
    expect(innerRow).not.toMatch(/\s0\s*$/);
  });

  it('reconciles: each ring total is the sum of its county terms, each term the county population times its area share', () => {
    for (const ring of body.rings) {
      const sum = ring.population.counties.reduce((s: number, c: any) => s + c.population, 0);
      expect(sum).toBe(ring.population.population);
      for (const c of ring.population.counties) {
        expect(c.share).toBeCloseTo(c.overlap_km2 / c.county_area_km2, 3);
        expect(Math.abs(c.population - c.county_population * c.share)).toBeLessThanOrEqual(
          1 + c.county_population * 1e-6,
        );
      }
    }
    // The 34-kt ring takes in whole counties of central Florida: Polk (12105) and Orange (12095) count in full.
    const outer = body.rings[2].population.counties;
    const polk = outer.find((c: any) => c.fips === '12105');
    expect(polk.share).toBeGreaterThan(0.99);
    expect(Math.abs(polk.population - polk.county_population)).toBeLessThan(polk.county_population * 0.01);
  });

  it('is analyst and up over HTTP (403 for agency), the same body as the CLI', async () => {
    await onHttp(seedDb, SEED_NOW, async (p) => {
      expect((await p.call('/api/v1/events/AL092022/exposure', { token: await token('agency') })).status).toBe(403);
      const r = await p.call('/api/v1/events/AL092022/exposure', { token: await token('analyst') });
      expect(r.status).toBe(200);
      expect(r.body.rings.map((x: any) => x.population.population)).toEqual(
        body.rings.map((x: any) => x.population.population),
      );
    });
  });
});

describe("exposure with the caller's portfolios", () => {
  it('adds the TIV of the locations inside each ring that cover the peril, per currency', async () => {
    const csv = path.join(tempDir(), 'location.csv');
    fs.writeFileSync(
      csv,
      [
        'PortNumber,AccNumber,LocNumber,Latitude,Longitude,OccupancyCode,ConstructionCode,BuildingTIV,ContentsTIV,BITIV,LocPerilsCovered,LocCurrency,CountryCode',
        '1,A1,PUNTAGORDA,26.93,-82.05,1050,5050,1000000,200000,50000,WW1,USD,US',
        '1,A1,ORLANDO,28.54,-81.38,1100,5100,2000000,0,0,WW1,USD,US',
        '1,A1,PUNTAGORDA-EQ,26.93,-82.05,1050,5050,700000,0,0,QQ1,USD,US',
      ].join('\n') + '\n',
    );
    // Dana's CLI acts for the account her token has over HTTP (CATINTEL_TOKEN, verified as the server does).
    const dana = await token('analyst', { sub: 'dana@example.com' });
    const asDana = { CATINTEL_NOW: SEED_NOW, CATINTEL_TOKEN: dana, CATINTEL_JWT_SECRET: SECRET };
    const imported = await cli(['--db', seedDb, '--json', 'portfolio', 'import', csv, '--name', 'intel test'], asDana);
    expect(imported.code, imported.stderr).toBe(0);
    const r = await cli(['--db', seedDb, '--json', 'events', 'exposure', 'AL092022'], asDana);
    expect(r.code, r.stderr).toBe(0);
    const tivOf = (ring: any) => ring.portfolio_tiv.find((t: any) => t.CurCd === 'USD');
    const [r64, , r34] = r.json().rings;
    // Punta Gorda lies in the 64-kt ring; Orlando only in the 34-kt ring; the earthquake-only location never counts.
    expect(tivOf(r64)).toMatchObject({ NumLocations: 1, TotalInsuranceAmt: 1_250_000 });
    expect(tivOf(r34)).toMatchObject({ NumLocations: 2, TotalInsuranceAmt: 3_250_000 });
    await onHttp(seedDb, SEED_NOW, async (p) => {
      const http = await p.call('/api/v1/events/AL092022/exposure', { token: dana });
      expect(http.body.rings.map((x: any) => x.portfolio_tiv)).toEqual(r.json().rings.map((x: any) => x.portfolio_tiv));
    });
    // Another account sees none of it.
    const other = (
      await cli(['--db', seedDb, '--json', 'events', 'exposure', 'AL092022'], { CATINTEL_NOW: SEED_NOW })
    ).json();
    expect(other.rings.every((x: any) => x.portfolio_tiv.length === 0)).toBe(true);
  }, 60_000); // every ring over the portfolios: 18 s on a loaded machine
});

describe('prediction of a storm whose source gives a forecast (NHC GIS advisory, Sergio 2018)', () => {
  it('serves the official forecast track and intensity as the method, with the cone as the uncertainty', async () => {
    const db = path.join(tempDir(), 'sergio.duckdb');
    const now = '2018-10-08T22:00:00Z';
    const zip = sharedData('feeds/nhc/gis/ep212018_5day_latest.zip');
    const ing = await cli(['--db', db, '--quiet', 'ingest', 'nhc', '--from', zip], { CATINTEL_NOW: now });
    expect(ing.code, ing.stderr).toBe(0);
    const r = await cli(['--db', db, '--json', 'events', 'prediction', 'EP212018'], { CATINTEL_NOW: now });
    expect(r.code, r.stderr).toBe(0);
    const b = r.json();
    expect(b.method.name).toMatch(/NHC official forecast/);
    const pts = b.forecast.source_forecast.points;
    expect(pts.length).toBeGreaterThanOrEqual(6);
    expect(pts.map((p: any) => p.tau_h)).toEqual(
      [...pts.map((p: any) => p.tau_h)].sort((x: number, y: number) => x - y),
    );
    expect(pts.every((p: any) => typeof p.max_wind_kt === 'number' && typeof p.lat === 'number')).toBe(true);
    expect(b.uncertainty).toMatch(/two thirds/);
  });
});
