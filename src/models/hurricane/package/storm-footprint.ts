/**
 * One storm's rows of the package footprint: the bin of its peak gust on every land cell it brings to
 * 40 mph (probability 1: the gust's spread is in the vulnerability), then the bin of its peak surge height
 * on every near-coast cell it floods, under the surge areaperils. The package build writes these rows for
 * every storm of its catalog; a historical storm's one-event footprint (the loss checks) is the same rows
 * for its recorded track, so a storm of the record and one of the catalog are footprinted by one code.
 */
import { binOfGust, FIRST_EDGE_MPH } from '../domain/intensity-bins.js';
import { GRID_COLS, cellOfAreaperil, type LandGrid } from '../domain/footprint/grid.js';
import {
  addGustSteps,
  copyGustPeaks,
  gustCellsOf,
  gustFootprintOf,
  newGustPeaks,
  peakGustFootprint,
  type GustCells,
  type PeakGustFootprint,
} from '../domain/footprint/peak-gust.js';
import type { Track } from '../domain/track.js';
import {
  addSurgeSteps,
  MIN_HEIGHT_M,
  newSurgePeaks,
  surgeHeightsForTrack,
  surgeCellsOf,
  surgeHeightsOf,
  type SurgeCells,
  type SurgeHeights,
} from '../domain/surge/surge-heights.js';
import type { GradientProfile } from '../domain/wind-field/holland.js';
import { stormSteps, type StormStep } from '../domain/wind-field/storm-steps.js';
import { SURGE_FIRST_BIN_ID, surgeAreaperil, surgeBinId } from '../domain/surge/surge-bins.js';

export interface StormFootprint {
  /** 12-byte rows (uint32 areaperil_id, int32 intensity_bin_id, float32 probability), ascending areaperil. */
  rows: Buffer;
  windRows: number;
  surgeRows: number;
}

/**
 * The storm's footprint rows. When `reach` is given, each cell's highest wind bin and highest surge bin
 * (1-based within the surge bins) are raised to this storm's: the package's record of which cells its
 * catalog reaches.
 */
export function stormFootprint(track: Track, grid: LandGrid, reach?: Reach, only?: FootprintCells): StormFootprint {
  return footprintRows(
    peakGustFootprint(track, grid, FIRST_EDGE_MPH, only?.gust),
    surgeHeightsForTrack(track, grid, only?.surge),
    reach,
  );
}

/**
 * Some cells of the grid, for footprints read only there (a small book's: the kernel reads a footprint on
 * its items' areaperils alone, and the keys lookup the package's reach on its locations' cells alone).
 * stormFootprint restricted to them gives the rows, and raises the reach, that the whole grid's footprint
 * gives on those cells, and none elsewhere: each cell's peak gust and surge are its own maxima over the
 * storm's steps, from its own distance to each step, and no cell's value depends on another's.
 */
export interface FootprintCells {
  gust: GustCells;
  surge: SurgeCells;
}

/** FootprintCells of the grid cells `cells` (row·GRID_COLS + col). */
export function footprintCellsOf(grid: LandGrid, cells: Iterable<number>): FootprintCells {
  const list = [...cells];
  return { gust: gustCellsOf(grid, list), surge: surgeCellsOf(grid, list) };
}

/**
 * stormFootprint of each track, in order, for tracks that share their first steps (a live storm's
 * ensemble: every member is the observed track, then a forecast of its own). Wind and surge peaks are
 * maxima over a track's steps, so the steps every track shares (equal in every field) are footprinted once
 * and each track adds only its own: the rows are those stormFootprint gives each track alone. Yields one
 * track's rows at a time (a server yields to its requests between them).
 */
export function* stormFootprints(tracks: readonly Track[], grid: LandGrid, reach?: Reach): Generator<StormFootprint> {
  let next = 0;
  for (const [, fp] of claimedFootprints(tracks, grid, () => next++, reach)) yield fp;
}

/**
 * stormFootprints of the tracks `claim` hands out (their indices, ascending; one at or past the last track
 * ends it), each with its index: threads sharing one counter split an ensemble or a catalog between them,
 * and every track's rows are the same whichever thread made them. With `shareSteps` (an ensemble) each
 * thread footprints the shared steps itself; without (a catalog, whose storms share none) each track is
 * footprinted alone, its steps made when it is claimed. `surge` false: the wind rows alone (a book no
 * location of which the surge keys can place: the surge rows would reach no item).
 */
