/**
 * A storm's peak surge height per near-coast cell of the wind grid (the same 0.05° cells and areaperil
 * ids as the wind footprint), from the same track, so one event's wind and surge come from one storm.
 *
 * For every 15-minute step of the track (the wind field's steps) and every cell within REACH_KM:
 * the surge at the coast in front of the cell is the inverse barometer plus the wind setup over the
 * segment's shelf (wind-setup.ts), driven by the onshore component of the wind field's 10-m marine wind
 * at the cell (seaward.ts gives the coast's direction). The right of the track, near Rmax, has the
 * strongest onshore wind, so the surge peaks there and falls along the coast away from it. Inland, the
 * height falls by INLAND_DECAY_M_PER_KM for each km of the cell's distance inland and is zero beyond
 * MAX_INLAND_KM (and behind a lake shore or a land border, where the grid measures no distance to the sea).
 * Each cell keeps its maximum over the storm; heights below MIN_HEIGHT_M are dropped.
 *
 * The height is above the still sea (mean sea level, taken as the elevation datum): tide and waves are
 * not in it. Depth at a building is this height less its ground elevation (surge-depth.ts).
 */
import { GRID_COLS, GRID_DEG, GRID_ROWS, GRID_SOUTH, GRID_WEST, areaperilId, type LandGrid } from '../footprint/grid.js';
import type { Track } from '../track.js';
import { AIR_DENSITY, gradientWindOfShape, type GradientProfile } from '../wind-field/holland.js';
import { backgroundFlow } from '../wind-field/point-wind.js';
import { stormSteps, type StormStep } from '../wind-field/storm-steps.js';
import { SURFACE_REDUCTION } from '../wind-field/surface.js';
import { seawardDirections } from './seaward.js';
import { SetupTables, setupCeiling, setupOf } from './setup-tables.js';
import { SHELF_SEGMENTS, shelfSegmentAt } from './shelf-profiles.js';
import { FETCH_PER_RMAX, inverseBarometerM, onshoreStressPa } from './wind-setup.js';

const KM_PER_DEG = 111.195;
/** Beyond this distance from the centre a step's surge is negligible (a few cm of inverse barometer). */
export const REACH_KM = 400;
/**
 * Over land the surge falls 1 ft per 2.75 statute miles (0.069 m/km): the US Army Corps of Engineers'
 * (1963) rule from Louisiana marsh observations, as Wamsley et al. (2010) discuss it (observed rates vary
 * severalfold with the storm and the ground). Rising ground does the rest, through the elevation rule.
 */
export const INLAND_DECAY_M_PER_KM = 0.3048 / (2.75 * 1.609344);
export const MIN_HEIGHT_M = 0.1;
/**
 * No surge beyond 10 km inland [judgement: the distance the land grid measures from the sea coast; Katrina's
 * surge, the highest in the US record, penetrated at least 6 miles (10 km) inland in much of coastal
 * Mississippi and up to 12 miles along bays and rivers (Knabb, Rhome & Brown 2005, NHC TCR)].
 */
export const MAX_INLAND_KM = 10;

/** A storm's surge footprint: areaperil ids (ascending) and peak surge heights (m above mean sea level). */
export interface SurgeHeights {
  areaperils: Uint32Array;
  heightM: Float32Array;
}

/** The near-coast cells (within MAX_INLAND_KM of the sea coast), their segment and centre, built once per grid. */
interface CoastCells {
  /** Grid index of each cell, ascending (so by row). */
  index: Int32Array;
  /** rowStart[r]..rowStart[r+1] are the cells of grid row r. */
  rowStart: Int32Array;
  /** Per grid row, the segments (bit s for segment s) of its cells, their own or their neighbour. */
  rowSegments: Uint16Array;
  lat: Float32Array;
  lng: Float32Array;
  /** km per degree of longitude at the cell's latitude (computed once: every storm step reads it). */
  kmPerDegLng: Float64Array;
  /** The cell's own shelf segment, a neighbouring one and the neighbour's weight (the blend at segment borders, below). */
  segment: Uint8Array;
  neighbour: Uint8Array;
  neighbourWeight: Float32Array;
}

/**
 * Near a border between two shelf segments a cell blends the two setups, weighted by how many near-coast
 * cells of each lie within ±BLEND_CELLS (about 30 km): without it the surge would jump by the ratio of
 * the two profiles' setups between neighbouring cells [judgement: the real shelf changes over tens of km].
 */
