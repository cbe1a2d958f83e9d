/**
 * A model's AAL rates against FEMA's National Risk Index expected annual building loss rates
 * (<HAZARD>_EALB / BUILDVALUE): by state from NRI v1.20's state table, by county from a v1.19 county
 * table, with the Spearman rank correlation and the median ratio ours / NRI, the two figures the checks
 * are judged by. Our rates are the AALs of the NRI exposure book (nri-exposure-book.ts) per group.
 */
import fs from 'node:fs';
import path from 'node:path';
import { nriNumber, parseNriStates } from '../../reference-data/nri.js';
import { parseNriCounties } from '../../reference-data/nri-counties.js';
import { spearman } from '../../lib/stats.js';
import type { CountyExposure, GroupLoss } from './nri-exposure-book.js';

export const NRI_STATES_FILE = 'hazard_history/fema_nri/NRI_Table_States.csv';

function read(dataDir: string, rel: string): string {
  const file = path.join(dataDir, rel);
  if (!fs.existsSync(file)) throw new Error(`${file} not found; pass the shared data directory (the one holding hazard_history/)`);
  return fs.readFileSync(file, 'utf8');
}

export interface RateRow {
  name: string;
  value: number;
  ours: number;
  nri: number;
}

export interface RateComparison {
  rows: RateRow[];
  rho: number;
  medianRatio: number;
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

export function compareRates(rows: RateRow[]): RateComparison {
  const ok = rows.filter((r) => r.nri > 0);
  return {
    rows,
    rho: spearman(ok.map((r) => r.ours), ok.map((r) => r.nri)),
    medianRatio: median(ok.filter((r) => r.ours > 0).map((r) => r.ours / r.nri)),
  };
}

/** NRI v1.20 states with a building loss for the hazard (`<prefix>_EALB` > 0), by abbreviation: that loss over BUILDVALUE a year. */
export function nriStateRates(dataDir: string, prefix: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const s of parseNriStates(read(dataDir, NRI_STATES_FILE)).values()) {
    const eal = nriNumber(s, `${prefix}_EALB`);
    const value = nriNumber(s, 'BUILDVALUE');
    if (eal > 0 && value > 0) out.set(s.STATEABBRV, eal / value);
  }
  return out;
}

/** Our state AAL rates (one book per state) against NRI's rates, for every state of `byState` NRI has a rate for. */
export function stateRates(nri: ReadonlyMap<string, number>, byState: ReadonlyMap<string, GroupLoss>): RateComparison {
  const rows: RateRow[] = [];
  for (const [state, rate] of nri) {
    const ours = byState.get(state);
    if (!ours || !(ours.value > 0)) continue;
    rows.push({ name: state, value: ours.value, ours: ours.aal / ours.value, nri: rate });
  }
  rows.sort((a, b) => b.nri - a.nri);
  return compareRates(rows);
}

/** County AAL rates (one book per county) against an NRI v1.19 county table's `<prefix>_EALB` / BUILDVALUE. */
export function countyRates(dataDir: string, tableFile: string, prefix: string, counties: readonly CountyExposure[], byFips: ReadonlyMap<string, GroupLoss>): RateComparison {
  const table = parseNriCounties(read(dataDir, tableFile));
  const rows: RateRow[] = [];
  for (const c of counties) {
    const r = table.get(c.fips);
    const ours = byFips.get(c.fips);
    const eal = Number(r?.[`${prefix}_EALB`]);
    const value = Number(r?.BUILDVALUE);
    if (!r || !ours || !(eal >= 0) || !(value > 0)) continue;
    rows.push({ name: c.county, value: ours.value, ours: ours.aal / ours.value, nri: eal / value });
  }
  rows.sort((a, b) => b.nri - a.nri);
  return compareRates(rows);
}


