/**
 * Writes one perspective's ORD files (gul_S1_melt.csv ...) for one summary set, as its ord_output
 * flags ask (the names and the order of rows of oasislmf's outputs), into the run's output set: each at
 * its temporary name until the run commits them all with their manifest.
 */
import type { OutputSet } from '../lib/output-set.js';
import { MELT_HEADER, PALT_HEADER, QELT_HEADER, SELT_HEADER, meltRows, qeltRows, seltRows, type SummaryRecords } from './domain/elt.js';
import { eptTables, paltRows } from './domain/ept-tables.js';
import type { EptRow } from './domain/ept.js';
import { f32 } from './domain/format.js';
import { MPLT_HEADER, QPLT_HEADER, SPLT_HEADER, pltRows } from './domain/plt.js';
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

const EPT_HEADER = 'SummaryId,EPCalc,EPType,ReturnPeriod,Loss';
const PSEPT_HEADER = 'SummaryId,SampleId,EPType,ReturnPeriod,Loss';
const SAMPLED = ['elt_quantile', 'plt_quantile', 'psept_oep', 'psept_aep', 'ept_full_uncertainty_oep', 'ept_full_uncertainty_aep', 'ept_per_sample_mean_oep', 'ept_per_sample_mean_aep', 'ept_mean_sample_oep', 'ept_mean_sample_aep'];

/** Python's repr of a float as summary-info prints it (3400000.0). */
function pyFloat(x: number): string {
  return Number.isInteger(x) ? `${x}.0` : String(x);
}

function write(set: OutputSet, name: string, header: string, rows: string[], files: Written[]): void {
  const file = set.write(name, rows.length ? `${header}\n${rows.join('\n')}\n` : `${header}\n`, rows.length);
  files.push({ file, rows: rows.length });
}

const eptLines = (rows: EptRow[]) => rows.map((r) => `${r.summaryId},${r.epCalc},${r.epType},${r.returnPeriod.toFixed(6)},${f32(r.loss, 6)}`);

/**
 * `perspective` starts the file names: gul, il, ri, or rl_IP<n> for the losses inuring level n takes
 * (Oasis's names: rl_IP1_S1_melt.csv).
 */
export function writePerspective(
  set: OutputSet,
  perspective: string,
  s: SummarySetting,
  rec: SummaryRecords,
  occ: Occurrence,
  rps: number[] | undefined,
  quantiles: number[],
  /** The summary-info TIV; undefined writes no summary-info (Oasis writes none for rl). */
  totalTiv: number | undefined,
  files: Written[],
  skipped: Skipped[],
): void {
  const o = s.ordOutput;
  const prefix = `${perspective}_S${s.id}_`;
  if (rec.samples === 0) {
    for (const flag of SAMPLED) if (o[flag]) skipped.push({ output: `${prefix}${flag}`, reason: 'number_of_samples is 0: only the mean rows are computed' });
  }
  if (totalTiv !== undefined) write(set, `${prefix}summary-info.csv`, 'summary_id,_not_set_,tiv', [`1,All-Risks,${pyFloat(totalTiv)}`], files);
  if (o.elt_sample) write(set, `${prefix}selt.csv`, SELT_HEADER, seltRows(rec), files);
  if (o.elt_moment) write(set, `${prefix}melt.csv`, MELT_HEADER, meltRows(rec), files);
  if (o.elt_quantile && rec.samples > 0) write(set, `${prefix}qelt.csv`, QELT_HEADER, qeltRows(rec, quantiles), files);
  if (o.plt_sample || o.plt_moment || o.plt_quantile) {
    const plt = pltRows(rec, occ, quantiles);
    if (o.plt_sample) write(set, `${prefix}splt.csv`, SPLT_HEADER, plt.splt, files);
    if (o.plt_moment) write(set, `${prefix}mplt.csv`, MPLT_HEADER, plt.mplt, files);
    if (o.plt_quantile && rec.samples > 0) write(set, `${prefix}qplt.csv`, QPLT_HEADER, plt.qplt, files);
  }
  const flag = (name: string) => Boolean(o[name]);
  const both = (stem: string) => ({ oep: flag(`${stem}_oep`), aep: flag(`${stem}_aep`) });
  const f = {
    fullUncertainty: both('ept_full_uncertainty'),
    perSampleMean: both('ept_per_sample_mean'),
    sampleMean: both('ept_mean_sample'),
    psept: both('psept'),
    oep: false,
    aep: false,
  };
  f.oep = f.fullUncertainty.oep || f.perSampleMean.oep || f.sampleMean.oep;
  f.aep = f.fullUncertainty.aep || f.perSampleMean.aep || f.sampleMean.aep;
  const curveRps = o.return_period_file === false ? undefined : rps;
  const tables = eptTables(rec, occ, curveRps, f);
  if (f.oep || f.aep) write(set, `${prefix}ept.csv`, EPT_HEADER, eptLines(tables.ept), files);
  if ((f.psept.oep || f.psept.aep) && rec.samples > 0) write(set, `${prefix}psept.csv`, PSEPT_HEADER, eptLines(tables.psept), files);
  if (o.alt_period) {
    const rows = paltRows(rec, occ).map((r) => `${r.summaryId},${r.sampleType},${f32(r.mean, 6)},${f32(r.sd, 6)}`);
    write(set, `${prefix}palt.csv`, PALT_HEADER, rows, files);
  }
}
