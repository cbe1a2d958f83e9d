/**
 * Parsers of the HIFLD Open files in ../shared/data/infrastructure (SOURCES.md §3, §6): hospitals (national,
 * CSV), urgent care facilities (national, CSV), public schools (Florida rows only, CSV) and fire stations
 * (Oregon only, GeoJSON). Each gives facilities in the embedded file's shape (format.ts); closed hospitals
 * are left out (HIFLD STATUS = CLOSED: they serve no one in an event).
 */
import { parse } from 'csv-parse/sync';
import type { FacilityLine, InfraKind } from './format.js';

type Row = Record<string, string>;

const rows = (text: string): Row[] =>
  parse(text.replace(/^\uFEFF/, ''), { columns: true, skip_empty_lines: true, relax_column_count: true }) as Row[];
const r6 = (x: number) => Math.round(x * 1e6) / 1e6;
const clean = (s: string | undefined) => (s ?? '').trim();
const numOrNull = (s: string | undefined) => {
  const n = Number(clean(s));
  return clean(s) !== '' && Number.isFinite(n) && n >= 0 ? n : null;
};
const textOrNull = (s: string | undefined) => {
  const v = clean(s);
  return v === '' || v === 'NOT AVAILABLE' ? null : v;
};

function line(
  kind: InfraKind,
  id: string,
  name: string,
  city: string,
  state: string,
  lat: number,
  lng: number,
  extra: FacilityLine[7],
): FacilityLine | null {
  if (
    !Number.isFinite(lat) ||
    !Number.isFinite(lng) ||
    Math.abs(lat) > 90 ||
    Math.abs(lng) > 180 ||
    (lat === 0 && lng === 0)
  )
    return null;
  return [kind, id, name, city, state, r6(lat), r6(lng), extra];
}

/** The newest date among the rows' values of `field` (several HIFLD date spellings), as ISO 8601 UTC. */
export function newestDate(values: string[]): string | null {
  let best: number | null = null;
  for (const v of values) {
    const m = /^(\d{4})[-/](\d{2})[-/](\d{2})/.exec(clean(v));
    if (!m) continue;
    const t = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
    if (best === null || t > best) best = t;
  }
  return best === null ? null : new Date(best).toISOString().replace('.000Z', 'Z');
}

export function parseHospitals(text: string): { lines: FacilityLine[]; newest: string | null } {
  const all = rows(text).filter((r) => clean(r.STATUS) !== 'CLOSED');
  const lines = all.map((r) =>
    line(
      'hospital',
      clean(r.ID),
      clean(r.NAME),
      clean(r.CITY),
      clean(r.STATE),
      Number(r.LATITUDE || r.Y),
      Number(r.LONGITUDE || r.X),
      {
        type: textOrNull(r.TYPE),
        beds: numOrNull(r.BEDS),
        trauma: textOrNull(r.TRAUMA),
        helipad: textOrNull(r.HELIPAD),
        county_fips: textOrNull(r.COUNTYFIPS),
        // The record's own date: of two records of one hospital (duplicates.ts), the newer is kept.
        source_date: newestDate([r.SOURCEDATE])?.slice(0, 10) ?? null,
      },
    ),
  );
  return {
    lines: lines.filter((l): l is FacilityLine => l !== null),
    newest: newestDate(all.map((r) => r.SOURCEDATE)),
  };
}

export function parseUrgentCare(text: string): { lines: FacilityLine[]; newest: string | null } {
  const all = rows(text);
  const lines = all.map((r) =>
    line('urgent_care', clean(r.OBJECTID), clean(r.NAME), clean(r.CITY), clean(r.STATE), Number(r.Y), Number(r.X), {
      county_fips: textOrNull(r.FIPS),
    }),
  );
  return {
    lines: lines.filter((l): l is FacilityLine => l !== null),
    newest: newestDate(all.flatMap((r) => [r.GEODATE, r.CONTDATE])),
  };
}

export function parseSchools(text: string): { lines: FacilityLine[]; newest: string | null } {
  const all = rows(text);
  const lines = all.map((r) =>
    line(
      'school',
      clean(r.NCESID),
      clean(r.NAME),
      clean(r.CITY),
      clean(r.STATE),
      Number(r.LATITUDE || r.Lat),
      Number(r.LONGITUDE || r.Long),
      {
        level: textOrNull(r.LEVEL_),
        enrollment: numOrNull(r.ENROLLMENT),
        county_fips: textOrNull(r.COUNTYFIPS),
      },
    ),
  );
  return {
    lines: lines.filter((l): l is FacilityLine => l !== null),
    newest: newestDate(all.map((r) => r.SOURCE_DATE)),
  };
}

interface FireFeature {
  properties: Record<string, unknown>;
  geometry: { type: string; coordinates: number[] } | null;
}

export function parseFireStations(text: string): { lines: FacilityLine[]; newest: string | null } {
  const fc = JSON.parse(text) as { features: FireFeature[] };
  const s = (v: unknown) => clean(v === null || v === undefined ? '' : String(v));
  const lines = fc.features.map((f) => {
    const c = f.geometry?.type === 'Point' ? f.geometry.coordinates : [Number(f.properties.X), Number(f.properties.Y)];
    return line(
      'fire_station',
      s(f.properties.ID),
      s(f.properties.NAME),
      s(f.properties.CITY),
      s(f.properties.STATE),
      Number(c[1]),
      Number(c[0]),
      {
        county_fips: textOrNull(s(f.properties.FIPS)),
      },
    );
  });
  return {
    lines: lines.filter((l): l is FacilityLine => l !== null),
    newest: newestDate(fc.features.flatMap((f) => [s(f.properties.GEODATE), s(f.properties.CONTDATE)])),
  };
}
