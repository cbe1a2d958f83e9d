/**
 * Period loss tables (pytools pltpy): every record repeated for each occurrence of its event in the
 * occurrence file. SPLT: the mean (sidx -1, always) and each sample with a loss; MPLT: the analytical
 * mean when it is positive and the sample statistics when any sample has a loss; QPLT: the sample
 * quantiles. PeriodWeight is 1/P (no periods file).
 */
import { sampleMoments, type SummaryRecords } from './elt.js';
import { emptyTable, floatColumn, intColumn, type OrdColumn, type OrdTable } from './ord-table.js';
import { quantileLoss } from './quantiles.js';
import type { Occurrence } from './types.js';

const PERIOD_COLUMNS: OrdColumn[] = [
  intColumn('Period'),
  floatColumn('PeriodWeight', 6),
  ...['EventId', 'Year', 'Month', 'Day', 'Hour', 'Minute', 'SummaryId'].map(intColumn),
];
const SPLT_COLUMNS = [
  ...PERIOD_COLUMNS,
  intColumn('SampleId'),
  floatColumn('Loss', 2),
  floatColumn('ImpactedExposure', 2),
];
const MPLT_COLUMNS = [
  ...PERIOD_COLUMNS,
  intColumn('SampleType'),
  floatColumn('ChanceOfLoss', 4),
  ...['MeanLoss', 'SDLoss', 'MaxLoss', 'FootprintExposure', 'MeanImpactedExposure', 'MaxImpactedExposure'].map((n) =>
    floatColumn(n, 2),
  ),
];
const QPLT_COLUMNS = [...PERIOD_COLUMNS, floatColumn('Quantile', 2), floatColumn('Loss', 2)];

/** Occurrence rows of each event, in file order. */
export function occurrencesByEvent(occ: Occurrence): Map<number, number[]> {
  const m = new Map<number, number[]>();
  for (let i = 0; i < occ.eventId.length; i++) {
    const list = m.get(occ.eventId[i]);
    if (list) list.push(i);
    else m.set(occ.eventId[i], [i]);
  }
  return m;
}

export function pltTables(
  r: SummaryRecords,
  occ: Occurrence,
  quantiles: number[],
): { splt: OrdTable; mplt: OrdTable; qplt: OrdTable } {
  const byEvent = occurrencesByEvent(occ);
  const splt = emptyTable(SPLT_COLUMNS);
  const mplt = emptyTable(MPLT_COLUMNS);
  const qplt = emptyTable(QPLT_COLUMNS);
  const weight = 1 / occ.periods;
  // One row: the period columns of occurrence o for record i, then the table's own.
  const row = (to: OrdTable, o: number, i: number, ...rest: number[]) =>
    to.values.push(
      occ.period[o],
      weight,
      r.eventId[i],
      occ.year[o],
      occ.month[o],
      occ.day[o],
      0,
      0,
      r.summaryId[i],
      ...rest,
    );
  const S = r.samples;
  const sorted = new Float64Array(S);
  for (let i = 0; i < r.length; i++) {
    const occs = byEvent.get(r.eventId[i]) ?? [];
    const x = r.exposure[i];
    for (const o of occs) row(splt, o, i, -1, r.mean[i], r.mean[i] > 0 ? x : 0);
    for (let s = 0; s < S; s++) {
      const v = r.sampled[i * S + s];
      if (v > 0) for (const o of occs) row(splt, o, i, s + 1, v, x);
    }
    if (r.mean[i] > 0) {
      for (const o of occs) row(mplt, o, i, 1, 0, r.mean[i], 0, r.max[i], x, x, x);
    }
    if (S > 0) {
      const m = sampleMoments(r, i);
      if (m.nonZero > 0 && (m.mean > 0 || m.sd > 0)) {
        for (const o of occs) row(mplt, o, i, 2, m.chance, m.mean, m.sd, r.max[i], x, x * m.chance, x);
      }
      for (let s = 0; s < S; s++) sorted[s] = r.sampled[i * S + s];
      sorted.sort();
      for (const o of occs) for (const q of quantiles) row(qplt, o, i, q, quantileLoss(sorted, q));
    }
  }
  return { splt, mplt, qplt };
}
