/**
 * The peak gust per grid cell over a storm's life: every STEP_MINUTES step of the track (storm-steps.ts)
 * visits the land cells within the radius where its wind can still reach the first intensity bin, and
 * each cell keeps its maximum. Only cells at or above FIRST_EDGE_MPH are returned: below it HAZUS gives
 * no damage, and a footprint row there would only cost space.
 */
import { FIRST_EDGE_MPH } from '../intensity-bins.js';
import type { Track } from '../track.js';
import { gradientWindMs } from '../wind-field/holland.js';
import { backgroundFlow } from '../wind-field/point-wind.js';
import { stormSteps, type StormStep } from '../wind-field/storm-steps.js';
import { GUST_PER_MARINE_WIND_SEA, MS_TO_MPH, SURFACE_REDUCTION, gustPerMarineWind } from '../wind-field/surface.js';
import { GRID_COLS, GRID_DEG, GRID_ROWS, GRID_SOUTH, GRID_WEST, areaperilId, type LandGrid } from './grid.js';

const KM_PER_DEG = 111.195;
const MAX_REACH_KM = 800;

/** A storm's footprint before intensity uncertainty: areaperil ids (ascending) and peak gusts (mph). */
export interface PeakGustFootprint {
  areaperils: Uint32Array;
  gustMph: Float32Array;
}

/**
 * Radius (km) beyond which this step's gust is below thresholdMph everywhere: where the strongest it can
 * be (vortex + full background flow, over water) drops below the threshold. The profile falls
 * monotonically outside Rm, so we walk outward in 5 km steps.
 */
export function reachKm(step: StormStep, thresholdMph: number): number {
  const bg = Math.hypot(...backgroundFlow(step));
  const needMs = thresholdMph / (GUST_PER_MARINE_WIND_SEA * MS_TO_MPH);
  if (SURFACE_REDUCTION * gradientWindMs(step.profile, step.profile.rmKm) + bg < needMs) return 0;
  let r = step.profile.rmKm;
  while (r < MAX_REACH_KM && SURFACE_REDUCTION * gradientWindMs(step.profile, r) + bg >= needMs) r += 5;
  return r;
}

/** Reusable per-process scratch: the peak per grid cell, reset after each storm through the touched list. */
let scratch: Float32Array | null = null;

/** Gust per marine wind of every grid cell, computed once per land grid (an exp per cell otherwise). */
const gustFactors = new WeakMap<LandGrid, Float32Array>();
function gustFactorOf(grid: LandGrid): Float32Array {
  let f = gustFactors.get(grid);
  if (!f) {
    f = new Float32Array(grid.land.length);
    // Most land is beyond the distance the grid measures from the coast (Infinity): one factor for all of it.
    const farInland = gustPerMarineWind(Infinity) * MS_TO_MPH;
    for (let k = 0; k < f.length; k++)
      if (grid.land[k]) f[k] = grid.inlandKm[k] === Infinity ? farInland : gustPerMarineWind(grid.inlandKm[k]) * MS_TO_MPH;
    gustFactors.set(grid, f);
  }
  return f;
}

/**
 * The vortex's surface wind K·V_g(r) tabulated every TABLE_KM out to the reach: the footprint visits
 * millions of (step, cell) pairs, and a table lookup replaces a pow, an exp and a sqrt each. Linear
 * interpolation at 0.5 km is within 0.5 % of the profile outside the eye. Filled as the cells ask (NaN
 * until then): a step near the grid's edge reads only the distances its land lies at.
 */
const TABLE_KM = 0.5;
function profileTable(reach: number): Float32Array {
  return new Float32Array(Math.ceil(reach / TABLE_KM) + 2).fill(NaN);
}

/** The table's entry i, computed the first time it is read (and read back as stored: a float32). */
function tableEntry(table: Float32Array, i: number, step: StormStep): number {
  const t = table[i];
  if (t === t) return t;
  table[i] = SURFACE_REDUCTION * gradientWindMs(step.profile, i * TABLE_KM);
  return table[i];
}

/**
 * The grid's land as runs of columns per row (runs of row r are runStart[r]..runStart[r+1], each from..to
 * inclusive): a step's disc is about half water, and the runs pass over it without reading each cell.
 */
interface LandRuns {
  runStart: Int32Array;
  from: Int16Array;
  to: Int16Array;
}
const landRunsCache = new WeakMap<LandGrid, LandRuns>();
function landRunsOf(grid: LandGrid): LandRuns {
  const hit = landRunsCache.get(grid);
  if (hit) return hit;
  const runStart = new Int32Array(GRID_ROWS + 1);
  const from: number[] = [];
  const to: number[] = [];
  for (let r = 0; r < GRID_ROWS; r++) {
    runStart[r] = from.length;
    for (let c = 0; c < GRID_COLS; c++) {
      if (!grid.land[r * GRID_COLS + c]) continue;
      if (c > 0 && grid.land[r * GRID_COLS + c - 1]) to[to.length - 1] = c;
      else {
        from.push(c);
        to.push(c);
      }
    }
  }
  runStart[GRID_ROWS] = from.length;
  const runs = { runStart, from: Int16Array.from(from), to: Int16Array.from(to) };
  landRunsCache.set(grid, runs);
  return runs;
}

