/**
 * Period loss tables (pytools pltpy): every record repeated for each occurrence of its event in the
 * occurrence file. SPLT: the mean (sidx -1, always) and each sample with a loss; MPLT: the analytical
 * mean when it is positive and the sample statistics when any sample has a loss; QPLT: the sample
 * quantiles. PeriodWeight is 1/P (no periods file).
 */
import { sampleMoments, type SummaryRecords } from './elt.js';
import { f32 } from './format.js';
import { quantileLoss } from './quantiles.js';
import type { Occurrence } from './types.js';

export const SPLT_HEADER = 'Period,PeriodWeight,EventId,Year,Month,Day,Hour,Minute,SummaryId,SampleId,Loss,ImpactedExposure';
export const MPLT_HEADER = 'Period,PeriodWeight,EventId,Year,Month,Day,Hour,Minute,SummaryId,SampleType,ChanceOfLoss,MeanLoss,SDLoss,MaxLoss,FootprintExposure,MeanImpactedExposure,MaxImpactedExposure';
export const QPLT_HEADER = 'Period,PeriodWeight,EventId,Year,Month,Day,Hour,Minute,SummaryId,Quantile,Loss';

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

function prefix(occ: Occurrence, o: number, eventId: number): string {
  return `${occ.period[o]},${f32(1 / occ.periods, 6)},${eventId},${occ.year[o]},${occ.month[o]},${occ.day[o]},0,0`;
}

export function pltRows(r: SummaryRecords, occ: Occurrence, quantiles: number[]): { splt: string[]; mplt: string[]; qplt: string[] } {
  const byEvent = occurrencesByEvent(occ);
  const splt: string[] = [];
  const mplt: string[] = [];
  const qplt: string[] = [];
  const S = r.samples;
  const sorted = new Float64Array(S);
  for (let i = 0; i < r.length; i++) {
    const occs = byEvent.get(r.eventId[i]) ?? [];
    const x = r.exposure[i];
    const sid = r.summaryId[i];
    for (const o of occs) splt.push(`${prefix(occ, o, r.eventId[i])},${sid},-1,${f32(r.mean[i], 2)},${f32(r.mean[i] > 0 ? x : 0, 2)}`);
    for (let s = 0; s < S; s++) {
      const v = r.sampled[i * S + s];
      if (v > 0) for (const o of occs) splt.push(`${prefix(occ, o, r.eventId[i])},${sid},${s + 1},${f32(v, 2)},${f32(x, 2)}`);
    }
    if (r.mean[i] > 0) {
      for (const o of occs) mplt.push(`${prefix(occ, o, r.eventId[i])},${sid},1,${f32(0, 4)},${f32(r.mean[i], 2)},${f32(0, 2)},${f32(r.max[i], 2)},${f32(x, 2)},${f32(x, 2)},${f32(x, 2)}`);
    }
    if (S > 0) {
      const m = sampleMoments(r, i);
      if (m.nonZero > 0 && (m.mean > 0 || m.sd > 0)) {
        for (const o of occs) mplt.push(`${prefix(occ, o, r.eventId[i])},${sid},2,${f32(m.chance, 4)},${f32(m.mean, 2)},${f32(m.sd, 2)},${f32(r.max[i], 2)},${f32(x, 2)},${f32(x * m.chance, 2)},${f32(x, 2)}`);
      }
      for (let s = 0; s < S; s++) sorted[s] = r.sampled[i * S + s];
      sorted.sort();
      for (const o of occs) for (const q of quantiles) qplt.push(`${prefix(occ, o, r.eventId[i])},${sid},${f32(q, 2)},${f32(quantileLoss(sorted, q), 2)}`);
    }
  }
  return { splt, mplt, qplt };
}
