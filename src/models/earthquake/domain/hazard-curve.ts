/**
 * PGA hazard curves: λ(PGA > x) = Σ_ruptures rate × P(ln PGA > ln x | M, R), the ground motion lognormal and
 * truncated at 3σ (exceedance.ts). Gridded sources use tables, per setting, b, Mmax and Vs30, of
 * Σ_bins share × P(> x) against epicentral distance (1 km steps, each averaged over rupture strikes), so a
 * site costs one table look-up per source cell and level; fault ruptures are evaluated one by one.
 * Distance cutoffs follow NSHM: 300 km for active crust, 1000 km for stable crust and the interface.
 */
import { flatDistanceKm } from '../../../reference-data/cell-query.js';
import { exceedanceProbability } from './exceedance.js';
import { groundMotion, REFERENCE_VS30, type Tectonic } from './ground-motion.js';
import { faultDistances, magnitudeBins, pointRuptureDistances, POINT_STRIKES, type FaultRupture, type GriddedSource } from './rupture-set.js';

/** PGA levels (g) of the NSHM hazard curves (the 2014/2018 PGA level set, to 3.28 g). */
export const PGA_LEVELS_G = [0.0025, 0.0045, 0.0075, 0.0113, 0.0169, 0.0253, 0.038, 0.057, 0.0854, 0.128, 0.192, 0.288, 0.432, 0.649, 0.973, 1.46, 2.19, 3.28] as const;

/** Annual rates of 2 % and 10 % probability of exceedance in 50 years (Poisson). */
export const RATE_2PCT_IN_50 = -Math.log(0.98) / 50;
export const RATE_10PCT_IN_50 = -Math.log(0.9) / 50;

export const CUTOFF_KM: Record<Tectonic, number> = { active: 300, stable: 1000, interface: 1000 };
const TABLE_STEP_KM = 1;

export interface SourceModel {
  grid: GriddedSource[];
  faults: FaultRupture[];
}

export interface HazardCurve {
  levelsG: readonly number[];
  /** Annual rate of exceedance at each level. */
  rates: number[];
}

/** A source model indexed for fast site queries (1° buckets of cells, lazily built distance tables). */
export class HazardCalculator {
  private readonly buckets = new Map<string, number[]>();
  private readonly tables = new Map<string, Float64Array>();
  private readonly maxCutoffKm: number;

  constructor(
    readonly model: SourceModel,
    readonly levelsG: readonly number[] = PGA_LEVELS_G,
  ) {
    model.grid.forEach((s, i) => {
      const key = `${Math.floor(s.lat)},${Math.floor(s.lng)}`;
      let list = this.buckets.get(key);
      if (!list) this.buckets.set(key, (list = []));
      list.push(i);
    });
    this.maxCutoffKm = model.grid.reduce((m, s) => Math.max(m, CUTOFF_KM[s.tectonic]), CUTOFF_KM.active);
  }

  /** λ(PGA > x) at the site for each level. */
  curve(lat: number, lng: number, vs30 = REFERENCE_VS30): HazardCurve {
    if (!Number.isFinite(lat) || !Number.isFinite(lng) || lat < -90 || lat > 90 || lng < -180 || lng > 180) {
      throw new RangeError(`not a point: lat ${lat}, lng ${lng}; give latitude in [-90, 90] and longitude in [-180, 180]`);
    }
    const nl = this.levelsG.length;
    const acc = new Float64Array(nl);
    this.addGrid(lat, lng, vs30, acc);
    this.addFaults(lat, lng, vs30, acc);
    return { levelsG: this.levelsG, rates: Array.from(acc) };
  }

