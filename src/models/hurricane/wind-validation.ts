/**
 * The wind model against history, shared by scripts/validate-hurricane-winds.ts (which writes the
 * "Hurricane winds" section of docs/validation.md) and the tests:
 *  - return-period gusts at ten coastal cities from the HURDAT2 record 1900–2024, each storm 1/125 per
 *    year, next to ASCE 7 basic wind speeds (Risk Category II: the 700-year 3-s gust at 10 m, Exposure C)
 *    where a value is cited, blank where not;
 *  - the modelled peak gust at named places of recorded landfalls next to the observations cited.
 */
import { cellOf, GRID_COLS, type LandGrid } from './domain/footprint/grid.js';
import { gustAtReturnPeriod, hazardCurve, type Site } from './domain/hazard-curve.js';
import type { Track } from './domain/track.js';
import { sitePeakGustMph } from './domain/wind-field/point-wind.js';
import { stormSteps } from './domain/wind-field/storm-steps.js';

export const HISTORY_FROM = 1900;
export const HISTORY_TO = 2024;
export const HISTORY_RATE = 1 / (HISTORY_TO - HISTORY_FROM + 1);

export interface City {
  name: string;
  lat: number;
  lng: number;
  /** ASCE 7 Risk Category II basic wind speed (mph) and its source, when we can cite one. */
  asce7Mph?: number;
  asce7Source?: string;
}

/**
 * Ten coastal cities from Texas to New England. A reference is given only where a published design value
 * for the city could be cited; the others are blank (the mapped values are read from the ASCE Hazard
 * Tool or the standard's figures, which we do not have in a citable form, and a remembered contour is
 * not a reference). Houston's is the city's own design criterion, taken from the ASCE 7 Risk Category II
 * map of the edition its code adopted.
 */
export const COASTAL_CITIES: City[] = [
  { name: 'Miami, FL', lat: 25.7743, lng: -80.1937 },
  { name: 'Tampa, FL', lat: 27.9506, lng: -82.4572 },
  { name: 'Pensacola, FL', lat: 30.4213, lng: -87.2169 },
  { name: 'New Orleans, LA', lat: 29.9511, lng: -90.0715 },
  { name: 'Houston, TX', lat: 29.7604, lng: -95.3698, asce7Mph: 139, asce7Source: 'City of Houston Public Works, Building Code Design Criteria (form CE-1110, rev. 09/2017): Risk Category II V_ult, ASCE 7-10 map' },
  { name: 'Corpus Christi, TX', lat: 27.8006, lng: -97.3964 },
  { name: 'Charleston, SC', lat: 32.7765, lng: -79.9311 },
  { name: 'Norfolk, VA', lat: 36.8508, lng: -76.2859 },
  { name: 'New York, NY', lat: 40.7128, lng: -74.006 },
  { name: 'Boston, MA', lat: 42.3601, lng: -71.0589 },
];

/** A site on the wind grid: its distance inland from the cell it falls in (0, over water, off the land mask). */
export function siteOf(grid: LandGrid, lat: number, lng: number): Site {
  const c = cellOf(lat, lng);
  const k = c ? c.row * GRID_COLS + c.col : -1;
  const inlandKm = k >= 0 && grid.land[k] ? grid.inlandKm[k] : 0;
  return { lat, lng, inlandKm: Number.isFinite(inlandKm) ? inlandKm : 1e6 };
}

export interface CityRow {
  city: City;
  storms: number;
  /** The 50-year gust read from the record itself (no fit). */
  gust50: number | null;
  gust100: number | null;
  gust700: number | null;
  method: string;
}

export function cityReturnPeriods(tracks: Track[], grid: LandGrid, cities = COASTAL_CITIES): CityRow[] {
  return cities.map((city) => {
    const curve = hazardCurve(tracks, HISTORY_RATE, siteOf(grid, city.lat, city.lng));
    const r50 = gustAtReturnPeriod(curve, 50);
    const r100 = gustAtReturnPeriod(curve, 100);
    const r700 = gustAtReturnPeriod(curve, 700);
    return { city, storms: curve.peaks.length, gust50: r50.gustMph, gust100: r100.gustMph, gust700: r700.gustMph, method: [...new Set([r100.method, r700.method])].join(', ') };
  });
}

export interface LandfallCheck {
  storm: string;
  parentId: string;
  place: string;
  lat: number;
  lng: number;
  /** The cited observation (mph) and what it is, when one is cited. */
  observedMph?: number;
  observed?: string;
}

/**
 * Named places of three landfalls, with the station gusts the official summaries report. Andrew: the NHC
 * report (Rappaport 1993, as NOAA's summary of it gives it) has a 177 mph gust at a private home in
 * Perrine before the instrument failed, and 164 mph at the NHC building (Coral Gables, 40 m up);
 * Homestead's own instruments were destroyed. Katrina: the National Weather Service's post-storm summary
 * gives 135 mph at the Pearl River County EOC in Poplarville, MS (before the instrument failed) and
 * 114 mph at Ellisville, MS, the highest inland. Ian: NHC's Tropical Cyclone Update of 7 PM EDT
 * 28 September 2022 reports a private station near Port Charlotte with a 132 mph gust at landfall.
 * Exposure and height of these instruments are not open terrain at 10 m for certain, so they are a check
 * of the order, not a calibration target.
 */
export const LANDFALL_CHECKS: LandfallCheck[] = [
  { storm: 'Andrew 1992', parentId: 'AL041992', place: 'Perrine, FL', lat: 25.605, lng: -80.353, observedMph: 177, observed: 'gust at a private home, instrument failed (NHC report)' },
  { storm: 'Andrew 1992', parentId: 'AL041992', place: 'Homestead, FL', lat: 25.4687, lng: -80.4776 },
  { storm: 'Katrina 2005', parentId: 'AL122005', place: 'Buras, LA', lat: 29.35, lng: -89.53 },
  { storm: 'Katrina 2005', parentId: 'AL122005', place: 'Bay St. Louis, MS', lat: 30.3088, lng: -89.33 },
  { storm: 'Katrina 2005', parentId: 'AL122005', place: 'Poplarville, MS', lat: 30.84, lng: -89.534, observedMph: 135, observed: 'Pearl River County EOC, instrument failed (NWS summary)' },
  { storm: 'Katrina 2005', parentId: 'AL122005', place: 'Ellisville, MS', lat: 31.604, lng: -89.196, observedMph: 114, observed: 'highest inland Mississippi gust (NWS summary)' },
  { storm: 'Ian 2022', parentId: 'AL092022', place: 'Port Charlotte, FL', lat: 26.976, lng: -82.09, observedMph: 132, observed: 'private station at landfall (NHC update, 7 PM EDT 28 Sep 2022)' },
  { storm: 'Ian 2022', parentId: 'AL092022', place: 'Punta Gorda, FL', lat: 26.9298, lng: -82.0454 },
  { storm: 'Ian 2022', parentId: 'AL092022', place: 'Fort Myers, FL', lat: 26.6406, lng: -81.8723 },
];

export function landfallGustMph(track: Track, grid: LandGrid, lat: number, lng: number): number {
  const s = siteOf(grid, lat, lng);
  return sitePeakGustMph(stormSteps(track), s.lat, s.lng, s.inlandKm);
}