const BLEND_CELLS = 6;
const coastCache = new WeakMap<LandGrid, CoastCells>();
function coastCells(grid: LandGrid): CoastCells {
  const hit = coastCache.get(grid);
  if (hit) return hit;
  const idx: number[] = [];
  for (let k = 0; k < grid.land.length; k++) if (grid.land[k] && grid.inlandKm[k] <= MAX_INLAND_KM) idx.push(k);
  const rowStart = new Int32Array(GRID_ROWS + 1);
  for (const k of idx) rowStart[Math.floor(k / GRID_COLS) + 1]++;
  for (let r = 0; r < GRID_ROWS; r++) rowStart[r + 1] += rowStart[r];
  const n = idx.length;
  const out: CoastCells = { index: Int32Array.from(idx), rowStart, rowSegments: new Uint16Array(GRID_ROWS), lat: new Float32Array(n), lng: new Float32Array(n), kmPerDegLng: new Float64Array(n), segment: new Uint8Array(n), neighbour: new Uint8Array(n), neighbourWeight: new Float32Array(n) };
  // By grid index: the cell's segment, -1 off the near coast (read 169 times a cell by the blend below).
  const segmentOfCell = new Int8Array(GRID_ROWS * GRID_COLS).fill(-1);
  idx.forEach((k, i) => {
    const lat = GRID_SOUTH + (Math.floor(k / GRID_COLS) + 0.5) * GRID_DEG;
    const lng = GRID_WEST + ((k % GRID_COLS) + 0.5) * GRID_DEG;
    out.lat[i] = lat;
    out.lng[i] = lng;
    out.kmPerDegLng[i] = Math.cos((out.lat[i] * Math.PI) / 180) * KM_PER_DEG;
    out.segment[i] = SHELF_SEGMENTS.indexOf(shelfSegmentAt(lat, lng));
    segmentOfCell[k] = out.segment[i];
  });
  const counts = new Float64Array(SHELF_SEGMENTS.length);
  idx.forEach((k, i) => {
    counts.fill(0);
    const r = Math.floor(k / GRID_COLS);
    const c = k % GRID_COLS;
    for (let dr = -BLEND_CELLS; dr <= BLEND_CELLS; dr++) {
      for (let dc = -BLEND_CELLS; dc <= BLEND_CELLS; dc++) {
        const seg = segmentOfCell[(r + dr) * GRID_COLS + (c + dc)];
        if (seg >= 0 && c + dc >= 0 && c + dc < GRID_COLS) counts[seg]++;
      }
    }
    const own = out.segment[i];
    let other = own;
    for (let sgm = 0; sgm < counts.length; sgm++) if (sgm !== own && counts[sgm] > (other === own ? 0 : counts[other])) other = sgm;
    out.neighbour[i] = other;
    // The own segment keeps at least half: a cell is never more its neighbour's than its own.
    out.neighbourWeight[i] = other === own ? 0 : Math.min(0.5, counts[other] / (counts[own] + counts[other]));
    out.rowSegments[r] |= (1 << own) | (1 << other);
  });
  coastCache.set(grid, out);
  return out;
}

/**
 * Some of the grid's near-coast cells, for a footprint read only there (a small book's cells): the grid's
 * near-coast cells with the others left out, each with its own segment, blend and row's segments as the
 * whole grid gives them, so a kept cell's peak is the one the whole grid gives it.
 */
export type SurgeCells = CoastCells;

/** The near-coast cells among `cells` (grid indices), as SurgeCells. */
export function surgeCellsOf(grid: LandGrid, cells: Iterable<number>): SurgeCells {
  const all = coastCells(grid);
  const wanted = new Set(cells);
  const kept: number[] = [];
  for (let i = 0; i < all.index.length; i++) if (wanted.has(all.index[i])) kept.push(i);
  const rowStart = new Int32Array(GRID_ROWS + 1);
  for (const i of kept) rowStart[Math.floor(all.index[i] / GRID_COLS) + 1]++;
  for (let r = 0; r < GRID_ROWS; r++) rowStart[r + 1] += rowStart[r];
  return {
    index: Int32Array.from(kept, (i) => all.index[i]),
    rowStart,
    rowSegments: all.rowSegments,
    lat: Float32Array.from(kept, (i) => all.lat[i]),
    lng: Float32Array.from(kept, (i) => all.lng[i]),
    kmPerDegLng: Float64Array.from(kept, (i) => all.kmPerDegLng[i]),
    segment: Uint8Array.from(kept, (i) => all.segment[i]),
    neighbour: Uint8Array.from(kept, (i) => all.neighbour[i]),
    neighbourWeight: Float32Array.from(kept, (i) => all.neighbourWeight[i]),
  };
}

