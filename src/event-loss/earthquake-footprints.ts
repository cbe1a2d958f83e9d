/**
 * A live earthquake's footprints on the earthquake package's grid (docs/event-loss.md#earthquake):
 *
 *  - From the USGS ShakeMap grid when one is given: each package cell takes the ShakeMap's PGA at the grid
 *    node nearest its centre as the median and the ShakeMap's own uncertainty there (STDPGA, the σ of ln PGA,
 *    smaller near recording stations) as its σ, spread over the package's PGA bins with the same ±3σ
 *    truncated lognormal as the package's own footprints. One footprint: the map is the event.
 *  - Otherwise the package's ground-motion model from the origin: the same footprint the package writes for
 *    a gridded rupture of that magnitude at the epicentre (median and aleatory σ on Vs30 760 m/s), once for
 *    each of POINT_STRIKES strikes, since the strike of a rupture just recorded is not known; the strikes are
 *    the ensemble's members.
 *
 * A cell is written only where the package writes one (its expected damage to the most vulnerable building
 * at least MIN_EXPECTED_DAMAGE), so both footprints leave out the same faint shaking.
 */
import path from 'node:path';
import { exceedanceProbability } from '../models/earthquake/domain/exceedance.js';
import { PGA_BIN_EDGES_G, INTENSITY_BIN_COUNT } from '../models/earthquake/domain/intensity-bins.js';
import { POINT_STRIKES, type PointRupture } from '../models/earthquake/domain/rupture-set.js';
import type { Tectonic } from '../models/earthquake/domain/ground-motion.js';
import { readHazusEarthquake } from '../models/earthquake/io/hazus-earthquake-data.js';
import { HAZUS_EARTHQUAKE_DIR } from '../models/earthquake/package/build.js';
import {
  eventFootprint,
  MIN_EXPECTED_DAMAGE,
  THRESHOLD_EDGE,
  ZONE_LEVELS_G,
} from '../models/earthquake/package/event-footprint.js';
import {
  areaperilId,
  cellCentre,
  cellOf,
  GRID_CELLS,
  GRID_COLS,
  GRID_ROWS,
} from '../models/earthquake/package/grid.js';
import { worstMeanDamageByBin } from '../models/earthquake/package/worst-damage.js';
import type { PgaGrid } from '../domain/pga-grid.js';

export { INTENSITY_BIN_COUNT as EARTHQUAKE_INTENSITY_BINS };

const LN_EDGES = PGA_BIN_EDGES_G.map(Math.log);

let worst: Float64Array | null = null;
function worstDamage(dataDir: string): Float64Array {
  return (worst ??= worstMeanDamageByBin(readHazusEarthquake(path.join(dataDir, HAZUS_EARTHQUAKE_DIR))));
}

/** The footprint of a ShakeMap PGA grid: 12-byte rows in ascending areaperil order. */
export function shakeMapFootprint(grid: PgaGrid, dataDir: string): Buffer {
  const worstByBin = worstDamage(dataDir);
  const south = grid.latMax - (grid.ny - 1) * grid.dLatDeg;
  const east = grid.lonMin + (grid.nx - 1) * grid.dLonDeg;
  const sw = cellOf(Math.max(south, -90), grid.lonMin);
  const ne = cellOf(grid.latMax, east);
  const r0 = sw ? sw.row : 0;
  const c0 = sw ? sw.col : 0;
  const r1 = ne ? ne.row : GRID_ROWS - 1;
  const c1 = ne ? ne.col : GRID_COLS - 1;
  const out: number[] = [];
  const exceed = new Float64Array(LN_EDGES.length);
  for (let row = r0; row <= r1; row++) {
    for (let col = c0; col <= c1; col++) {
      const { lat, lng } = cellCentre(row, col);
      const i = Math.round((lng - grid.lonMin) / grid.dLonDeg);
      const j = Math.round((grid.latMax - lat) / grid.dLatDeg);
      if (i < 0 || i >= grid.nx || j < 0 || j >= grid.ny) continue;
      const pga = grid.pgaG[j * grid.nx + i];
      const sigma = grid.sigmaLn[j * grid.nx + i];
      if (!(pga > 0) || !(sigma > 0)) continue;
      const lnMedian = Math.log(pga);
      for (let k = 0; k < LN_EDGES.length; k++) exceed[k] = exceedanceProbability(LN_EDGES[k], lnMedian, sigma);
      let expected = 0;
      for (let k = THRESHOLD_EDGE; k < LN_EDGES.length; k++)
        expected += (exceed[k] - (k + 1 < LN_EDGES.length ? exceed[k + 1] : 0)) * worstByBin[1 + k];
      if (expected < MIN_EXPECTED_DAMAGE) continue;
      const ap = areaperilId(row, col);
      // As the package: every PGA below the threshold edge is read as no damage, in bin 1.
      const below = 1 - exceed[THRESHOLD_EDGE];
      if (below > 0) out.push(ap, 1, below);
      for (let k = THRESHOLD_EDGE; k < LN_EDGES.length; k++) {
        const p = exceed[k] - (k + 1 < LN_EDGES.length ? exceed[k + 1] : 0);
        if (p > 0) out.push(ap, 2 + k, p);
      }
    }
  }
  const b = Buffer.alloc((out.length / 3) * 12);
  for (let r = 0; r < out.length / 3; r++) {
    b.writeUInt32LE(out[r * 3], r * 12);
    b.writeInt32LE(out[r * 3 + 1], r * 12 + 4);
    b.writeFloatLE(out[r * 3 + 2], r * 12 + 8);
  }
  return b;
}

/** The package's own footprints of a rupture at the epicentre, one per strike. */
export function groundMotionFootprints(
  origin: { lat: number; lng: number; magnitude: number; tectonic: Tectonic },
  dataDir: string,
): Buffer[] {
  const worstByBin = worstDamage(dataDir);
  const zones = new Float64Array(GRID_CELLS * ZONE_LEVELS_G.length); // the package's hazard tally; not needed here
  const out: Buffer[] = [];
  for (let k = 0; k < POINT_STRIKES; k++) {
    const rupture: PointRupture = {
      lat: origin.lat,
      lng: origin.lng,
      magnitude: origin.magnitude,
      rate: 1,
      tectonic: origin.tectonic,
      strikeDeg: (180 * k) / POINT_STRIKES,
    };
    out.push(Buffer.from(eventFootprint(rupture, zones, worstByBin).rows));
  }
  return out;
}
