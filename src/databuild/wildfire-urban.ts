/**
 * Wildfire in dense urban fabric: the burn probability of a built-up cell is the one its buildings see,
 * not the rate of the wildland that shares the cell (the Everglades burn inside Hialeah's 0.25° cell).
 *
 * Where the buildings are: public facilities (HIFLD hospitals, local law enforcement and urgent-care
 * locations, about 36,000 points over the US), which stand where people live. In a cell of dense urban
 * fabric holding at least MIN_BUILDINGS of them, each building sees Σ over fires of the ember exposure
 * exp(−x / EMBER_DECAY_KM) at x km from the fire's point of origin, out to EMBER_REACH_KM, divided by the
 * record years; the cell's annual burn probability is the median building's (the typical point of the
 * cell's built-up part: a score is read at a point, and one facility on the Everglades edge must not set
 * Hialeah's; the cell's wildland fringe sees more, which a 0.25° grid cannot place). The point of origin
 * marks wildland; dense urban fabric does not carry a fire front, so what reaches it from a fire is embers
 * [judgement: the fires of these cells burned away from the built-up side: the Everglades fires west of
 * Hialeah, hundreds of km² each, destroyed no structure]. Elsewhere the cell keeps the smoothed burn
 * probability of wildfire.ts, which is what a building placed in that wildland would see.
 *
 * Dense urban fabric: an urban-core cell of wildfire.ts (inside a dense county's urban disk) whose own
 * county is that dense too, and where no fire of the record that started in the cell destroyed a
 * structure. A fire that burned buildings is the evidence that the cell's buildings meet its wildland:
 * that is interface WUI in Radeloff's sense (the Santa Monica Mountains above Malibu and the Palisades,
 * Woolsey 2018; the San Gabriel front above Altadena, Santa Anita 2008), which keeps the wildland rate.
 */
import { parse } from 'csv-parse/sync';
import type { CellQuery } from '../reference-data/cell-query.js';
import { flatDistanceKm } from '../reference-data/cell-query.js';
import type { CleanFire } from './wildfire-clean.js';

/**
 * How far embers carry a fire into built-up land: 2.4 km (1.5 miles), the distance Radeloff et al. (2005,
 * Ecological Applications 15:799, "The wildland-urban interface in the United States") use for the
 * interface WUI, after the California Fire Alliance (2001): houses within 2.4 km of a wildland block of
 * 5 km² or more that is at least 75 % vegetated. Kept by Radeloff et al. (2018, PNAS 115:3314).
 */
export const EMBER_REACH_KM = 2.4;
/** e-folding distance of ember exposure: 5 % of it is left at the 2.4 km reach [judgement]. */
export const EMBER_DECAY_KM = EMBER_REACH_KM / 3;
/** Fewer facilities than this say too little about where a cell's buildings are [judgement]. */
export const MIN_BUILDINGS = 3;
/** A covered cell's centre is within about 18 km of any point inside it (half the diagonal of 0.25°). */
const CELL_HALF_DIAGONAL_KM = 18;

export interface Building {
  lat: number;
  lng: number;
}

/** Points of one HIFLD CSV: LATITUDE/LONGITUDE where given, else the X (longitude), Y (latitude) columns. */
export function parseFacilityPoints(text: string): Building[] {
  const rows = parse(text.replace(/^\uFEFF/, ''), {
    columns: true,
    skip_empty_lines: true,
    relax_column_count: true,
  }) as Record<string, string>[];
  const out: Building[] = [];
  for (const r of rows) {
    const lat = Number(r.LATITUDE ?? r.Y);
    const lng = Number(r.LONGITUDE ?? r.X);
    if (Number.isFinite(lat) && Number.isFinite(lng) && !(lat === 0 && lng === 0)) out.push({ lat, lng });
  }
  return out;
}

/** Ember exposure of a building x km from a fire's point of origin: 1 there, 0 beyond EMBER_REACH_KM. */
export function emberExposure(x: number): number {
  return x > EMBER_REACH_KM ? 0 : Math.exp(-x / EMBER_DECAY_KM);
}

function median(xs: Float64Array): number {
  const s = Float64Array.from(xs).sort();
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

export interface UrbanBurn {
  /** Per cell: the building-weighted burn probabilities, NaN where the rule does not apply. */
  lambdaDamaging: Float64Array;
  lambdaSevere: Float64Array;
  cells: number;
}

/**
 * The building-weighted annual burn probability of every dense-urban cell (`urbanFactor` 0, and no fire
 * starting there destroyed a structure) holding at least MIN_BUILDINGS facilities; `cellOf` maps a point
 * to its covered cell (-1 outside).
 */
export function urbanBurnProbability(
  fires: readonly CleanFire[],
  buildings: readonly Building[],
  query: CellQuery,
  urbanFactor: Float64Array,
  cellOf: (lat: number, lng: number) => number,
  years: number,
): UrbanBurn {
  const n = urbanFactor.length;
  const interfaceCells = new Set<number>();
  for (const f of fires) if (f.structuresDestroyed >= 1) interfaceCells.add(cellOf(f.lat, f.lng));
  const byCell = new Map<number, Building[]>();
  for (const b of buildings) {
    const cell = cellOf(b.lat, b.lng);
    if (cell < 0 || urbanFactor[cell] !== 0 || interfaceCells.has(cell)) continue;
    const list = byCell.get(cell) ?? [];
    list.push(b);
    byCell.set(cell, list);
  }
  for (const [cell, list] of byCell) if (list.length < MIN_BUILDINGS) byCell.delete(cell);
  const dmg = new Float64Array(n).fill(NaN);
  const sev = new Float64Array(n).fill(NaN);
  // Per building, in the order of byCell's lists.
  const sumD = new Map([...byCell].map(([cell, list]) => [cell, new Float64Array(list.length)]));
  const sumS = new Map([...byCell].map(([cell, list]) => [cell, new Float64Array(list.length)]));
  for (const f of fires) {
    query.within(f.lat, f.lng, EMBER_REACH_KM + CELL_HALF_DIAGONAL_KM, (cell) => {
      const list = byCell.get(cell);
      if (!list) return;
      const d = sumD.get(cell)!;
      const s = sumS.get(cell)!;
      list.forEach((b, k) => {
        const e = emberExposure(flatDistanceKm(f.lat, f.lng, b.lat, b.lng));
        d[k] += e;
        if (f.structuresDestroyed >= 1) s[k] += e;
      });
    });
  }
  for (const cell of byCell.keys()) {
    dmg[cell] = median(sumD.get(cell)!) / years;
    sev[cell] = median(sumS.get(cell)!) / years;
  }
  return { lambdaDamaging: dmg, lambdaSevere: sev, cells: byCell.size };
}
