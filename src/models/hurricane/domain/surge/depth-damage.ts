/**
 * The surge vulnerabilities of the model package: for a flood class, a first-floor elevation band and a
 * coverage, the damage distribution over the damage bins at each surge height bin.
 *
 * Depth above the first floor = surge height − first-floor elevation. Both are known only to their bin
 * (0.25 m), so each (height bin, band) pair is read at SUB × SUB points spread evenly over the two and
 * the distributions averaged: a building in the middle of its band is not given the band's edge.
 * At each point the HAZUS curve gives the mean damage ratio (linear between its 1-ft points, 0 below its
 * first point at −4 ft, its last value above +24 ft); the damage about that mean is a beta distribution of
 * coefficient of variation SURGE_DAMAGE_COV, binned with the shared mean-preserving binning, so each bin's
 * binned mean is the curve's mean over the bin.
 */
import { binMixture, type DamageMixture } from '../../../shared/vulnerability/damage-bins.js';
import { FEET_TO_M } from './surge-depth.js';
import { elevationBandRange, SURGE_BIN_COUNT, SURGE_BIN_M, surgeBinRange } from './surge-bins.js';

/**
 * Spread of a building's flood damage about the curve's mean [judgement: flood claims at one depth spread
 * widely (contents moved or not, water hours or days); the HAZUS curves publish no spread, and the
 * USACE EGM 04-01 standard deviations describe the uncertainty of the mean curve (a few %), not one
 * building's loss; 0.5 is the low end of the 0.5-1.0 commonly applied to catastrophe damage ratios].
 */
export const SURGE_DAMAGE_COV = 0.5;
/** Points per height bin and per elevation band. */
const SUB = 5;

/** Depths (ft above the first floor) of the HAZUS curves' columns (src/models/hurricane/io/hazus-flood-data.ts reads them). */
export const CURVE_DEPTHS_FT = Array.from({ length: 29 }, (_, i) => i - 4);

/** The curve's damage ratio at a depth (ft above the first floor). */
export function curveAt(curve: readonly number[], depthFt: number): number {
  const first = CURVE_DEPTHS_FT[0];
  const last = CURVE_DEPTHS_FT[CURVE_DEPTHS_FT.length - 1];
  if (depthFt < first) return 0;
  if (depthFt >= last) return curve[curve.length - 1];
  const i = Math.floor(depthFt - first);
  const f = depthFt - first - i;
  return curve[i] + f * (curve[i + 1] - curve[i]);
}

/**
 * Probabilities over the damage bins, one array per surge height bin (SURGE_BIN_COUNT), for a class of
 * equally weighted curves and a first-floor elevation band. `cache` (per class and coverage) shares the
 * binned distributions between bands: depths repeat on the SUB-point lattice.
 */
export function surgeVulnerabilityTable(curves: readonly (readonly number[])[], band: number, cache: Map<number, Float64Array>): Float64Array[] {
  const step = SURGE_BIN_M / SUB;
  const at = (depthM: number): Float64Array => {
    const key = Math.round(depthM / step);
    let hit = cache.get(key);
    if (!hit) {
      const depthFt = (key * step) / FEET_TO_M;
      const mixture: DamageMixture = { zeroProbability: 0, components: curves.map((c) => ({ probability: 1 / curves.length, mean: curveAt(c, depthFt), cov: SURGE_DAMAGE_COV })) };
      hit = binMixture(mixture);
      cache.set(key, hit);
    }
    return hit;
  };
  const e0 = elevationBandRange(band).fromM;
  const out: Float64Array[] = [];
  for (let s = 1; s <= SURGE_BIN_COUNT; s++) {
    const h0 = surgeBinRange(s).fromM;
    let sum: Float64Array | null = null;
    for (let i = 0; i < SUB; i++) {
      for (let j = 0; j < SUB; j++) {
        const p = at(h0 + (i + 0.5) * step - (e0 + (j + 0.5) * step));
        if (!sum) sum = new Float64Array(p.length);
        for (let k = 0; k < p.length; k++) sum[k] += p[k] / (SUB * SUB);
      }
    }
    out.push(sum!);
  }
  return out;
}
