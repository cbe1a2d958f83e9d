/**
 * Hospitals for the briefing map while GET /infrastructure does not answer: the HIFLD hospitals file
 * (Homeland Infrastructure Foundation-Level Data, hifld_hospitals.csv, open facilities only) from the shared
 * public data directory (CATINTEL_SHARED_DATA, default ../shared/data beside the package), read once per
 * process. Absent file: the map says hospitals are not available.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { packageRoot } from '../lib/package-root.js';
import type { Hospital } from './domain/inputs.js';

export const HIFLD_HOSPITALS = 'infrastructure/hifld_hospitals.csv';

const cache = new Map<string, Hospital[] | null>();

export function hifldHospitals(env: Record<string, string | undefined> = {}): { list: Hospital[]; file: string } | null {
  const dir = env.CATINTEL_SHARED_DATA || path.join(packageRoot(), '..', 'shared', 'data');
  const file = path.join(dir, HIFLD_HOSPITALS);
  if (!cache.has(file)) {
    let list: Hospital[] | null = null;
    if (fs.existsSync(file)) {
      const rows = parse(fs.readFileSync(file), { columns: true, bom: true, skip_empty_lines: true, relax_column_count: true }) as Record<string, string>[];
      list = rows
        .filter((r) => r.STATUS === 'OPEN')
        .map((r) => ({ name: r.NAME, city: r.CITY, lat: Number(r.LATITUDE), lng: Number(r.LONGITUDE), beds: Number(r.BEDS) > 0 ? Number(r.BEDS) : null }))
        .filter((h) => Number.isFinite(h.lat) && Number.isFinite(h.lng));
    }
    cache.set(file, list);
  }
  const list = cache.get(file);
  return list ? { list, file: HIFLD_HOSPITALS } : null;
}
