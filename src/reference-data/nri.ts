/**
 * FEMA National Risk Index v1.20 (December 2025) state table and hazard list (SOURCES.md §2). The shared
 * county table is a summary subset without per-hazard columns, so per-hazard values are state-level:
 * <HZ>_EVNTS (recorded events), <HZ>_EXP_AREA (exposed area, sq mi), AREA (sq mi) and the expected
 * annual loss rates <HZ>_ALRB / _ALRP / _ALRA (buildings / population / agriculture, per year).
 */
import { parse } from 'csv-parse/sync';

export type NriState = Record<string, string> & { STATEFIPS: string; STATEABBRV: string };

export function parseNriStates(text: string): Map<string, NriState> {
  const rows = parse(text, { columns: true, skip_empty_lines: true }) as NriState[];
  const out = new Map<string, NriState>();
  for (const r of [...rows].sort((a, b) => a.STATEFIPS.localeCompare(b.STATEFIPS)))
    out.set(r.STATEFIPS.padStart(2, '0'), r);
  return out;
}

/** A numeric NRI field, or NaN when blank / non-numeric ("Insufficient Data" rows). */
export function nriNumber(s: NriState | undefined, field: string): number {
  if (!s) return NaN;
  const v = s[field];
  if (v === undefined || v.trim() === '') return NaN;
  const n = Number(v);
  return Number.isFinite(n) ? n : NaN;
}

/** Years of record per hazard prefix (NRI_HazardInfo.csv TotalYears; "173/76" → the first, eastern value). */
export function parseNriRecordYears(text: string): Map<string, number> {
  const rows = parse(text, { columns: true, skip_empty_lines: true }) as Record<string, string>[];
  const out = new Map<string, number>();
  for (const r of rows) out.set(r.Prefix, Number(String(r.TotalYears).split('/')[0]));
  return out;
}
