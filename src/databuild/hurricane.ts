/**
 * Hurricane wind hazard per cell from HURDAT2 (docs/methods.md#score-mappings): run the calibrated parametric wind field
 * (wind-field.ts) along every track, interpolated to hourly positions (a storm moves ~20 km/h, a cell is
 * ~25 km), keep each storm's maximum wind at each cell, and accumulate the rate of storms exceeding each
 * of a ladder of wind thresholds: λ(≥v) = Σ_storms 1/T_basin, with Atlantic storms from 1900 (T = 125 yr;
 * earlier US landfalls are incomplete, docs/methods.md#score-mappings) and NE/N-Central Pacific storms from 1949 (T = 76
 * yr, the whole file). 125 years give a handful of hits per cell, so the rate fields are smoothed with
 * a 30-km Gaussian over covered cells [judgement: about one cell; it turns "Long Island was hit, New York
 * City never was" into a gradient]. Damaging = 64 kt, severe = 96 kt; the 100-year wind is read off the
 * smoothed ladder by log-rate interpolation.
 */
import type { Storm, TrackFix } from '../reference-data/hurdat2.js';
import type { CellQuery } from '../reference-data/cell-query.js';
import { flatDistanceKm } from '../reference-data/cell-query.js';
import { smoothFields } from './kernel.js';
import { calibrateRadiusScale, radiusOfKm, windAtKm, windField } from './wind-field.js';

export const ATLANTIC_FIRST_YEAR = 1900;
export const LAST_YEAR = 2024;
/** Saffir–Simpson thresholds (kt) plus midpoints; index 0 = damaging, index 4 = severe. */
export const WIND_LADDER_KT = [64, 72, 80, 88, 96, 104, 113, 125, 137] as const;
const SEVERE = 4;
const CAT4_KT = 113;
const TS_KT = 34; // Knutson et al.'s "all-TC frequency" counts storms of at least tropical-storm strength
const SMOOTHING_SIGMA_KM = 30;

export interface HurricaneResult {
  lambdaDamaging: Float64Array;
  /** Smoothed λ(wind ≥ WIND_LADDER_KT[k]) per cell. */
  ladder: Float64Array[];
  lambdaSevere: Float64Array;
  rp100Kt: Float64Array; // NaN: the 100-yr wind is below 64 kt
  events: Float64Array; // storms with >= 64 kt at the cell (kernel-weighted over neighbours)
  cat45ShareDamaging: Float64Array; // NaN where no hits
  cat45ShareSevere: Float64Array;
  recordYears: Float64Array;
  cat45ShareOfTcs: number; // share of Atlantic tropical storms (>= 34 kt, 1900–2024) that reached Cat 4–5
  radiusScale: number;
  radiusScaleFixes: number;
  stormsUsed: { atlantic: number; pacific: number };
}

