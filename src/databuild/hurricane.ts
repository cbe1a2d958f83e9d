/**
 * Hurricane wind hazard per cell from HURDAT2 (models.md §1.2): run the parametric wind field
 * (wind-field.ts) along every track, interpolated to hourly positions (a storm moves ~20 km/h, a cell is
 * ~25 km), keep each storm's maximum wind at each cell, and count storms reaching 64 kt (damaging) and
 * 96 kt (severe). λ = Σ_storms 1/T_basin: Atlantic storms from 1900 (T = 125 yr; earlier US landfalls
 * are incomplete, models.md §1.2), NE/N-Central Pacific from 1949 (T = 76 yr, the whole file).
 * The 100-year wind is read off each cell's empirical exceedance curve (log-rate interpolation).
 */
import type { Storm, TrackFix } from './hurdat2.js';
import type { CellQuery } from './cell-query.js';
import { flatDistanceKm } from './cell-query.js';
import { calibrateRadiusScale, radiusOfKm, windAtKm, windField } from './wind-field.js';

export const ATLANTIC_FIRST_YEAR = 1900;
export const LAST_YEAR = 2024;
const DAMAGING_KT = 64;
const SEVERE_KT = 96;
/** Saffir–Simpson category 4 starts at 113 kt. */
const CAT4_KT = 113;
/** Tropical-storm strength: the storms Knutson et al.'s "all-TC frequency" counts. */
const TS_KT = 34;

export interface HurricaneResult {
  lambdaDamaging: Float64Array;
  lambdaSevere: Float64Array;
  rp100Kt: Float64Array; // NaN: the 100-yr wind is below 64 kt
  events: Float64Array; // storms with >= 64 kt at the cell
  cat45ShareDamaging: Float64Array; // NaN where no hits
  cat45ShareSevere: Float64Array;
  recordYears: Float64Array;
  /** Share of Atlantic tropical storms (>= 34 kt, 1900–2024) that reached Cat 4–5. */
  cat45ShareOfTcs: number;
  /** Wind-field radius calibration factor and the number of 2004+ fixes it was measured on. */
  radiusScale: number;
  radiusScaleFixes: number;
  stormsUsed: { atlantic: number; pacific: number };
}

interface Basin {
  storms: Storm[];
  years: number;
  pacific: boolean;
}

export function hurricaneHazard(atlantic: Storm[], pacific: Storm[], nCells: number, query: CellQuery, isHawaiiCell: (cell: number) => boolean): HurricaneResult {
  const basins: Basin[] = [
    { storms: atlantic.filter((s) => s.year >= ATLANTIC_FIRST_YEAR && s.year <= LAST_YEAR), years: LAST_YEAR - ATLANTIC_FIRST_YEAR + 1, pacific: false },
    { storms: pacific.filter((s) => s.year <= LAST_YEAR), years: LAST_YEAR - 1949 + 1, pacific: true },
  ];
  const calibration = calibrateRadiusScale([...atlantic, ...pacific]);
  const lamD = new Float64Array(nCells);
  const lamS = new Float64Array(nCells);
  const n64 = new Float64Array(nCells);
  const c45D = new Float64Array(nCells);
  const c45S = new Float64Array(nCells);
  const pacHits = new Float64Array(nCells);
  const hits: Array<Array<[number, number]>> = Array.from({ length: nCells }, () => []);
  const stormMax = new Float64Array(nCells);
  const touched: number[] = [];

  for (const basin of basins) {
    const w = 1 / basin.years;
    for (const storm of basin.storms) {
      const lifetimeMax = storm.fixes.reduce((m, f) => Math.max(m, f.windKt), 0);
      if (lifetimeMax < DAMAGING_KT) continue;
      const isCat45 = lifetimeMax >= CAT4_KT ? 1 : 0;
      forEachHourlyFix(storm.fixes, (fix, translationMs) => {
        if (fix.windKt < DAMAGING_KT) return;
        const field = windField(fix.windKt, fix.lat, fix.pressureMb, translationMs, calibration.scale);
        const r64 = radiusOfKm(field, DAMAGING_KT);
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
        if (v < DAMAGING_KT) continue;
        lamD[cell] += w;
        n64[cell] += 1;
        c45D[cell] += w * isCat45;
        if (basin.pacific) pacHits[cell] += 1;
        hits[cell].push([v, w]);
        if (v >= SEVERE_KT) {
          lamS[cell] += w;
          c45S[cell] += w * isCat45;
        }
      }
      touched.length = 0;
    }
  }

  const rp100 = new Float64Array(nCells);
  const shareD = new Float64Array(nCells);
  const shareS = new Float64Array(nCells);
  const recordYears = new Float64Array(nCells);
  for (let cell = 0; cell < nCells; cell++) {
    rp100[cell] = windAtRate(hits[cell], 0.01);
    shareD[cell] = lamD[cell] > 0 ? c45D[cell] / lamD[cell] : NaN;
    shareS[cell] = lamS[cell] > 0 ? c45S[cell] / lamS[cell] : NaN;
    const pacificMostly = n64[cell] > 0 ? pacHits[cell] * 2 > n64[cell] : isHawaiiCell(cell);
    recordYears[cell] = pacificMostly ? basins[1].years : basins[0].years;
  }
  const tcs = basins[0].storms.filter((s) => s.fixes.some((f) => f.windKt >= TS_KT));
  const cat45 = tcs.filter((s) => s.fixes.some((f) => f.windKt >= CAT4_KT)).length;
  return {
    lambdaDamaging: lamD,
    lambdaSevere: lamS,
    rp100Kt: rp100,
    events: n64,
    cat45ShareDamaging: shareD,
    cat45ShareSevere: shareS,
    recordYears,
    cat45ShareOfTcs: cat45 / tcs.length,
    radiusScale: calibration.scale,
    radiusScaleFixes: calibration.fixes,
    stormsUsed: { atlantic: basins[0].storms.length, pacific: basins[1].storms.length },
  };
}

/**
 * The wind whose exceedance rate is `rate` (per yr), from (wind, rate weight) hits: sort descending,
 * accumulate, interpolate linearly in wind against log cumulative rate. NaN if the hits never add up.
 */
export function windAtRate(hits: Array<[number, number]>, rate: number): number {
  const sorted = [...hits].sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  let cum = 0;
  for (let i = 0; i < sorted.length; i++) {
    const prev = cum;
    cum += sorted[i][1];
    if (cum >= rate) {
      if (i === 0 || prev <= 0) return sorted[i][0];
      const t = (Math.log(rate) - Math.log(prev)) / (Math.log(cum) - Math.log(prev));
      return sorted[i - 1][0] + (sorted[i][0] - sorted[i - 1][0]) * t;
    }
  }
  return NaN;
}

/** Linear interpolation between best-track fixes at whole hours, with the segment's translation speed (m/s). */
function forEachHourlyFix(fixes: TrackFix[], visit: (f: TrackFix, translationMs: number) => void): void {
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
          pressureMb: a.pressureMb !== null && b.pressureMb !== null ? a.pressureMb + (b.pressureMb - a.pressureMb) * t : null,
          rmwNm: null,
          r64Nm: null,
        },
        translationMs,
      );
    }
  }
  const last = fixes[fixes.length - 1];
  if (last) visit(last, 5);
}