/** The track's surge footprint; with `only`, the same rows on those cells and none elsewhere. */
export function surgeHeightsForTrack(track: Track, grid: LandGrid, only?: SurgeCells): SurgeHeights {
  const peak = newSurgePeaks(grid, only);
  addSurgeSteps(peak, stormSteps(track), grid, true, MIN_HEIGHT_M, only);
  return surgeHeightsOf(peak, grid, only);
}

/**
 * Peak height per near-coast cell (by its position in the grid's near-coast cells, or in `only`'s), all 0:
 * a typed array, not a map, as a storm's steps update it tens of thousands of times.
 */
export function newSurgePeaks(grid: LandGrid, only?: SurgeCells): Float64Array {
  return new Float64Array((only ?? coastCells(grid)).index.length);
}

/** Whether some cell of `only` lies within REACH_KM of the step, measured as addSurgeSteps measures it. */
function withinReachOfAny(only: SurgeCells, step: StormStep): boolean {
  for (let i = 0; i < only.index.length; i++) {
    const dx = (only.lng[i] - step.lng) * only.kmPerDegLng[i];
    const dy = (only.lat[i] - step.lat) * KM_PER_DEG;
    if (Math.sqrt(dx * dx + dy * dy) <= REACH_KM) return true;
  }
  return false;
}

/**
 * Raises `peak` to the heights of `steps`: a maximum over steps, so a storm's steps may be added in parts
 * (tracks sharing their first steps share those steps' peaks: event-loss ensembles). `useCeiling` false
 * evaluates every (step, cell) pair, the ceiling's skips aside: the same peaks, more slowly (the tests' check).
 * `floorM`: the lowest height the caller keeps (a footprint's MIN_HEIGHT_M); a pair whose ceiling is below
 * it is skipped as well, so peaks below it may be left lower, and the peaks at or above it are unchanged.
 */
