/**
 * NWS flood categories per USGS gauge, from the committed table data/flood-stages.csv (built by
 * scripts/build-flood-stages.ts from the NWPS all-gauges report). Read lazily once per process.
 * Ids are compared with leading zeros stripped: the report lost leading zeros (a spreadsheet round
 * trip), and for 9-digit ids we cannot tell whether a zero is missing, so "0165258890" from NWIS and
 * "165258890" in the table are the same gauge.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FloodStages } from '../../domain/event.js';
import { FLOOD_STAGES_HEADER } from './flood-stages-build.js';

export interface GaugeStages {
  usgsId: string;
  lid: string;
  stages: FloodStages;
}

let table: Map<string, GaugeStages> | null = null;

/** The NWS flood categories of a USGS site number, or null when the NWS defines none for it. */
export function floodStagesOf(usgsSite: string): GaugeStages | null {
  table ??= loadTable(floodStagesPath());
  return table.get(key(usgsSite)) ?? null;
}

const key = (id: string) => id.trim().replace(/^0+/, '');

/** data/flood-stages.csv, found from this module both in src/ (tests) and dist/src/ (built). */
export function floodStagesPath(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    const p = path.join(dir, 'data', 'flood-stages.csv');
    if (existsSync(p)) return p;
    dir = path.dirname(dir);
  }
  throw new Error('data/flood-stages.csv not found; rebuild it with scripts/build-flood-stages.ts');
}

export function loadTable(file: string): Map<string, GaugeStages> {
  const lines = readFileSync(file, 'utf8').split('\n');
  if (lines[0].trim() !== FLOOD_STAGES_HEADER)
    throw new Error(`${file}: unexpected header; rebuild it with scripts/build-flood-stages.ts`);
  const out = new Map<string, GaugeStages>();
  for (const line of lines.slice(1)) {
    if (!line.trim()) continue;
    const [usgsId, lid, a, f, m, j] = line.split(',');
    const num = (s: string | undefined) => (s && s.trim() !== '' && Number.isFinite(Number(s)) ? Number(s) : null);
    out.set(key(usgsId), {
      usgsId,
      lid,
      stages: { actionFt: num(a), floodFt: num(f), moderateFt: num(m), majorFt: num(j) },
    });
  }
  return out;
}
