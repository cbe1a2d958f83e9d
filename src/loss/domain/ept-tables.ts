/**
 * The EPT and PSEPT of one summary set as lec writes them (pytools lec aggreports): EPCalc 1 from the
 * analytical means, 2 full uncertainty (all period x sample values pooled, RP = P * S / rank), 3
 * per-sample mean (the rank-by-rank mean of the per-sample curves), 4 sample mean (each period's
 * mean over samples, ranked with P); PSEPT one curve per sample. Each in OEP then AEP order, a
 * curve's TVaR rows after its loss rows.
 */
import type { SummaryRecords } from './elt.js';
import { EP_TYPE, epCurve, type EptRow } from './ept.js';
import type { Occurrence } from './types.js';

export interface EpFlags {
  oep: boolean;
  aep: boolean;
  fullUncertainty: { oep: boolean; aep: boolean };
  perSampleMean: { oep: boolean; aep: boolean };
  sampleMean: { oep: boolean; aep: boolean };
  psept: { oep: boolean; aep: boolean };
}

interface PeriodLosses {
  /** per summary id: per sample (0 = the analytical mean, s = sample s), period -> [sum, max]. */
  bySummary: Map<number, Map<number, [number, number]>[]>;
}

function periodLosses(r: SummaryRecords, occ: Occurrence): PeriodLosses {
  const periodsOf = new Map<number, number[]>();
  for (let i = 0; i < occ.eventId.length; i++) {
    const list = periodsOf.get(occ.eventId[i]);
    if (list) list.push(occ.period[i]);
    else periodsOf.set(occ.eventId[i], [occ.period[i]]);
  }
  const S = r.samples;
  const bySummary = new Map<number, Map<number, [number, number]>[]>();
  for (let i = 0; i < r.length; i++) {
    const periods = periodsOf.get(r.eventId[i]);
    if (!periods) continue;
    let per = bySummary.get(r.summaryId[i]);
    if (!per) bySummary.set(r.summaryId[i], (per = Array.from({ length: S + 1 }, () => new Map())));
    for (let s = 0; s <= S; s++) {
      const v = s === 0 ? r.mean[i] : r.sampled[i * S + s - 1];
      for (const p of periods) {
        const acc = per[s].get(p) ?? [0, 0];
        acc[0] += v;
        acc[1] = Math.max(acc[1], v);
        per[s].set(p, acc);
      }
    }
  }
  return { bySummary: new Map([...bySummary].sort((a, b) => a[0] - b[0])) };
}

const values = (m: Map<number, [number, number]>, k: 0 | 1) => Float64Array.from(m.values(), (v) => v[k]);

export function eptTables(
  r: SummaryRecords,
  occ: Occurrence,
  rps: number[] | undefined,
  f: EpFlags,
): { ept: EptRow[]; psept: EptRow[] } {
  const P = occ.periods;
  const S = r.samples;
  const ept: EptRow[] = [];
  const psept: EptRow[] = [];
  const push = (to: EptRow[], c: { rows: EptRow[]; tvar: EptRow[] }) => to.push(...c.rows, ...c.tvar);
  const kinds = [
    { on: 'oep' as const, k: 1 as const, type: EP_TYPE.OEP },
    { on: 'aep' as const, k: 0 as const, type: EP_TYPE.AEP },
  ];
  for (const [sid, per] of periodLosses(r, occ).bySummary) {
    for (const { on, k, type } of kinds) if (f[on]) push(ept, epCurve(values(per[0], k), P, rps, sid, 1, type));
    if (S === 0) continue;
    for (const { on, k, type } of kinds) {
      if (!f.fullUncertainty[on]) continue;
      const pooled: number[] = [];
      for (let s = 1; s <= S; s++) for (const v of per[s].values()) pooled.push(v[k]);
      push(ept, epCurve(Float64Array.from(pooled), P * S, rps, sid, 2, type));
    }
    for (const { on, k, type } of kinds) {
      if (f.psept[on]) {
        const rows: EptRow[] = [];
        const tvar: EptRow[] = [];
        for (let s = 1; s <= S; s++) {
          // In the PSEPT the second column is the sample id.
          const c = epCurve(values(per[s], k), P, rps, sid, s, type);
          rows.push(...c.rows);
          tvar.push(...c.tvar);
        }
        psept.push(...rows, ...tvar);
      }
      if (f.perSampleMean[on]) {
        // Rank by rank across samples: the i-th largest of every sample, summed, then / S in epCurve.
        const sums: number[] = [];
        for (let s = 1; s <= S; s++) {
          const v = values(per[s], k).sort().reverse();
          v.forEach((x, i) => (sums[i] = (sums[i] ?? 0) + x));
        }
        push(ept, epCurve(Float64Array.from(sums), P, rps, sid, 3, type, S));
      }
    }
    for (const { on, k, type } of kinds) {
      if (!f.sampleMean[on]) continue;
      const mean = new Map<number, number>();
      for (let s = 1; s <= S; s++) for (const [p, v] of per[s]) mean.set(p, (mean.get(p) ?? 0) + v[k] / S);
      push(ept, epCurve(Float64Array.from(mean.values()), P, rps, sid, 4, type));
    }
  }
  return { ept, psept };
}

/** The ALT rows: SampleType 1 over the analytical means, 2 over every (period, sample) pair. */
export function paltRows(
  r: SummaryRecords,
  occ: Occurrence,
): { summaryId: number; sampleType: number; mean: number; sd: number }[] {
  const out: { summaryId: number; sampleType: number; mean: number; sd: number }[] = [];
  const P = occ.periods;
  const S = r.samples;
  const stats = (xs: Iterable<number>, n: number) => {
    let sum = 0;
    let sq = 0;
    for (const x of xs) {
      sum += x;
      sq += x * x;
    }
    const variance = n > 1 ? Math.max(0, (sq - (sum * sum) / n) / (n - 1)) : 0;
    return { mean: sum / n, sd: Math.sqrt(variance) };
  };
  for (const [sid, per] of periodLosses(r, occ).bySummary) {
    out.push({ summaryId: sid, sampleType: 1, ...stats(values(per[0], 0), P) });
    if (S > 0) {
      const all: number[] = [];
      for (let s = 1; s <= S; s++) all.push(...values(per[s], 0));
      out.push({ summaryId: sid, sampleType: 2, ...stats(all, P * S) });
    }
  }
  return out;
}