export function addSurgeSteps(
  peak: Float64Array,
  steps: Iterable<StormStep>,
  grid: LandGrid,
  useCeiling = true,
  floorM = 0,
  only?: SurgeCells,
): void {
  // With `only`, the loop below visits just those cells: each cell's peak is its own, whatever else is visited.
  const cells = only ?? coastCells(grid);
  const sea = seawardDirections(grid);
  const dLat = REACH_KM / KM_PER_DEG;
  const stepCeiling = new StepCeiling();
  for (const step of steps) {
    if (step.lat + dLat < GRID_SOUTH || step.lat - dLat > GRID_SOUTH + GRID_ROWS * GRID_DEG) continue;
    const dLng = REACH_KM / (KM_PER_DEG * Math.cos((Math.min(60, Math.abs(step.lat) + dLat) * Math.PI) / 180));
    if (step.lng + dLng < GRID_WEST || step.lng - dLng > GRID_WEST + GRID_COLS * GRID_DEG) continue;
    // Beyond REACH_KM of every cell of `only`, the loop would skip each of them.
    if (only && !withinReachOfAny(only, step)) continue;
    const [be, bn] = backgroundFlow(step);
    const { profile } = step;
    const tables = new SetupTables(FETCH_PER_RMAX * profile.rmKm);
    const deltaPHpa = profile.deltaPPa / 100;
    const r0 = Math.max(0, Math.floor((step.lat - dLat - GRID_SOUTH) / GRID_DEG));
    const r1 = Math.min(GRID_ROWS - 1, Math.floor((step.lat + dLat - GRID_SOUTH) / GRID_DEG));
    let segments = 0;
    for (let row = r0; row <= r1; row++) segments |= cells.rowSegments[row];
    stepCeiling.reset(profile, Math.sqrt(be * be + bn * bn), tables, tables.ceilingOfAny(segments));
    // A row's cells ascend in longitude: a binary search finds the first within dLng, and the scan stops
    // at the first beyond it, so a step visits only the coast in front of it, not the whole row.
    for (let row = r0; row <= r1; row++) {
      const end = cells.rowStart[row + 1];
      let lo = cells.rowStart[row];
      let hi = end;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (step.lng - cells.lng[mid] > dLng) lo = mid + 1;
        else hi = mid;
      }
      for (let i = lo; i < end; i++) {
        const lat = cells.lat[i];
        const lng = cells.lng[i];
        if (lng - step.lng > dLng) break;
        const dx = (lng - step.lng) * cells.kmPerDegLng[i];
        const dy = (lat - step.lat) * KM_PER_DEG;
        const r = Math.sqrt(dx * dx + dy * dy); // not Math.hypot: several times slower in V8, on the hot path
        if (r > REACH_KM) continue;
        const k = cells.index[i];
        const se = sea.east[k];
        const sn = sea.north[k];
        // Most pairs cannot raise their cell's peak (a cell far out or downwind, or one an earlier, closer
        // step already flooded higher): the step's ceiling there says so before the profile is evaluated.
        if (useCeiling) {
          const inland = INLAND_DECAY_M_PER_KM * grid.inlandKm[k];
          // A pair below floorM is skipped too: whatever it would record there, the caller drops.
          const anyCell = stepCeiling.anyCell(r) - inland;
          if (anyCell <= peak[i] || anyCell < floorM) continue;
          // Onshore is against the seaward vector, and the counter-clockwise direction is (−dy, dx)/r.
          const onshoreShare = se === 0 && sn === 0 ? 1 : r > 0 ? (dy * se - dx * sn) / r : 0;
          const ceiling = stepCeiling.coastHeight(r, onshoreShare, cells.segment[i], cells.neighbour[i]);
          if (ceiling - inland <= peak[i] || ceiling - inland < floorM) continue;
        }
        // Wind (m/s): counter-clockwise tangential surface wind plus the background flow (as the wind footprint).
        let e = be;
        let n = bn;
        let pressureDeficit = deltaPHpa;
        if (r > 0) {
          const shape = (profile.rmKm / r) ** profile.b;
          const expShape = Math.exp(-shape);
          const v = (SURFACE_REDUCTION * gradientWindOfShape(profile, r, shape, expShape)) / r;
          e += -dy * v;
          n += dx * v;
          pressureDeficit = deltaPHpa * (1 - expShape);
        }
        const speed = Math.sqrt(e * e + n * n);
        // Onshore = blowing from the sea, against the seaward vector; no direction known: all of it.
        const onshore = se === 0 && sn === 0 ? speed : -(e * se + n * sn);
        const stress = onshoreStressPa(speed, onshore);
        let setup = 0;
        if (stress > 0) {
          const own = cells.segment[i];
          const w = cells.neighbourWeight[i];
          setup = setupOf(tables.of(own), stress);
          if (w > 0) setup = (1 - w) * setup + w * setupOf(tables.of(cells.neighbour[i]), stress);
        }
        const coastHeight = inverseBarometerM(pressureDeficit) + setup;
        const height = coastHeight - INLAND_DECAY_M_PER_KM * grid.inlandKm[k];
        if (height > peak[i]) peak[i] = height;
      }
    }
  }
}

/**
 * Rounding headroom on a ceiling: the ceiling follows the height's own arithmetic in another order, and the
 * seaward vectors are unit vectors rounded to float32 (so up to 6e-8 longer); far below any height that matters.
 */
const CEILING_MARGIN = 1e-6;
/**
 * The ceiling's bands of distance: 5 km out to 100 km, where the wind falls fastest, then 10 km to 200 km
 * and 20 km beyond (each band's ceiling costs a pow and an exp, a step has one per band it reaches).
 */
const BAND_STARTS_KM = [
  ...Array.from({ length: 20 }, (_, i) => i * 5),
  ...Array.from({ length: 10 }, (_, i) => 100 + i * 10),
  ...Array.from({ length: 11 }, (_, i) => 200 + i * 20),
];
const CEILING_BANDS = BAND_STARTS_KM.length;
/** By whole km of distance (0..REACH_KM): its band. */
const BAND_OF_KM = Uint8Array.from({ length: REACH_KM + 1 }, (_, km) => BAND_STARTS_KM.filter((start) => start <= km).length - 1);

/**
 * A step's highest possible coast height (inverse barometer plus setup) at a cell: what lets addSurgeSteps
 * skip a pair whose height could not raise the cell's peak, leaving the peaks exactly as computing every
 * pair would. By band of distance, from its near edge: the pressure deficit Δp·(1 − e^{−(Rm/r)^B})
 * falls with distance everywhere and the gradient wind outside Rm (inside, it is at most √(B·Δp/(ρ·e)),
 * the profile's cyclostrophic peak). The wind is the vortex's, counter-clockwise, plus the background
 * flow, so its onshore part is at most the background's speed plus the vortex's times the share of the
 * counter-clockwise direction that points onshore; the setup is at most the highest either of the cell's
 * two segments' tables gives up to that stress.
 */