/**
 * Some of the grid's land cells, for a footprint read only there (a small book's cells): their runs, the
 * rows they span, and their centres as addGustSteps measures a cell's distance from a step.
 */
export interface GustCells {
  runs: LandRuns;
  row0: number;
  row1: number;
  lat: Float64Array;
  lng: Float64Array;
  kmPerDegLng: Float64Array;
}

/** The land cells among `cells` (grid indices), as GustCells. */
export function gustCellsOf(grid: LandGrid, cells: Iterable<number>): GustCells {
  const kept = [...new Set(cells)].filter((k) => grid.land[k]).sort((a, b) => a - b);
  const runStart = new Int32Array(GRID_ROWS + 1);
  for (const k of kept) runStart[Math.floor(k / GRID_COLS) + 1]++;
  for (let r = 0; r < GRID_ROWS; r++) runStart[r + 1] += runStart[r];
  const rows = kept.map((k) => Math.floor(k / GRID_COLS));
  const cols = Int16Array.from(kept, (k) => k % GRID_COLS);
  const lat = Float64Array.from(rows, (r) => GRID_SOUTH + (r + 0.5) * GRID_DEG);
  return {
    // A run per cell: kept ascends, so by row and then by column, as the runs of the whole land are.
    runs: { runStart, from: cols, to: cols },
    row0: rows.length ? rows[0] : GRID_ROWS,
    row1: rows.length ? rows[rows.length - 1] : -1,
    lat,
    lng: Float64Array.from(cols, (c) => GRID_WEST + (c + 0.5) * GRID_DEG),
    kmPerDegLng: lat.map((l) => Math.cos((l * Math.PI) / 180) * KM_PER_DEG),
  };
}

/**
 * Whether some cell of `only` lies within reachKm + 1 of the step, measured as addGustSteps measures it: a
 * cell at reachKm + 1 or more is past the end of the step's profile table, which the loop skips, so a
 * step near none of the cells leaves their peaks as they are.
 */
function nearAny(only: GustCells, step: StormStep, reachKm: number): boolean {
  const limit = reachKm + 1;
  for (let j = 0; j < only.lat.length; j++) {
    const dy = (only.lat[j] - step.lat) * KM_PER_DEG;
    const dx = (only.lng[j] - step.lng) * only.kmPerDegLng[j];
    if (Math.sqrt(dx * dx + dy * dy) < limit) return true;
  }
  return false;
}

/**
 * Whether a step's disc of radius reachKm misses the grid: most of a storm's life is spent far from it, and
 * such steps are skipped before their profile is tabulated. A larger radius never misses where a smaller
 * one does not.
 */
function missesGrid(step: StormStep, reachKm: number): boolean {
  const dLat = reachKm / KM_PER_DEG;
  const r0 = Math.max(0, Math.floor((step.lat - dLat - GRID_SOUTH) / GRID_DEG));
  const r1 = Math.min(GRID_ROWS - 1, Math.floor((step.lat + dLat - GRID_SOUTH) / GRID_DEG));
  const dLngMax = reachKm / (Math.cos((Math.min(60, Math.abs(step.lat) + dLat) * Math.PI) / 180) * KM_PER_DEG);
  return r1 < r0 || step.lng + dLngMax < GRID_WEST || step.lng - dLngMax > GRID_WEST + GRID_COLS * GRID_DEG;
}

/** The most reachKm can return for a step: it walks out from Rm in 5 km steps while below MAX_REACH_KM. */
function reachBoundKm(step: StormStep): number {
  return Math.max(step.profile.rmKm, MAX_REACH_KM + 5);
}

/** A footprint being accumulated: the peak gust per grid cell, and the cells touched (in the order first touched). */
export interface GustPeaks {
  peak: Float32Array;
  touched: number[];
}

/** An empty accumulation, with a grid of its own (the one-storm path below reuses a per-process one). */
export function newGustPeaks(): GustPeaks {
  return { peak: new Float32Array(GRID_ROWS * GRID_COLS), touched: [] };
}

/**
 * Raises `into`'s peaks to those of `steps`: the peak is a maximum over steps, so a storm's steps may be
 * added in parts (tracks sharing their first steps share those steps' peaks: event-loss ensembles).
 */