export function hurricaneHazard(
  atlantic: Storm[],
  pacific: Storm[],
  query: CellQuery,
  cellLat: Float64Array,
  cellLng: Float64Array,
): HurricaneResult {
  const n = cellLat.length;
  const basins = [
    {
      storms: atlantic.filter((s) => s.year >= ATLANTIC_FIRST_YEAR && s.year <= LAST_YEAR),
      years: LAST_YEAR - ATLANTIC_FIRST_YEAR + 1,
      pacific: 0,
    },
    { storms: pacific.filter((s) => s.year <= LAST_YEAR), years: LAST_YEAR - 1949 + 1, pacific: 1 },
  ];
  const calibration = calibrateRadiusScale([...atlantic, ...pacific]);
  const ladder = WIND_LADDER_KT.map(() => new Float64Array(n));
  const cat45D = new Float64Array(n);
  const cat45S = new Float64Array(n);
  const hits = new Float64Array(n);
  const pacificHits = new Float64Array(n);
  const stormMax = new Float64Array(n);
  const touched: number[] = [];

  for (const basin of basins) {
    const w = 1 / basin.years;
    for (const storm of basin.storms) {
      const lifetimeMax = storm.fixes.reduce((m, f) => Math.max(m, f.windKt), 0);
      if (lifetimeMax < WIND_LADDER_KT[0]) continue;
      const isCat45 = lifetimeMax >= CAT4_KT ? 1 : 0;
      forEachHourlyFix(storm.fixes, (fix, translationMs) => {
        if (fix.windKt < WIND_LADDER_KT[0]) return;
        const field = windField(fix.windKt, fix.lat, fix.pressureMb, translationMs, calibration.scale);
        const r64 = radiusOfKm(field, WIND_LADDER_KT[0]);
        if (r64 === null) return;
        query.within(fix.lat, fix.lng, r64, (cell, dKm) => {
          const v = windAtKm(field, Math.max(dKm, 0.001));
          if (v <= stormMax[cell]) return;
          if (stormMax[cell] === 0) touched.push(cell);
          stormMax[cell] = v;
        });
      });
      for (const cell of touched) {
        const v = stormMax[cell];
        stormMax[cell] = 0;
        for (let k = 0; k < WIND_LADDER_KT.length && v >= WIND_LADDER_KT[k]; k++) ladder[k][cell] += w;
        if (v < WIND_LADDER_KT[0]) continue;
        hits[cell] += 1;
        pacificHits[cell] += basin.pacific;
        cat45D[cell] += w * isCat45;
        if (v >= WIND_LADDER_KT[SEVERE]) cat45S[cell] += w * isCat45;
      }
      touched.length = 0;
    }
  }

  const smooth = smoothFields(
    [...ladder, cat45D, cat45S, hits, pacificHits],
    query,
    cellLat,
    cellLng,
    SMOOTHING_SIGMA_KM,
  );
  const lam = smooth.slice(0, WIND_LADDER_KT.length);
  const [sD, sS, sHits, sPac] = smooth.slice(WIND_LADDER_KT.length);
  const rp100 = new Float64Array(n);
  const recordYears = new Float64Array(n);
  for (let c = 0; c < n; c++) {
    rp100[c] = windAtRate(
      lam.map((a) => a[c]),
      0.01,
    );
    recordYears[c] = sPac[c] * 2 > sHits[c] && sHits[c] > 0 ? basins[1].years : basins[0].years;
  }
  const tcs = basins[0].storms.filter((s) => s.fixes.some((f) => f.windKt >= TS_KT));
  const cat45 = tcs.filter((s) => s.fixes.some((f) => f.windKt >= CAT4_KT)).length;
  return {
    lambdaDamaging: lam[0],
    lambdaSevere: lam[SEVERE],
    ladder: lam,
    rp100Kt: rp100,
    events: sHits.map(Math.round),
    cat45ShareDamaging: sD.map((v, c) => (lam[0][c] > 0 ? v / lam[0][c] : NaN)),
    cat45ShareSevere: sS.map((v, c) => (lam[SEVERE][c] > 0 ? v / lam[SEVERE][c] : NaN)),
    recordYears,
    cat45ShareOfTcs: cat45 / tcs.length,
    radiusScale: calibration.scale,
    radiusScaleFixes: calibration.fixes,
    stormsUsed: { atlantic: basins[0].storms.length, pacific: basins[1].storms.length },
  };
}

/**
 * The wind (kt) whose exceedance rate is `rate`, from rates at WIND_LADDER_KT: linear in wind against
 * log rate between the bracketing thresholds. NaN below the first threshold; the top threshold caps it.
 */
export function windAtRate(rates: number[], rate: number): number {
  if (!(rates[0] >= rate)) return NaN;
  for (let k = 1; k < rates.length; k++) {
    if (rates[k] < rate) {
      const a = Math.log(rates[k - 1]);
      const b = rates[k] > 0 ? Math.log(rates[k]) : a - 50;
      return WIND_LADDER_KT[k - 1] + (WIND_LADDER_KT[k] - WIND_LADDER_KT[k - 1]) * ((a - Math.log(rate)) / (a - b));
    }
  }
  return WIND_LADDER_KT[WIND_LADDER_KT.length - 1];
}

/** Linear interpolation between best-track fixes at whole hours, with the segment's translation speed (m/s). */
export function forEachHourlyFix(fixes: TrackFix[], visit: (f: TrackFix, translationMs: number) => void): void {
  for (let i = 0; i + 1 < fixes.length; i++) {
    const a = fixes[i];
    const b = fixes[i + 1];
    const dtH = b.hours - a.hours;
    if (!(dtH > 0)) continue;
    let bLng = b.lng;
    if (bLng - a.lng > 180) bLng -= 360;
    if (a.lng - bLng > 180) bLng += 360;
    const translationMs = (flatDistanceKm(a.lat, a.lng, b.lat, bLng) * 1000) / (dtH * 3600);
    const steps = Math.max(1, Math.ceil(dtH));
    for (let s = 0; s < steps; s++) {
      const t = s / steps;
      const lng = a.lng + (bLng - a.lng) * t;
      visit(
        {
          hours: a.hours + dtH * t,
          lat: a.lat + (b.lat - a.lat) * t,
          lng: lng > 180 ? lng - 360 : lng < -180 ? lng + 360 : lng,
          windKt: a.windKt + (b.windKt - a.windKt) * t,
          status: t < 0.5 ? a.status : b.status,
          pressureMb:
            a.pressureMb !== null && b.pressureMb !== null ? a.pressureMb + (b.pressureMb - a.pressureMb) * t : null,
          rmwNm: null,
          r64Nm: null,
          r34Nm: null,
          r50Nm: null,
        },
        translationMs,
      );
    }
  }
  const last = fixes[fixes.length - 1];
  if (last) visit(last, 5);
}