class StepCeiling {
  /** Per band: the inverse barometer at its near edge (NaN until first asked), the vortex's and the whole wind's speed. */
  private readonly barometerM = new Float64Array(CEILING_BANDS).fill(NaN);
  private readonly vortexMs = new Float64Array(CEILING_BANDS);
  private readonly speedMs = new Float64Array(CEILING_BANDS);
  /** Per band: the ceiling for any cell the step reaches, the wind all onshore (a first, cheaper test). */
  private readonly anyCellM = new Float64Array(CEILING_BANDS);
  private profile!: GradientProfile;
  private backgroundMs = 0;
  private tables!: SetupTables;
  /** The setup ceiling of every segment the step reaches. */
  private anySetup!: Float32Array;

  /** Makes this the ceiling of another step: one object serves every step of a call, with no arrays made per step. */
  reset(profile: GradientProfile, backgroundMs: number, tables: SetupTables, anySetup: Float32Array): void {
    this.profile = profile;
    this.backgroundMs = backgroundMs;
    this.tables = tables;
    this.anySetup = anySetup;
    this.barometerM.fill(NaN);
  }

  /** The ceiling at distance r (km, at most REACH_KM) for any cell the step reaches. */
  anyCell(r: number): number {
    const band = BAND_OF_KM[Math.floor(r)];
    if (this.barometerM[band] !== this.barometerM[band]) this.fill(band);
    return this.anyCellM[band];
  }

  /**
   * The ceiling at distance r (km, at most REACH_KM) for a cell of segments `own` and `neighbour`, where
   * `onshoreShare` is the cosine between the counter-clockwise direction and the onshore one (1 where the
   * cell has no known direction to the sea: all the wind counts as onshore).
   */
  coastHeight(r: number, onshoreShare: number, own: number, neighbour: number): number {
    const band = BAND_OF_KM[Math.floor(r)];
    if (this.barometerM[band] !== this.barometerM[band]) this.fill(band);
    const onshore = (this.backgroundMs + this.vortexMs[band] * ((onshoreShare > 0 ? onshoreShare : 0) + CEILING_MARGIN)) * (1 + CEILING_MARGIN);
    const stress = onshoreStressPa(this.speedMs[band], onshore) * (1 + CEILING_MARGIN);
    const setup = Math.max(
      setupCeiling(this.tables.ceilingOf(own), stress),
      own === neighbour ? 0 : setupCeiling(this.tables.ceilingOf(neighbour), stress),
    );
    return (this.barometerM[band] + setup) * (1 + CEILING_MARGIN) + CEILING_MARGIN;
  }

  private fill(band: number): void {
    const p = this.profile;
    const near = BAND_STARTS_KM[band];
    const shape = near > 0 ? (p.rmKm / near) ** p.b : Infinity;
    const expShape = Math.exp(-shape);
    const deficitHpa = (p.deltaPPa / 100) * (1 - expShape);
    const gradientMs =
      near >= p.rmKm ? gradientWindOfShape(p, near, shape, expShape) : Math.sqrt((p.b / AIR_DENSITY) * p.deltaPPa * Math.exp(-1));
    this.vortexMs[band] = SURFACE_REDUCTION * gradientMs * (1 + CEILING_MARGIN);
    this.speedMs[band] = (this.backgroundMs + this.vortexMs[band]) * (1 + CEILING_MARGIN);
    this.barometerM[band] = inverseBarometerM(deficitHpa * (1 + CEILING_MARGIN));
    const stress = onshoreStressPa(this.speedMs[band], this.speedMs[band]) * (1 + CEILING_MARGIN);
    this.anyCellM[band] = (this.barometerM[band] + setupCeiling(this.anySetup, stress)) * (1 + CEILING_MARGIN) + CEILING_MARGIN;
  }
}

/** The surge footprint of the accumulated peaks: cells at MIN_HEIGHT_M or more. */
export function surgeHeightsOf(peak: Float64Array, grid: LandGrid, only?: SurgeCells): SurgeHeights {
  const cells = only ?? coastCells(grid);
  // cells.index ascends, so the kept cells come out in areaperil order.
  const kept: number[] = [];
  for (let i = 0; i < peak.length; i++) if (peak[i] >= MIN_HEIGHT_M) kept.push(i);
  return {
    areaperils: Uint32Array.from(kept, (i) => areaperilId(Math.floor(cells.index[i] / GRID_COLS), cells.index[i] % GRID_COLS)),
    heightM: Float32Array.from(kept, (i) => peak[i]),
  };
}
