/**
 * One event's footprint on the package grid: for every cell the rupture can shake to the damage threshold,
 * the probabilities of the PGA intensity bins at the cell centre from the ground-motion model's median and
 * aleatory σ (lognormal truncated at ±3σ, as the hazard curves take it), on Vs30 760 m/s.
 *
 * What is left out, so a 10,000-year package stays a few gigabytes:
 *  - PGA below DAMAGE_THRESHOLD_G (0.0316 g, 10^-1.5) does no damage worth a row: the worst HAZUS building
 *    (manufactured housing, pre-code) has a mean damage ratio under 0.02 % there, a wood home under 1e-6 %.
 *    Its probability goes to bin 1 (read by every vulnerability as no damage), so a cell's probabilities
 *    still sum to 1; the bins from 0.01 to 0.0316 g are never written.
 *  - A cell where even the +3σ ground motion stays below the threshold gets no row (its loss is zero
 *    either way). The cells looked at are those within the distance at which the +3σ motion of the
 *    event's magnitude and setting falls below the threshold (reachKm), and within NSHM's cutoffs.
 *  - A cell where the expected damage ratio of the most vulnerable building the model has (worst-damage.ts)
 *    is below MIN_EXPECTED_DAMAGE gets no row: the event's loss there is under that share of any
 *    building's value (a wood home's is far lower), and such cells are most of the footprint's area.
 */
import { flatDistanceKm } from '../../../reference-data/cell-query.js';
import { exceedanceProbability, TRUNCATION_SIGMAS } from '../domain/exceedance.js';
import { siteGroundMotion } from '../domain/footprint.js';
import { groundMotion, type Tectonic } from '../domain/ground-motion.js';
import { CUTOFF_KM } from '../domain/hazard-curve.js';
import { PGA_BIN_EDGES_G } from '../domain/intensity-bins.js';
import { ruptureLengthKm, type FaultRupture, type PointRupture } from '../domain/rupture-set.js';
import { areaperilId, cellCentre, GRID_COLS, GRID_DEG, GRID_ROWS, GRID_SOUTH, GRID_WEST } from './grid.js';

/** The first bin edge written: bins below it are folded into bin 1. */
export const THRESHOLD_EDGE = 10;
export const DAMAGE_THRESHOLD_G = PGA_BIN_EDGES_G[THRESHOLD_EDGE];
const LN_THRESHOLD = Math.log(DAMAGE_THRESHOLD_G);
const LN_EDGES = PGA_BIN_EDGES_G.map(Math.log);
/** Expected damage ratio of the most vulnerable building below which an event's cell is dropped. */
export const MIN_EXPECTED_DAMAGE = 1e-6;
/** Half the diagonal of a cell (km), so a cell whose centre is just out of reach but whose corner is in counts. */
const CELL_MARGIN_KM = 8;

/**
 * PGA levels (g) at which each cell's exceedance rate is summed over the catalog: the boundaries between
 * the UBC 1997 seismic zones (seismicZoneOfPga475), so a cell's zone follows from which of them its
 * 10 %-in-50-years PGA exceeds.
 */
export const ZONE_LEVELS_G = [0.0375, 0.1125, 0.175, 0.25, 0.35] as const;
const LN_ZONE_LEVELS = ZONE_LEVELS_G.map(Math.log);

const reachCache = new Map<string, number>();

/** Farthest distance (km) at which a rupture of this setting and magnitude can put the threshold PGA on rock. */
export function reachKm(tectonic: Tectonic, magnitude: number): number {
  const key = `${tectonic}|${magnitude.toFixed(2)}`;
  let reach = reachCache.get(key);
  if (reach !== undefined) return reach;
  reach = 0;
  // Both distances set to d: R_rup ≥ R_JB, so this bounds the motion of any rupture at R_JB d.
  for (let d = 0; d <= CUTOFF_KM[tectonic]; d++) {
    const gm = groundMotion(tectonic, magnitude, { rjbKm: d, rrupKm: d });
    if (gm.lnMedian + TRUNCATION_SIGMAS * gm.sigma >= LN_THRESHOLD) reach = d + 1;
  }
  reachCache.set(key, reach);
  return reach;
}

export interface FootprintSink {
  /** Rows of 12 bytes (uint32 areaperil_id, int32 intensity_bin_id, float32 probability), ascending areaperil. */
  rows: Buffer;
  count: number;
}

