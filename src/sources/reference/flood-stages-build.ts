/**
 * Derives data/flood-stages.csv from the NOAA NWPS all-gauges report
 * (https://water.noaa.gov/resources/downloads/reports/nwps_all_gauges_report.csv; a 2025 copy is
 * ../shared/data/feeds/nwps/, SOURCES.md §6). Pure: report text in, CSV text out, byte-identical for
 * the same input. Rules (docs/sources/usgs-gauges.md):
 * - keep rows with a USGS site number and at least one defined category (-9999 or blank = undefined);
 * - the report's ids went through a spreadsheet: leading zeros are lost ("1491000") and long ids are in
 *   scientific notation ("3.9554E+14"). 7-digit ids are padded to 8 (USGS station numbers have >= 8
 *   digits); ids that are not 8-15 digits after that are unrecoverable and dropped;
 * - one row per USGS id: in-service gauges first, then the one with most categories, then lowest LID.
 */
import { parse } from 'csv-parse/sync';

export const FLOOD_STAGES_HEADER = 'usgs_id,lid,action_ft,flood_ft,moderate_ft,major_ft';

const STAGE_COLUMNS = ['action stage', 'flood stage', 'moderate flood stage', 'major flood stage'] as const;

export interface FloodStageBuildStats {
  rows: number;
  withUsgsId: number;
  badUsgsId: number;
  noStages: number;
  duplicates: number;
  kept: number;
}

interface Row {
  usgsId: string;
  lid: string;
  inService: boolean;
  stages: (number | null)[];
}

export function buildFloodStagesCsv(reportText: string): { csv: string; stats: FloodStageBuildStats } {
  const rows = parse(reportText, {
    columns: true,
    bom: true,
    skip_empty_lines: true,
    relax_column_count: true,
  }) as Record<string, string>[];
  const stats: FloodStageBuildStats = {
    rows: rows.length,
    withUsgsId: 0,
    badUsgsId: 0,
    noStages: 0,
    duplicates: 0,
    kept: 0,
  };
  const byId = new Map<string, Row>();
  for (const r of rows) {
    const raw = (r['usgs id'] ?? '').trim();
    if (!raw) continue;
    stats.withUsgsId++;
    const usgsId = normaliseUsgsId(raw);
    if (!usgsId) {
      stats.badUsgsId++;
      continue;
    }
    if ((r['flood stage unit'] ?? 'ft').trim() !== 'ft') {
      stats.noStages++;
      continue;
    }
    const stages = STAGE_COLUMNS.map((c) => stageFt(r[c]));
    if (stages.every((s) => s === null)) {
      stats.noStages++;
      continue;
    }
    const row: Row = {
      usgsId,
      lid: (r['nws shef id'] ?? '').trim(),
      inService: (r['in service'] ?? '').trim() === 'TRUE',
      stages,
    };
    const prev = byId.get(usgsId);
    if (prev) stats.duplicates++;
    if (!prev || better(row, prev)) byId.set(usgsId, row);
  }
  const lines = [...byId.values()]
    .sort((a, b) => (a.usgsId < b.usgsId ? -1 : a.usgsId > b.usgsId ? 1 : 0))
    .map((r) => [r.usgsId, r.lid, ...r.stages.map((s) => (s === null ? '' : String(s)))].join(','));
  stats.kept = lines.length;
  return { csv: [FLOOD_STAGES_HEADER, ...lines].join('\n') + '\n', stats };
}

export function normaliseUsgsId(raw: string): string | null {
  if (!/^\d+$/.test(raw)) return null;
  const id = raw.length === 7 ? `0${raw}` : raw;
  return id.length >= 8 && id.length <= 15 ? id : null;
}

function stageFt(v: string | undefined): number | null {
  const s = (v ?? '').trim();
  if (s === '') return null;
  const x = Number(s);
  return Number.isFinite(x) && x !== -9999 ? x : null;
}

function better(a: Row, b: Row): boolean {
  if (a.inService !== b.inService) return a.inService;
  const na = a.stages.filter((s) => s !== null).length;
  const nb = b.stages.filter((s) => s !== null).length;
  if (na !== nb) return na > nb;
  return a.lid < b.lid;
}
