/**
 * The CSV variant of the USGS summary feeds (and of ComCat `format=csv`): a header row
 * time,latitude,longitude,depth,mag,magType,nst,gap,dmin,rms,net,id,updated,place,type,... then one row
 * per event, times as ISO 8601 UTC. Parsed with csv-parse (quoted places contain commas).
 */
import { parse } from 'csv-parse/sync';
import type { UsgsQuake } from './usgs-record.js';

/** The columns we read; a header lacking any of them is not this format. */
export const USGS_CSV_REQUIRED = ['time', 'latitude', 'longitude', 'depth', 'mag', 'id', 'updated', 'place'] as const;

/** True when the first line is a USGS CSV header (cheap: no parse of the body). */
export function looksLikeUsgsCsv(body: string): boolean {
  const end = body.indexOf('\n');
  const header = (end < 0 ? body : body.slice(0, end)).replace(/^\uFEFF/, '').trim();
  const columns = new Set(header.split(','));
  return USGS_CSV_REQUIRED.every((c) => columns.has(c));
}

const num = (s: string | undefined): number | null => {
  if (s === undefined || s === '') return null;
  const n = Number(s);
  return Number.isFinite(n) ? n : null;
};
const str = (s: string | undefined): string | null => (s === undefined || s === '' ? null : s);

export function parseUsgsCsv(body: string): UsgsQuake[] {
  const rows = parse(body, { columns: true, skip_empty_lines: true, bom: true, relax_column_count: true }) as Array<
    Record<string, string>
  >;
  return rows.map((r) => ({
    id: r.id ?? '',
    mag: num(r.mag),
    magType: str(r.magType),
    timeMs: Date.parse(r.time),
    updatedMs: Date.parse(r.updated),
    lat: num(r.latitude) ?? NaN,
    lng: num(r.longitude) ?? NaN,
    depthKm: num(r.depth),
    place: str(r.place),
    type: str(r.type),
    status: str(r.status),
    url: null,
    title: null,
    net: str(r.net),
    nst: num(r.nst),
    gapDeg: num(r.gap),
    dminDeg: num(r.dmin),
    rms: num(r.rms),
    extra: {
      horizontal_error_km: num(r.horizontalError),
      depth_error_km: num(r.depthError),
      mag_error: num(r.magError),
      mag_nst: num(r.magNst),
      location_source: str(r.locationSource),
      mag_source: str(r.magSource),
    },
  }));
}