  private addGrid(lat: number, lng: number, vs30: number, acc: Float64Array): void {
    const nl = this.levelsG.length;
    const dLat = Math.ceil(this.maxCutoffKm / 111) + 1;
    const dLng = Math.ceil(this.maxCutoffKm / (111 * Math.cos((Math.min(Math.abs(lat) + dLat, 89) * Math.PI) / 180))) + 1;
    const la0 = Math.floor(lat);
    const lo0 = Math.floor(lng);
    for (let la = la0 - dLat; la <= la0 + dLat; la++) {
      for (let lo = lo0 - dLng; lo <= lo0 + dLng; lo++) {
        const list = this.buckets.get(`${la},${lo}`);
        if (!list) continue;
        for (const i of list) {
          const s = this.model.grid[i];
          const d = flatDistanceKm(lat, lng, s.lat, s.lng);
          if (d > CUTOFF_KM[s.tectonic]) continue;
          const t = this.table(s, vs30);
          const x = d / TABLE_STEP_KM;
          const k = Math.floor(x);
          const f = x - k;
          const o0 = k * nl;
          const o1 = o0 + nl;
          for (let l = 0; l < nl; l++) acc[l] += s.rateM5 * (t[o0 + l] + (t[o1 + l] - t[o0 + l]) * f);
        }
      }
    }
  }

  private addFaults(lat: number, lng: number, vs30: number, acc: Float64Array): void {
    const lnLevels = this.levelsG.map(Math.log);
    for (const r of this.model.faults) {
      const cut = CUTOFF_KM[r.tectonic];
      const [s, w, n, e] = r.box;
      const padLat = cut / 111;
      const padLng = cut / (111 * Math.cos((lat * Math.PI) / 180));
      if (lat < s - padLat || lat > n + padLat || lng < w - padLng || lng > e + padLng) continue;
      const d = faultDistances(lat, lng, r);
      if (Math.min(d.rjbKm, d.rrupKm) > cut) continue;
      const gm = groundMotion(r.tectonic, r.magnitude, d, vs30);
      for (let l = 0; l < lnLevels.length; l++) acc[l] += r.rate * exceedanceProbability(lnLevels[l], gm.lnMedian, gm.sigma);
    }
  }

  /** Σ_bins share × P(PGA > level) against epicentral distance, rows of one value per level. */
  private table(s: GriddedSource, vs30: number): Float64Array {
    const mMax = Math.round(s.mMax * 10) / 10;
    const key = `${s.tectonic}|${s.b.toFixed(4)}|${mMax}|${vs30}`;
    let t = this.tables.get(key);
    if (t) return t;
    const nl = this.levelsG.length;
    const lnLevels = this.levelsG.map(Math.log);
    const rows = Math.ceil(CUTOFF_KM[s.tectonic] / TABLE_STEP_KM) + 2;
    t = new Float64Array(rows * nl);
    const bins = magnitudeBins(s.b, mMax);
    for (let k = 0; k < rows; k++) {
      const repi = k * TABLE_STEP_KM;
      for (const bin of bins) {
        for (let a = 0; a < POINT_STRIKES; a++) {
          const strike = ((a + 0.5) / POINT_STRIKES) * (Math.PI / 2);
          const gm = groundMotion(s.tectonic, bin.magnitude, pointRuptureDistances(repi, bin.magnitude, strike), vs30);
          const w = bin.share / POINT_STRIKES;
          for (let l = 0; l < nl; l++) t[k * nl + l] += w * exceedanceProbability(lnLevels[l], gm.lnMedian, gm.sigma);
        }
      }
    }
    this.tables.set(key, t);
    return t;
  }
}

/** The ground motion (g) whose exceedance rate is `rate`, interpolating ln λ against ln x; NaN off the curve. */
export function groundMotionAtRate(curve: HazardCurve, rate: number): number {
  const { levelsG: x, rates: y } = curve;
  if (!(y[0] >= rate)) return NaN;
  for (let i = 1; i < x.length; i++) {
    if (y[i] < rate) {
      if (!(y[i] > 0)) return x[i - 1];
      const a = Math.log(y[i - 1]);
      const b = Math.log(y[i]);
      return Math.exp(Math.log(x[i - 1]) + (Math.log(x[i]) - Math.log(x[i - 1])) * ((a - Math.log(rate)) / (a - b)));
    }
  }
  return x[x.length - 1];
}
