/**
 * Writes one perspective's ORD files (gul_S1_melt.csv ...) for one summary set, as its ord_output
 * flags ask, and lists every requested output it cannot produce with the reason.
 */
import fs from 'node:fs';
import path from 'node:path';
import { EPT_HEADER, MELT_HEADER, PALT_HEADER, SELT_HEADER, meltRows, paltMeanRows, periodValues, seltRows, type SummaryRecords } from './domain/elt.js';
import { EP_TYPE, epCurve, type EptRow } from './domain/ept.js';
import { f32 } from './domain/format.js';
import type { Occurrence } from './domain/types.js';
import type { SummarySetting } from './settings.js';

export interface Written {
  file: string;
  rows: number;
}
export interface Skipped {
  output: string;
  reason: string;
}

const SAMPLED_ONLY: Record<string, string> = {
  elt_quantile: 'qelt',
  plt_sample: 'splt',
  plt_quantile: 'qplt',
  plt_moment: 'mplt',
  psept_aep: 'psept',
  psept_oep: 'psept',
  ept_full_uncertainty_aep: 'ept EPCalc 2',
  ept_full_uncertainty_oep: 'ept EPCalc 2',
  ept_per_sample_mean_aep: 'ept EPCalc 3',
  ept_per_sample_mean_oep: 'ept EPCalc 3',
};

/** Python's repr of a float as summary-info prints it (3400000.0). */
function pyFloat(x: number): string {
  return Number.isInteger(x) ? `${x}.0` : String(x);
}

function write(outDir: string, name: string, header: string, rows: string[], files: Written[]): void {
  const file = path.join(outDir, name);
  fs.writeFileSync(file, [header, ...rows].join('\n') + '\n');
  files.push({ file, rows: rows.length });
}

function eptLines(rows: EptRow[]): string[] {
  return rows.map((r) => `${r.summaryId},${r.epCalc},${r.epType},${r.returnPeriod.toFixed(6)},${f32(r.loss, 6)}`);
}

export function writePerspective(
  outDir: string,
  perspective: 'gul' | 'il',
  s: SummarySetting,
  rec: SummaryRecords,
  occ: Occurrence,
  rps: number[] | undefined,
  totalTiv: number,
  files: Written[],
  skipped: Skipped[],
): void {
  const o = s.ordOutput;
  const prefix = `${perspective}_S${s.id}_`;
  write(outDir, `${prefix}summary-info.csv`, 'summary_id,_not_set_,tiv', [`1,All-Risks,${pyFloat(totalTiv)}`], files);
  if (o.elt_moment) write(outDir, `${prefix}melt.csv`, MELT_HEADER, meltRows(rec), files);
  if (o.elt_sample) write(outDir, `${prefix}selt.csv`, SELT_HEADER, seltRows(rec), files);
  const values = periodValues(rec, occ);
  const wantOep = Object.keys(o).some((k) => k.startsWith('ept_') && k.endsWith('_oep') && o[k]);
  const wantAep = Object.keys(o).some((k) => k.startsWith('ept_') && k.endsWith('_aep') && o[k]);
  if (wantOep || wantAep) {
    const curveRps = o.return_period_file === false ? undefined : rps;
    const rows: EptRow[] = [];
    for (const [sid, v] of values) {
      if (wantOep) {
        const c = epCurve(v.oep, occ.periods, curveRps, sid, 1, EP_TYPE.OEP);
        rows.push(...c.rows, ...c.tvar);
      }
      if (wantAep) {
        const c = epCurve(v.aep, occ.periods, curveRps, sid, 1, EP_TYPE.AEP);
        rows.push(...c.rows, ...c.tvar);
      }
    }
    write(outDir, `${prefix}ept.csv`, EPT_HEADER, eptLines(rows), files);
  }
  if (o.alt_period) write(outDir, `${prefix}palt.csv`, PALT_HEADER, paltMeanRows(values, occ.periods), files);
  const reasons = new Set<string>();
  for (const [flag, what] of Object.entries(SAMPLED_ONLY)) {
    if (o[flag] && !reasons.has(what)) {
      reasons.add(what);
      skipped.push({ output: `${prefix}${flag}`, reason: `${what} needs gulmc's sampled losses, which catintel oasis run does not reproduce (docs/loss-engine.md); the mean rows are written` });
    }
  }
}
