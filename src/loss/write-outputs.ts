/**
 * Writes one perspective's ORD files (gul_S1_melt.csv ...) for one summary set, as its ord_output
 * flags ask (the names and the order of rows of oasislmf's outputs), into the run's output set: each at
 * its temporary name until the run commits them all with their manifest.
 */
import type { OutputSet } from '../lib/output-set.js';
import { meltTable, qeltTable, seltTable, type SummaryRecords } from './domain/elt.js';
import { eptTables, paltRows } from './domain/ept-tables.js';
import type { EptRow } from './domain/ept.js';
import {
  csvText,
  emptyTable,
  floatColumn,
  intColumn,
  rowCount,
  type OrdColumn,
  type OrdTable,
} from './domain/ord-table.js';
import { pltTables } from './domain/plt.js';
import type { Occurrence } from './domain/types.js';
import { ordTableArrow, summaryInfoArrow, writeArrowFile } from './io/write-arrow.js';
import { writeParquetTables, type ParquetTarget } from './io/write-parquet.js';
import type { SummarySetting } from './settings.js';

export interface Written {
  file: string;
  rows: number;
}
export interface Skipped {
  output: string;
  reason: string;
}

/** How the ORD tables are written: Oasis's CSV, its Parquet layout (the same names, .parquet), or Arrow IPC files of that layout (.arrow). */
export type OrdFormat = 'csv' | 'parquet' | 'arrow';

const SAMPLED = [
  'elt_quantile',
  'plt_quantile',
  'psept_oep',
  'psept_aep',
  'ept_full_uncertainty_oep',
  'ept_full_uncertainty_aep',
  'ept_per_sample_mean_oep',
  'ept_per_sample_mean_aep',
  'ept_mean_sample_oep',
  'ept_mean_sample_aep',
];

/** The return period is printed from the double (it is P/rank or a requested one, not a float32 sum). */
const RETURN_PERIOD: OrdColumn = { name: 'ReturnPeriod', type: 'float32', csv: (v) => v.toFixed(6) };
const EPT_COLUMNS = [...['SummaryId', 'EPCalc', 'EPType'].map(intColumn), RETURN_PERIOD, floatColumn('Loss', 6)];
const PSEPT_COLUMNS = [...['SummaryId', 'SampleId', 'EPType'].map(intColumn), RETURN_PERIOD, floatColumn('Loss', 6)];
const PALT_COLUMNS = [
  intColumn('SummaryId'),
  intColumn('SampleType'),
  floatColumn('MeanLoss', 6),
  floatColumn('SDLoss', 6),
];

function eptTable(columns: OrdColumn[], rows: EptRow[]): OrdTable {
  const t = emptyTable(columns);
  for (const r of rows) t.values.push(r.summaryId, r.epCalc, r.epType, r.returnPeriod, r.loss);
  return t;
}

/** Python's repr of a float as summary-info prints it (3400000.0). */
function pyFloat(x: number): string {
  return Number.isInteger(x) ? `${x}.0` : String(x);
}

/**
 * Writes one perspective's ORD files, in `format` when given; otherwise as the summary's ord_output asks
 * (parquet_format, oasislmf's own switch, for Parquet; CSV without it). `perspective` starts the file
 * names: gul, il, ri, or rl_IP<n> for the losses inuring level n takes (Oasis's names: rl_IP1_S1_melt.csv).
 */
export async function writePerspective(
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
  format?: OrdFormat,
): Promise<void> {
  const o = s.ordOutput;
  const prefix = `${perspective}_S${s.id}_`;
  const parquet = format ? format === 'parquet' : o.parquet_format === true;
  const arrow = format === 'arrow';
  const ext = arrow ? 'arrow' : parquet ? 'parquet' : 'csv';
  const targets: ParquetTarget[] = [];
  const arrowFiles: Promise<void>[] = [];
  const write = (stem: string, table: OrdTable) => {
    const name = `${prefix}${stem}.${ext}`;
    const rows = rowCount(table);
    if (arrow) {
      arrowFiles.push(writeArrowFile(set.tempPath(name), ordTableArrow(table)));
      files.push({ file: set.add(name, rows), rows });
    } else if (parquet) {
      targets.push({ file: set.tempPath(name), table });
      files.push({ file: set.add(name, rows), rows });
    } else {
      files.push({ file: set.write(name, csvText(table), rows), rows });
    }
  };
  if (rec.samples === 0) {
    for (const flag of SAMPLED)
      if (o[flag])
        skipped.push({ output: `${prefix}${flag}`, reason: 'number_of_samples is 0: only the mean rows are computed' });
  }
  if (totalTiv !== undefined) {
    const info = `${prefix}summary-info.${ext}`;
    if (arrow) {
      arrowFiles.push(writeArrowFile(set.tempPath(info), summaryInfoArrow(totalTiv)));
      files.push({ file: set.add(info, 1), rows: 1 });
    } else if (parquet) {
      // oasislmf writes this one through pandas: int64, string and double, not its float32 tables' types.
      const select = `SELECT 1::BIGINT AS summary_id, 'All-Risks' AS _not_set_, CAST('${totalTiv}' AS DOUBLE) AS tiv`;
      targets.push({ file: set.tempPath(info), select });
      files.push({ file: set.add(info, 1), rows: 1 });
    } else {
      files.push({ file: set.write(info, `summary_id,_not_set_,tiv\n1,All-Risks,${pyFloat(totalTiv)}\n`, 1), rows: 1 });
    }
  }
  if (o.elt_sample) write('selt', seltTable(rec));
  if (o.elt_moment) write('melt', meltTable(rec));
  if (o.elt_quantile && rec.samples > 0) write('qelt', qeltTable(rec, quantiles));
  if (o.plt_sample || o.plt_moment || o.plt_quantile) {
    const plt = pltTables(rec, occ, quantiles);
    if (o.plt_sample) write('splt', plt.splt);
    if (o.plt_moment) write('mplt', plt.mplt);
    if (o.plt_quantile && rec.samples > 0) write('qplt', plt.qplt);
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
  if (f.oep || f.aep) write('ept', eptTable(EPT_COLUMNS, tables.ept));
  if ((f.psept.oep || f.psept.aep) && rec.samples > 0) write('psept', eptTable(PSEPT_COLUMNS, tables.psept));
  if (o.alt_period) {
    const palt = emptyTable(PALT_COLUMNS);
    for (const r of paltRows(rec, occ)) palt.values.push(r.summaryId, r.sampleType, r.mean, r.sd);
    write('palt', palt);
  }
  await writeParquetTables(targets);
  await Promise.all(arrowFiles);
}
