/**
 * Builds data/infrastructure/ (format.ts), the embedded facilities of `GET /infrastructure`, event exposure and
 * scenarios, from the HIFLD files in the shared data directory (SOURCES.md §3 and §6). One facility a line,
 * ordered by kind then id, one record per facility (duplicates.ts merges HIFLD's double records); gzip at level 9 with zlib's zero mtime and no clock in meta.json, so the same inputs
 * always give the same bytes (test/intelligence-data.test.ts rebuilds and compares). Run by `make data`
 * (scripts/build-infrastructure.ts) and by `catintel data build`.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import {
  FACILITIES_FILE,
  META_FILE,
  type FacilityLine,
  type InfraKind,
  type InfraMeta,
  type KindMeta,
} from './format.js';
import { mergeDuplicates } from './duplicates.js';
import { parseFireStations, parseHospitals, parseSchools, parseUrgentCare } from './hifld.js';

const HIFLD = 'https://hifld-geoplatform.hub.arcgis.com/';

interface Spec {
  kind: InfraKind;
  file: string;
  source: string;
  parse: (text: string) => { lines: FacilityLine[]; newest: string | null };
  scope: KindMeta['scope'];
  note: string;
}

const SPECS: Spec[] = [
  {
    kind: 'hospital',
    file: 'infrastructure/hifld_hospitals.csv',
    source: 'HIFLD Open: Hospitals',
    parse: parseHospitals,
    scope: 'national',
    note: 'all US states and territories; open hospitals only (HIFLD STATUS=CLOSED left out)',
  },
  {
    kind: 'fire_station',
    file: 'infrastructure/hifld_fire_stations_OR.geojson',
    source: 'HIFLD Open: Fire Stations (Oregon extract)',
    parse: parseFireStations,
    scope: 'states',
    note: 'Oregon only: the national HIFLD fire station layer is not in the embedded data',
  },
  {
    kind: 'school',
    file: 'infrastructure/hifld_public_schools_FL.csv',
    source: 'HIFLD Open: Public Schools (Florida extract, NCES)',
    parse: parseSchools,
    scope: 'states',
    note: 'Florida public schools only: the national layer is not in the embedded data',
  },
  {
    kind: 'urgent_care',
    file: 'infrastructure/hifld_urgent_care_facilities.csv',
    source: 'HIFLD Open: Urgent Care Facilities',
    parse: parseUrgentCare,
    scope: 'national',
    note: 'national HIFLD urgent care layer (free-standing urgent care centres, not EMS stations)',
  },
];

export function buildInfrastructure(fromDir: string, outDir: string): { rows: number; kinds: Record<string, number> } {
  const all: FacilityLine[] = [];
  const kinds: KindMeta[] = [];
  const inputs: InfraMeta['inputs'] = [];
  for (const s of SPECS) {
    const p = path.join(fromDir, s.file);
    if (!fs.existsSync(p))
      throw new Error(
        `input ${s.file} not found under ${fromDir}; pass --from <dir> pointing at the shared data directory`,
      );
    const buf = fs.readFileSync(p);
    inputs.push({ path: s.file, bytes: buf.length, sha256: createHash('sha256').update(buf).digest('hex') });
    const parsed = s.parse(buf.toString('utf8'));
    const { lines, merged } = mergeDuplicates(parsed.lines);
    const newest = parsed.newest;
    lines.sort((a, b) => (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : a[5] - b[5] || a[6] - b[6]));
    all.push(...lines);
    const states = [...new Set(lines.map((l) => l[4]).filter(Boolean))].sort();
    kinds.push({
      kind: s.kind,
      source: s.source,
      source_url: HIFLD,
      file: s.file,
      ingested_at: newest,
      rows: lines.length,
      duplicates_merged: merged,
      states,
      scope: s.scope,
      note: s.note,
    });
  }
  kinds.push({
    kind: 'ems',
    source: 'none',
    source_url: HIFLD,
    file: null,
    ingested_at: null,
    rows: 0,
    duplicates_merged: 0,
    states: [],
    scope: 'none',
    note: 'no EMS station data: HIFLD EMS Stations is not in the embedded data (SOURCES.md §3 NOT FOUND)',
  });
  fs.mkdirSync(outDir, { recursive: true });
  fs.writeFileSync(
    path.join(outDir, FACILITIES_FILE),
    gzipSync(all.map((l) => JSON.stringify(l)).join('\n') + '\n', { level: 9 }),
  );
  const meta: InfraMeta = { kinds, inputs };
  fs.writeFileSync(path.join(outDir, META_FILE), JSON.stringify(meta, null, 2) + '\n');
  return { rows: all.length, kinds: Object.fromEntries(kinds.map((k) => [k.kind, k.rows])) };
}
