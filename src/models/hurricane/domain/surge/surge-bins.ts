/**
 * Storm surge in the model package: its areaperils, its intensity bins and the elevation bands that carry
 * a building's height above the datum into its vulnerability.
 *
 * An Oasis footprint holds one intensity per (event, areaperil), so the footprint carries the storm's
 * surge height at the cell (m above mean sea level) and the building's own elevation enters through its
 * vulnerability: one vulnerability per (flood class, elevation band, coverage) reads each height bin at
 * depth = height − first-floor elevation. The footprint stays one row a cell whatever the buildings,
 * and a catalog ten times longer costs ten times the rows, not ten times the rows times the bands.
 *
 * - Areaperil: SURGE_AREAPERIL_BASE + the wind cell's areaperil (same 0.05° cell, its own id, so one
 *   event's wind and surge rows sit side by side in the event's footprint and never share an id).
 * - Intensity bins: after the wind's 46; surge bin s (1-based) holds heights in [(s−1)·w, s·w) with
 *   w = SURGE_BIN_M, the last holds everything at or above SURGE_TOP_M.
 * - Elevation bands: the first floor's elevation above the datum, bands of the same width from
 *   BAND_BOTTOM_M to SURGE_TOP_M; below the bottom band the bottom band, above the top the top band (a
 *   first floor at or above SURGE_TOP_M sees water only from the last height bin's rare storms).
 */
import { INTENSITY_BIN_COUNT } from '../intensity-bins.js';

export const SURGE_AREAPERIL_BASE = 1_000_000;
/** Width (m) of a surge height bin and of an elevation band: 0.25 m, under one foot (the HAZUS curves' step). */
export const SURGE_BIN_M = 0.25;
/** The top of the surge bins (m above mean sea level): above the highest US surge on record (Katrina, 8.5 m). */
export const SURGE_TOP_M = 10;
export const SURGE_BIN_COUNT = SURGE_TOP_M / SURGE_BIN_M + 1;
/** First intensity_bin_id of surge: the wind's bins come first. */
export const SURGE_FIRST_BIN_ID = INTENSITY_BIN_COUNT + 1;
/** Every intensity bin of the package, wind and surge (the footprint header's count). */
export const PACKAGE_INTENSITY_BIN_COUNT = INTENSITY_BIN_COUNT + SURGE_BIN_COUNT;
/**
 * The lowest first-floor elevation told apart (m above the datum): the lowest ground on the US Gulf and
 * Atlantic coasts (parts of New Orleans) is a few metres below sea level.
 */
export const BAND_BOTTOM_M = -4;
export const ELEVATION_BAND_COUNT = (SURGE_TOP_M - BAND_BOTTOM_M) / SURGE_BIN_M;

export function surgeAreaperil(windAreaperil: number): number {
  return SURGE_AREAPERIL_BASE + windAreaperil;
}

/** The package intensity_bin_id of a surge height (m). */
export function surgeBinId(heightM: number): number {
  const s = heightM >= SURGE_TOP_M ? SURGE_BIN_COUNT : 1 + Math.floor(Math.max(0, heightM) / SURGE_BIN_M);
  return SURGE_FIRST_BIN_ID - 1 + s;
}

/** Heights (m) a surge bin (1-based within surge) spans; the last bin is read as its lower edge plus half a bin. */
export function surgeBinRange(s: number): { fromM: number; toM: number } {
  const fromM = (s - 1) * SURGE_BIN_M;
  return { fromM, toM: s === SURGE_BIN_COUNT ? Infinity : fromM + SURGE_BIN_M };
}

/** The elevation band (0-based) of a first-floor elevation (m above the datum), clamped to the bands. */
export function elevationBand(elevationM: number): number {
  return Math.min(ELEVATION_BAND_COUNT - 1, Math.max(0, Math.floor((elevationM - BAND_BOTTOM_M) / SURGE_BIN_M)));
}

export function elevationBandRange(band: number): { fromM: number; toM: number } {
  const fromM = BAND_BOTTOM_M + band * SURGE_BIN_M;
  return { fromM, toM: fromM + SURGE_BIN_M };
}

/** intensity_bin_dict.csv rows of the surge bins (bin_from, bin_to in metres; 999 for the open top). */
export function surgeIntensityBinDictRows(): string[] {
  const rows: string[] = [];
  for (let s = 1; s <= SURGE_BIN_COUNT; s++) {
    const { fromM, toM } = surgeBinRange(s);
    const mid = toM === Infinity ? fromM + SURGE_BIN_M / 2 : (fromM + toM) / 2;
    rows.push(`${SURGE_FIRST_BIN_ID - 1 + s},${fromM},${toM === Infinity ? 999 : toM},${mid},1201`);
  }
  return rows;
}