export function* claimedFootprints(
  tracks: readonly Track[],
  grid: LandGrid,
  claim: () => number,
  reach?: Reach,
  o: { shareSteps?: boolean; surge?: boolean } = {},
): Generator<[number, StormFootprint]> {
  const surge = o.surge !== false;
  if (o.shareSteps === false) {
    for (let t = claim(); t < tracks.length; t = claim()) {
      const track = tracks[t];
      yield [t, footprintRows(peakGustFootprint(track, grid), surge ? surgeHeightsForTrack(track, grid) : NO_SURGE, reach)];
    }
    return;
  }
  const steps = tracks.map((t) => stormSteps(t));
  const shared = sharedSteps(steps);
  const gust = newGustPeaks();
  addGustSteps(gust, steps[0]?.slice(0, shared) ?? [], grid);
  const sharedSurge = newSurgePeaks(grid);
  if (surge) addSurgeSteps(sharedSurge, steps[0]?.slice(0, shared) ?? [], grid, true, MIN_HEIGHT_M);
  const gustWork = newGustPeaks();
  const surgeWork = new Float64Array(sharedSurge.length);
  for (let t = claim(); t < steps.length; t = claim()) {
    const own = steps[t];
    copyGustPeaks(gust, gustWork);
    addGustSteps(gustWork, own.slice(shared), grid);
    if (!surge) {
      yield [t, footprintRows(gustFootprintOf(gustWork), NO_SURGE, reach)];
      continue;
    }
    surgeWork.set(sharedSurge);
    addSurgeSteps(surgeWork, own.slice(shared), grid, true, MIN_HEIGHT_M);
    yield [t, footprintRows(gustFootprintOf(gustWork), surgeHeightsOf(surgeWork, grid), reach)];
  }
}

const NO_SURGE: SurgeHeights = { areaperils: new Uint32Array(0), heightM: new Float32Array(0) };

/** Builds the grid's per-cell tables the footprints read (once per grid): a thread can make them before its tracks arrive. */
export function prepareFootprintTables(grid: LandGrid): void {
  addGustSteps(newGustPeaks(), [], grid);
  addSurgeSteps(newSurgePeaks(grid), [], grid);
}

/** How many first steps every track has, equal in every field (its position, motion, intensity and profile). */
function sharedSteps(steps: StormStep[][]): number {
  if (steps.length === 0) return 0;
  let n = Math.min(...steps.map((s) => s.length));
  for (const other of steps.slice(1)) {
    let i = 0;
    while (i < n && sameStep(steps[0][i], other[i])) i++;
    n = i;
  }
  return n;
}

/**
 * The fields of a step and of its profile, each a number; listed in a Record so that a field added to either
 * type must be added here (a step's equality is field by field, and tens of thousands of steps are compared).
 */
const STEP_FIELDS = Object.keys({
  lat: 0,
  lng: 0,
  vEastMs: 0,
  vNorthMs: 0,
  vmaxMs: 0,
} satisfies Record<Exclude<keyof StormStep, 'profile'>, 0>) as Exclude<keyof StormStep, 'profile'>[];
const PROFILE_FIELDS = Object.keys({ rmKm: 0, b: 0, deltaPPa: 0, f: 0 } satisfies Record<keyof GradientProfile, 0>) as (keyof GradientProfile)[];

function sameStep(a: StormStep, b: StormStep): boolean {
  return (
    STEP_FIELDS.every((k) => Object.is(a[k], b[k])) && PROFILE_FIELDS.every((k) => Object.is(a.profile[k], b.profile[k]))
  );
}

/** Per grid cell, the highest wind bin and the highest surge bin (1-based within the surge bins) reached. */
export type Reach = { wind: Uint8Array; surge: Uint8Array };

function footprintRows(fp: PeakGustFootprint, surge: SurgeHeights, reach?: Reach): StormFootprint {
  const n = fp.areaperils.length;
  const m = surge.areaperils.length;
  const b = Buffer.alloc((n + m) * 12);
  for (let i = 0; i < n; i++) {
    const bin = binOfGust(fp.gustMph[i]);
    b.writeUInt32LE(fp.areaperils[i], i * 12);
    b.writeInt32LE(bin, i * 12 + 4);
    b.writeFloatLE(1, i * 12 + 8);
    if (reach) {
      const { row, col } = cellOfAreaperil(fp.areaperils[i]);
      const cell = row * GRID_COLS + col;
      if (bin > reach.wind[cell]) reach.wind[cell] = bin;
    }
  }
  // Surge rows after the wind's: their areaperils are all higher, so the event's rows stay in areaperil order.
  for (let i = 0; i < m; i++) {
    const bin = surgeBinId(surge.heightM[i]);
    const at12 = (n + i) * 12;
    b.writeUInt32LE(surgeAreaperil(surge.areaperils[i]), at12);
    b.writeInt32LE(bin, at12 + 4);
    b.writeFloatLE(1, at12 + 8);
    if (reach) {
      const { row, col } = cellOfAreaperil(surge.areaperils[i]);
      const cell = row * GRID_COLS + col;
      const s = bin - SURGE_FIRST_BIN_ID + 1;
      if (s > reach.surge[cell]) reach.surge[cell] = s;
    }
  }
  return { rows: b, windRows: n, surgeRows: m };
}
