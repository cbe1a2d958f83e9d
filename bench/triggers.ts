/**
 * Parametric triggers, two measurements (issue 10 "Done when"):
 *  - triggers.evaluate: one evaluation round (src/triggers/domain/evaluate-all.ts, the pure function
 *    `trigger evaluate` and the --ingest-every scheduler call) of 10,000 seeded triggers against 1,000 live
 *    events: 900 earthquakes and 80 gauge readings scattered over the conterminous US, and 20 storms with
 *    their real HURDAT2 tracks (2023-2024) as the fixes. Target < 0.25 s. Store reads and writes are not
 *    included (they are the handler's, and scale with what changed, not with the pairs).
 *  - triggers.backtest_120y: 1,000 seeded triggers (70 % wind, 15 % pressure, 15 % magnitude) replayed over
 *    1905-2024 with the catalogs already loaded and indexed (the server keeps them; the one-off parse is
 *    reported as triggers.backtest_catalog_load). Target < 2 s. Baseline in the same run:
 *    triggers.backtest_brute_force, the live rule (rules.ts evaluate) run on every storm of the catalog for
 *    each trigger, i.e. the backtest without its flatbush index, on 20 of the wind triggers.
 * Medians of `runs` runs. Sites: storm triggers on the Gulf and Atlantic coast box (24-35°N, 98-75°W, the
 * densest tracks: the worst case), magnitude triggers over the West and the New Madrid zone.
 */
import { backtest, type BacktestTrigger } from '../src/triggers/backtest/domain/backtest.js';
import { loadCatalogs } from '../src/triggers/backtest/catalogs.js';
import { evaluateAll, type LiveEventInput } from '../src/triggers/domain/evaluate-all.js';
import { evaluate } from '../src/triggers/domain/rules.js';
import type { ThresholdType, TriggerSpec } from '../src/triggers/domain/types.js';
import { emit, median, peakRssMb } from './report.js';
import { mulberry32 } from '../src/lib/random.js';

/** Seeded: every run benches the same triggers. */
const rng = mulberry32;

const between = (r: () => number, lo: number, hi: number) => lo + (hi - lo) * r();
const iso = (hours: number) => new Date(hours * 3_600_000).toISOString().replace('.000Z', 'Z');

function trigger(r: () => number, i: number, type: ThresholdType): TriggerSpec {
  const storm = type === 'wind_speed_kt' || type === 'central_pressure_mb';
  const west = r() < 0.7;
  const [lat, lng] = storm
    ? [between(r, 24, 35), between(r, -98, -75)]
    : type === 'magnitude'
      ? west
        ? [between(r, 32, 48), between(r, -124, -110)]
        : [between(r, 34, 39), between(r, -92, -87)]
      : [between(r, 30, 45), between(r, -100, -75)];
  const threshold = {
    wind_speed_kt: between(r, 64, 137),
    central_pressure_mb: between(r, 920, 980),
    magnitude: between(r, 5.5, 7.5),
    gauge_stage_ft: between(r, 10, 30),
    storm_surge_ft: between(r, 4, 15),
    industry_loss_usd: 1e9,
  }[type];
  return {
    id: `bench-${i}`,
    account: 'bench',
    name: `bench ${i}`,
    peril: storm ? 'hurricane' : type === 'magnitude' ? 'earthquake' : 'flood',
    lat,
    lng,
    radius_km: Math.round(between(r, 25, 150)),
    threshold_type: type,
    threshold_value: Math.round(threshold * 10) / 10,
    alert_at_pct: 80,
    notes: null,
    status: 'active',
    created_at: '2025-01-01T00:00:00Z',
  };
}

function pickType(r: () => number, mix: Array<[ThresholdType, number]>): ThresholdType {
  let x = r();
  for (const [t, w] of mix) if ((x -= w) < 0) return t;
  return mix[mix.length - 1][0];
}

