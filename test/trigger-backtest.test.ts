/**
 * `trigger backtest` / GET /triggers/{id}/backtest over the real catalogs in ../shared/data: a wind trigger
 * at Miami lists the storms that fired it since 1900 with their years and the annual probability with its
 * 90 % interval; the same trigger in Denver reports none. Over HTTP every answer is validated against
 * openapi.yaml (the harness), another account's trigger is 404, a threshold type with no catalog is 422.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseNamedStorms } from '../src/triggers/backtest/catalogs.js';
import { baselineRingOptions } from '../src/reference-data/ring-options.js';
import { evaluate } from '../src/triggers/domain/rules.js';
import type { TriggerSpec } from '../src/triggers/domain/types.js';
import { insertTrigger } from '../src/triggers/store.js';
import { Store } from '../src/store/db.js';
import { cli, tempDir } from './helpers/cli.js';
import { sharedData } from './helpers/paths.js';
import { platform, seededStore, token, tokenAccount, type Platform } from './http/helpers/harness.js';

const MIAMI = { lat: 25.76, lng: -80.19 };
const DENVER = { lat: 39.74, lng: -104.99 };

let n = 0;
function spec(account: string, o: Partial<TriggerSpec>): TriggerSpec {
  n++;
  return {
    id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    account,
    name: `test trigger ${n}`,
    peril: 'hurricane',
    ...MIAMI,
    radius_km: 50,
    threshold_type: 'wind_speed_kt',
    threshold_value: 100,
    alert_at_pct: 80,
    notes: null,
    status: 'active',
    created_at: '2022-01-01T00:00:00Z',
    ...o,
  };
}

describe('trigger backtest over HTTP', () => {
  let p: Platform;
  let alice: string;
  const miami = spec(tokenAccount('alice@example.com'), {});
  const denver = spec(tokenAccount('alice@example.com'), { ...DENVER, radius_km: 100, threshold_value: 64 });
  const surge = spec(tokenAccount('alice@example.com'), { threshold_type: 'storm_surge_ft', threshold_value: 10 });
  const quake = spec(tokenAccount('alice@example.com'), {
    peril: 'earthquake',
    lat: 37.77,
    lng: -122.42,
    radius_km: 100,
    threshold_type: 'magnitude',
    threshold_value: 7,
  });
  const pressure = spec(tokenAccount('alice@example.com'), {
    radius_km: 100,
    threshold_type: 'central_pressure_mb',
    threshold_value: 935,
  });
  const bobs = spec(tokenAccount('bob@example.com'), {});

  beforeAll(async () => {
    const db = await seededStore();
    for (const t of [miami, denver, surge, quake, pressure, bobs]) await insertTrigger(db, t);
    p = await platform(db, { rateLimit: 'off' });
    alice = await token('agency', { sub: 'alice@example.com' });
  }, 60_000);
  afterAll(async () => p?.close());

  it('a 100-kt wind trigger within 50 km of Miami fired in 1926, 1950 (King) and 1992 (Andrew), with an exact 90 % interval', async () => {
    const r = await p.call(`/api/v1/triggers/${miami.id}/backtest`, { token: alice });
    expect(r.status).toBe(200);
    const b = r.body;
    // The harness clock is 2022-09-29: the last complete year is 2021.
    expect([b.catalog, b.from_year, b.to_year, b.years_covered]).toEqual(['HURDAT2 Atlantic', 1900, 2021, 122]);
    const fired = b.years.filter((y: any) => y.state === 'triggered');
    const storms = fired.map((y: any) => `${y.year} ${y.events[0].name}`);
    expect(storms).toEqual(expect.arrayContaining(['1926 UNNAMED', '1950 KING', '1992 ANDREW']));
    for (const y of fired) {
      const e = y.events[0];
      expect(e.value).toBeGreaterThanOrEqual(100);
      expect(e.unit).toBe('kt');
      expect(e.distance_km).toBeLessThanOrEqual(50);
      expect(e.at.slice(0, 4)).toBe(String(y.year));
    }
    const andrew = fired.find((y: any) => y.year === 1992).events[0];
    expect(andrew.id).toBe('AL041992');
    expect(b.years_triggered).toBe(fired.length);
    const ap = b.annual_probability;
    expect(ap.value).toBeCloseTo(fired.length / 122, 4);
    expect(ap.interval).toBe('clopper-pearson');
    expect(ap.level).toBe(0.9);
    expect(ap.lower).toBeLessThan(ap.value);
    expect(ap.upper).toBeGreaterThan(ap.value);
    expect(b.method).toMatch(/Holland/);
  });

  it('--since narrows the years replayed', async () => {
    const r = await p.call(`/api/v1/triggers/${miami.id}/backtest?since=1950`, { token: alice });
    expect(r.body.from_year).toBe(1950);
    expect(r.body.years_covered).toBe(72);
    expect(r.body.years.every((y: any) => y.year >= 1950)).toBe(true);
    expect(r.body.years.filter((y: any) => y.state === 'triggered').map((y: any) => y.year)).toEqual(
      expect.arrayContaining([1950, 1992]),
    );
  });

  it('the same kind of trigger in Denver reports no year, and an interval from 0', async () => {
    const r = await p.call(`/api/v1/triggers/${denver.id}/backtest`, { token: alice });
    expect(r.body.years).toEqual([]);
    expect(r.body.years_triggered).toBe(0);
    expect(r.body.annual_probability.value).toBe(0);
    expect(r.body.annual_probability.lower).toBe(0);
    // Clopper–Pearson with no firing in n years: upper = 1 − 0.05^(1/n).
    expect(r.body.annual_probability.upper).toBeCloseTo(1 - 0.05 ** (1 / 122), 4);
  });

  it('a pressure trigger names the storms whose centre passed within the circle below 935 mb', async () => {
    const r = await p.call(`/api/v1/triggers/${pressure.id}/backtest`, { token: alice });
    const fired = r.body.years
      .filter((y: any) => y.state === 'triggered')
      .flatMap((y: any) => y.events.filter((e: any) => e.state === 'triggered'));
    expect(fired.map((e: any) => e.name)).toContain('ANDREW');
    for (const e of fired) expect(e.value).toBeLessThanOrEqual(935);
  });

  it('a magnitude trigger at San Francisco replays the WUS catalog: 1868 (M7.0) and 1906 (M7.8)', async () => {
    const r = await p.call(`/api/v1/triggers/${quake.id}/backtest`, { token: alice });
    expect(r.body.catalog).toMatch(/WUS/);
    expect(r.body.from_year).toBe(1850);
    expect(r.body.years.filter((y: any) => y.state === 'triggered').map((y: any) => y.year)).toEqual([1868, 1906]);
    const e1906 = r.body.years.find((y: any) => y.year === 1906).events[0];
    expect([e1906.value, e1906.unit, e1906.at.slice(0, 10)]).toEqual([7.8, 'Mw', '1906-04-18']);
  });

  it('refuses a threshold type with no historical catalog (422 naming what can be backtested)', async () => {
    const r = await p.call(`/api/v1/triggers/${surge.id}/backtest`, { token: alice });
    expect(r.status).toBe(422);
    expect(r.body.code).toBe('validation_failed');
    expect(r.body.errors[0].field).toBe('threshold_type');
    expect(r.body.detail).toMatch(/wind_speed_kt, central_pressure_mb, magnitude/);
  });

  it("another account's trigger is 404; no credential is 401; a bad since is 400", async () => {
    expect((await p.call(`/api/v1/triggers/${bobs.id}/backtest`, { token: alice })).status).toBe(404);
    expect((await p.call(`/api/v1/triggers/${miami.id}/backtest`)).status).toBe(401);
    const bad = await p.call(`/api/v1/triggers/${miami.id}/backtest?since=nineteen`, { token: alice });
    expect(bad.status).toBe(400);
  });
});

describe('trigger backtest on the CLI', () => {
  it('prints the backtest as JSON; an unknown id and a surge trigger exit 2', async () => {
    const db = path.join(tempDir(), 'bt.duckdb');
    const store = await Store.open(db);
    const miami = spec('local', {});
    const surge = spec('local', { threshold_type: 'storm_surge_ft', threshold_value: 10 });
    await insertTrigger(store, miami);
    await insertTrigger(store, surge);
    await store.close();
    const env = { CATINTEL_NOW: '2026-01-15T00:00:00Z' };
    const r = await cli(['--db', db, 'trigger', 'backtest', miami.id, '--since', '1900', '--json'], env);
    expect(r.code).toBe(0);
    const b = r.json();
    expect([b.from_year, b.to_year]).toEqual([1900, 2024]);
    expect(b.years.filter((y: any) => y.state === 'triggered').map((y: any) => y.year)).toEqual(
      expect.arrayContaining([1926, 1950, 1992]),
    );
    const text = await cli(['--db', db, 'trigger', 'backtest', miami.id], env);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/annual probability of firing \d+\.\d % \(90 % Clopper-Pearson interval/);
    expect(text.stdout).toMatch(/^1992 +triggered +ANDREW +AL041992/m);
    if (process.env.SHOW) console.log(text.stdout);
    expect((await cli(['--db', db, 'trigger', 'backtest', 'no-such-trigger'], env)).code).toBe(2);
    const s = await cli(['--db', db, 'trigger', 'backtest', surge.id], env);
    expect(s.code).toBe(2);
    expect(s.stderr).toMatch(/cannot be backtested/);
    fs.rmSync(path.dirname(db), { recursive: true, force: true });
  }, 60_000);
});

describe('one rule for live evaluation and backtest', () => {
  it("Ian's HURDAT2 track at Fort Myers: the backtest's value is what `trigger evaluate`'s rule gives for the same fixes", async () => {
    const storms = parseNamedStorms(
      fs.readFileSync(sharedData('hazard_history/hurricanes/hurdat2-1851-2024-040425_reassembled.txt'), 'utf8'),
      'atlantic',
    );
    const ian = storms.find((s) => s.id === 'AL092022')!;
    const radiusScale = baselineRingOptions().hurricaneRadiusScale!();
    const t = {
      lat: 26.64,
      lng: -81.87,
      radius_km: 50,
      threshold_type: 'wind_speed_kt' as const,
      threshold_value: 100,
      alert_at_pct: 80,
    };
    // HURDAT2 gives Ian's radius of maximum wind and wind radii (2021 on): both sides take the storm's own size.
    const fixes = ian.fixes.map((f) => ({
      at: new Date(f.hours * 3_600_000).toISOString().replace('.000Z', 'Z'),
      lat: f.lat,
      lng: f.lng,
      windKt: f.windKt,
      pressureMb: f.pressureMb,
      rmwNm: f.rmwNm,
      radiiNm: f.radiiNm,
    }));
    expect(fixes.filter((f) => f.rmwNm !== undefined).length).toBeGreaterThan(30);
    const live = evaluate(t, { kind: 'track', radius_scale: radiusScale, fixes });
    const { buildStormIndex, replayStorms } = await import('../src/triggers/backtest/domain/storms.js');
    const [hit] = replayStorms(
      buildStormIndex([ian]),
      { lat: t.lat, lng: t.lng, radiusKm: 50, thresholdType: 'wind_speed_kt' },
      radiusScale,
      2022,
      2022,
    );
    expect(live.state).toBe('triggered');
    expect(live.method).toMatch(/Rm \d+\.\d km \(the record's RMW\)/);
    expect(Math.round(hit.value * 10) / 10).toBeCloseTo(live.observed_value!, 1);
  });
});