export function addGustSteps(
  into: GustPeaks,
  steps: Iterable<StormStep>,
  grid: LandGrid,
  thresholdMph = FIRST_EDGE_MPH,
  only?: GustCells,
): void {
  const { peak, touched } = into;
  const factor = gustFactorOf(grid);
  // With `only`, the loop below visits just those cells: each cell's peak is its own, whatever else is visited.
  const runs = only?.runs ?? landRunsOf(grid);
  const rowFirst = only?.row0 ?? 0;
  const rowLast = only?.row1 ?? GRID_ROWS - 1;
  for (const step of steps) {
    // Far from the grid (or from every cell of `only`): skipped before the reach's own walk out from Rm.
    if (missesGrid(step, reachBoundKm(step))) continue;
    if (only && !nearAny(only, step, reachBoundKm(step))) continue;
    const reach = reachKm(step, thresholdMph);
    if (reach === 0 || missesGrid(step, reach)) continue;
    const dLat = reach / KM_PER_DEG;
    const r0 = Math.max(rowFirst, Math.floor((step.lat - dLat - GRID_SOUTH) / GRID_DEG));
    const r1 = Math.min(rowLast, Math.floor((step.lat + dLat - GRID_SOUTH) / GRID_DEG));
    const [be, bn] = backgroundFlow(step);
    const table = profileTable(reach);
    for (let r = r0; r <= r1; r++) {
      const lat = GRID_SOUTH + (r + 0.5) * GRID_DEG;
      const kmPerDegLng = Math.cos((lat * Math.PI) / 180) * KM_PER_DEG;
      const dy = (lat - step.lat) * KM_PER_DEG;
      const half = Math.sqrt(Math.max(0, reach * reach - dy * dy)) / kmPerDegLng;
      const c0 = Math.max(0, Math.floor((step.lng - half - GRID_WEST) / GRID_DEG));
      const c1 = Math.min(GRID_COLS - 1, Math.floor((step.lng + half - GRID_WEST) / GRID_DEG));
      const base = r * GRID_COLS;
      for (let run = runs.runStart[r]; run < runs.runStart[r + 1] && runs.from[run] <= c1; run++) {
        const to = Math.min(c1, runs.to[run]);
        for (let c = Math.max(c0, runs.from[run]); c <= to; c++) {
          const k = base + c;
          const dx = (GRID_WEST + (c + 0.5) * GRID_DEG - step.lng) * kmPerDegLng;
          const r = Math.sqrt(dx * dx + dy * dy);
          let e = be;
          let n = bn;
          if (r > 0) {
            const x = r / TABLE_KM;
            const i = Math.floor(x);
            if (i + 1 >= table.length) continue;
            const t0 = tableEntry(table, i, step);
            const v = (t0 + (tableEntry(table, i + 1, step) - t0) * (x - i)) / r;
            // Counter-clockwise tangential wind (−dy, dx)·v/r plus the background flow (point-wind.ts).
            e += -dy * v;
            n += dx * v;
          }
          const g = Math.sqrt(e * e + n * n) * factor[k];
          if (g > peak[k]) {
            if (peak[k] === 0) touched.push(k);
            peak[k] = g;
          }
        }
      }
    }
  }
}

/** The footprint of what `from` has accumulated: the cells at or above the threshold, in areaperil order. */
export function gustFootprintOf(from: GustPeaks, thresholdMph = FIRST_EDGE_MPH): PeakGustFootprint {
  const { peak } = from;
  const touched = [...from.touched].sort((a, b) => a - b);
  const ids: number[] = [];
  const gusts: number[] = [];
  for (let j = 0; j < touched.length; j++) {
    const k = touched[j];
    // A cell is listed again only if a gust too small for a float32 left it at 0: once is enough.
    if (j > 0 && k === touched[j - 1]) continue;
    if (peak[k] >= thresholdMph) {
      ids.push(areaperilId(Math.floor(k / GRID_COLS), k % GRID_COLS));
      gusts.push(peak[k]);
    }
  }
  return { areaperils: Uint32Array.from(ids), gustMph: Float32Array.from(gusts) };
}

/** `into` made a copy of `from` (its grid reused: a footprint per ensemble member costs no new grid). */
export function copyGustPeaks(from: GustPeaks, into: GustPeaks): GustPeaks {
  for (const k of into.touched) into.peak[k] = 0;
  for (const k of from.touched) into.peak[k] = from.peak[k];
  into.touched = [...from.touched];
  return into;
}

/** The track's footprint; with `only`, the same rows on those cells and none elsewhere. */
export function peakGustFootprint(
  track: Track,
  grid: LandGrid,
  thresholdMph = FIRST_EDGE_MPH,
  only?: GustCells,
): PeakGustFootprint {
  const acc: GustPeaks = { peak: (scratch ??= new Float32Array(GRID_ROWS * GRID_COLS)), touched: [] };
  addGustSteps(acc, stormSteps(track), grid, thresholdMph, only);
  const out = gustFootprintOf(acc, thresholdMph);
  for (const k of acc.touched) acc.peak[k] = 0;
  return out;
}