export async function benchTriggers(sharedData: string, runs = 5): Promise<void> {
  let t0 = performance.now();
  const cat = loadCatalogs();
  const loadSeconds = (performance.now() - t0) / 1000;
  emit({
    name: 'triggers.backtest_catalog_load',
    n: cat.storms.storms.length + cat.quakes.quakes.length,
    seconds: round(loadSeconds),
    per_second: Math.round((cat.storms.storms.length + cat.quakes.quakes.length) / loadSeconds),
    peak_rss_mb: peakRssMb(),
  });

  // --- evaluation round: 10,000 triggers x 1,000 live events
  const r = rng(20260101);
  const triggers = Array.from({ length: 10_000 }, (_, i) =>
    trigger(
      r,
      i,
      pickType(r, [
        ['wind_speed_kt', 0.3],
        ['central_pressure_mb', 0.1],
        ['magnitude', 0.35],
        ['gauge_stage_ft', 0.2],
        ['storm_surge_ft', 0.05],
      ]),
    ),
  );
  const recent = cat.storms.storms.filter((s) => s.basin === 'atlantic' && s.year >= 2023).slice(0, 20);
  const events: LiveEventInput[] = [];
  for (const s of recent) {
    events.push({
      event_id: s.id,
      source: 'nhc',
      source_id: s.id,
      title: s.name,
      event_type: 'hurricane',
      source_version: s.id,
      readings: {},
      fixes: s.fixes.map((f) => ({
        at: iso(f.hours),
        lat: f.lat,
        lng: f.lng,
        windKt: f.windKt,
        pressureMb: f.pressureMb,
        rmwNm: f.rmwNm,
        radiiNm: f.radiiNm,
      })),
    });
  }
  for (let i = 0; events.length < 1000; i++) {
    const quake = i < 900;
    const at = iso(480_000 + i);
    const point = { at, lat: between(r, 25, 49), lng: between(r, -124, -67) };
    events.push({
      event_id: `e${i}`,
      source: quake ? 'usgs' : 'usgs-gauges',
      source_id: `e${i}`,
      title: `bench ${i}`,
      event_type: quake ? 'earthquake' : 'flood',
      source_version: `v${i}`,
      fixes: [],
      readings: quake
        ? { magnitude: [{ ...point, value: between(r, 2.5, 7), unit: 'Mw' }] }
        : { gauge_stage_ft: [{ ...point, value: between(r, 5, 35), unit: 'ft' }] },
    });
  }
  const scale = () => cat.radiusScale;
  const evalSeconds: number[] = [];
  let pairs = 0;
  for (let k = 0; k < runs; k++) {
    t0 = performance.now();
    pairs = evaluateAll(triggers, events, new Map(), scale).length;
    evalSeconds.push((performance.now() - t0) / 1000);
  }
  const es = median(evalSeconds);
  emit({
    name: 'triggers.evaluate',
    n: triggers.length,
    events: events.length,
    pairs_evaluated: pairs,
    seconds: round(es),
    per_second: Math.round(triggers.length / es),
    peak_rss_mb: peakRssMb(),
    runs,
    target_seconds: 0.25,
  });

  // --- 120-year backtest of 1,000 triggers
  const rb = rng(19050101);
  const bt: BacktestTrigger[] = Array.from({ length: 1000 }, (_, i) =>
    trigger(
      rb,
      i,
      pickType(rb, [
        ['wind_speed_kt', 0.7],
        ['central_pressure_mb', 0.15],
        ['magnitude', 0.15],
      ]),
    ),
  );
  const btSeconds: number[] = [];
  let fired = 0;
  for (let k = 0; k < runs; k++) {
    t0 = performance.now();
    fired = 0;
    for (const t of bt) fired += backtest(t, cat, 2024, 1905).years_triggered;
    btSeconds.push((performance.now() - t0) / 1000);
  }
  const bs = median(btSeconds);
  emit({
    name: 'triggers.backtest_120y',
    n: bt.length,
    years: 120,
    trigger_years_fired: fired,
    seconds: round(bs),
    per_second: Math.round(bt.length / bs),
    peak_rss_mb: peakRssMb(),
    runs,
    target_seconds: 2,
  });

  // --- baseline: the live rule over every storm of the window, no index (20 wind triggers)
  const some = bt.filter((t) => t.threshold_type === 'wind_speed_kt').slice(0, 20);
  const window = cat.storms.storms
    .filter((s) => s.year >= 1905 && s.year <= 2024)
    .map((s) =>
      s.fixes.map((f) => ({ at: iso(f.hours), lat: f.lat, lng: f.lng, windKt: f.windKt, pressureMb: f.pressureMb })),
    );
  t0 = performance.now();
  for (const t of some)
    for (const fixes of window) evaluate(t, { kind: 'track', radius_scale: cat.radiusScale, fixes });
  const brute = (performance.now() - t0) / 1000;
  emit({
    name: 'triggers.backtest_brute_force',
    n: some.length,
    seconds: round(brute),
    per_second: Math.round(some.length / brute),
    peak_rss_mb: peakRssMb(),
    projected_seconds_for_1000: round((brute / some.length) * 1000),
  });
}

const round = (x: number) => Math.round(x * 1000) / 1000;
