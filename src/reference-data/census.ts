/**
 * 2020 Census county centres of population (CenPop2020_Mean_CO.txt: STATEFP, COUNTYFP, COUNAME, STNAME,
 * POPULATION, LATITUDE, LONGITUDE). We use them for county population (exposure), for the
 * population-weighted national percentiles, and as the points validation scores counties at.
 */
import { parse } from 'csv-parse/sync';

export interface PopulationCentre {
  fips: string; // 5 digits
  county: string;
  state: string;
  population: number;
  lat: number;
  lng: number;
}

export function parseCenPop(text: string): PopulationCentre[] {
  const rows = parse(text, { columns: true, skip_empty_lines: true, trim: true }) as Record<string, string>[];
  return rows
    .map((r) => ({
      fips: r.STATEFP.padStart(2, '0') + r.COUNTYFP.padStart(3, '0'),
      county: r.COUNAME,
      state: r.STNAME,
      population: Number(r.POPULATION),
      lat: Number(r.LATITUDE),
      lng: Number(r.LONGITUDE),
    }))
    .sort((a, b) => a.fips.localeCompare(b.fips));
}