/**
 * The event's footprint rows, and Σ P(PGA > level) added into zoneExceedance[cell · 5 + level] for the
 * zone levels (the catalog's hazard at each cell).
 */
export function eventFootprint(rupture: PointRupture | FaultRupture, zoneExceedance: Float64Array, worstDamage: Float64Array): FootprintSink {
  const reach = reachKm(rupture.tectonic, rupture.magnitude);
  let south: number;
  let north: number;
  let west: number;
  let east: number;
  let centre: { lat: number; lng: number; radiusKm: number } | undefined;
  if ('planes' in rupture) {
    const pad = reach + CELL_MARGIN_KM;
    const [s, w, n, e] = rupture.box;
    const kx = Math.cos((((s + n) / 2) * Math.PI) / 180);
    south = s - pad / 111;
    north = n + pad / 111;
    west = w - pad / (111 * kx);
    east = e + pad / (111 * kx);
  } else {
    const radiusKm = reach + ruptureLengthKm(rupture.magnitude) / 2 + CELL_MARGIN_KM;
    const kx = Math.cos((rupture.lat * Math.PI) / 180);
    centre = { lat: rupture.lat, lng: rupture.lng, radiusKm };
    south = rupture.lat - radiusKm / 111;
    north = rupture.lat + radiusKm / 111;
    west = rupture.lng - radiusKm / (111 * kx);
    east = rupture.lng + radiusKm / (111 * kx);
  }
  const r0 = Math.max(0, Math.floor((south - GRID_SOUTH) / GRID_DEG));
  const r1 = Math.min(GRID_ROWS - 1, Math.floor((north - GRID_SOUTH) / GRID_DEG));
  const c0 = Math.max(0, Math.floor((west - GRID_WEST) / GRID_DEG));
  const c1 = Math.min(GRID_COLS - 1, Math.floor((east - GRID_WEST) / GRID_DEG));

  let rows = Buffer.alloc(12 * 4096);
  let count = 0;
  const push = (ap: number, bin: number, p: number) => {
    if ((count + 1) * 12 > rows.length) {
      const bigger = Buffer.alloc(rows.length * 2);
      rows.copy(bigger);
      rows = bigger;
    }
    const at = count * 12;
    rows.writeUInt32LE(ap, at);
    rows.writeInt32LE(bin, at + 4);
    rows.writeFloatLE(p, at + 8);
    count++;
  };
  const exceed = new Float64Array(LN_EDGES.length);
  for (let row = r0; row <= r1; row++) {
    for (let col = c0; col <= c1; col++) {
      const { lat, lng } = cellCentre(row, col);
      if (centre && flatDistanceKm(centre.lat, centre.lng, lat, lng) > centre.radiusKm) continue;
      const gm = siteGroundMotion(rupture, lat, lng);
      if (gm.lnMedian + TRUNCATION_SIGMAS * gm.sigma < LN_THRESHOLD) continue;
      const cell = row * GRID_COLS + col;
      for (let l = 0; l < LN_ZONE_LEVELS.length; l++) zoneExceedance[cell * LN_ZONE_LEVELS.length + l] += exceedanceProbability(LN_ZONE_LEVELS[l], gm.lnMedian, gm.sigma);
      for (let k = THRESHOLD_EDGE; k < LN_EDGES.length; k++) exceed[k] = exceedanceProbability(LN_EDGES[k], gm.lnMedian, gm.sigma);
      let expected = 0;
      for (let k = THRESHOLD_EDGE; k < LN_EDGES.length; k++) expected += (exceed[k] - (k + 1 < LN_EDGES.length ? exceed[k + 1] : 0)) * worstDamage[1 + k];
      if (expected < MIN_EXPECTED_DAMAGE) continue;
      const ap = areaperilId(row, col);
      const below = 1 - exceed[THRESHOLD_EDGE];
      if (below > 0) push(ap, 1, below);
      for (let k = THRESHOLD_EDGE; k < LN_EDGES.length; k++) {
        // Bin 2 + k spans [edge k, edge k+1); the last bin is open above the last edge.
        const p = exceed[k] - (k + 1 < LN_EDGES.length ? exceed[k + 1] : 0);
        if (p > 0) push(ap, 2 + k, p);
      }
    }
  }
  return { rows: rows.subarray(0, count * 12), count };
}

