/**
 * The EP metrics of one perspective (ground-up or insured) of a book's losses, computed by the loss
 * engine's own code (src/loss/domain/ept-tables.ts, as `oasis run` writes its ept, psept and palt):
 * EPCalc 1 from the analytical means, 2 full uncertainty, 3 per-sample mean, 4 sample mean; OEP, AEP
 * and their TVaR at the standard return periods the years reach. The curve a person reads is EPCalc 2
 * when the losses are sampled (every sample of every year ranked together: the secondary uncertainty
 * widens the tail), EPCalc 1 without samples. The ORD tables as files (CSV or Parquet) come from the
 * engine's writer, into a scratch directory the caller removes.
 */
import fs from 'node:fs';
import path from 'node:path';
import { EP_TYPE } from '../loss/domain/ept.js';
import { eptTables } from '../loss/domain/ept-tables.js';
import type { SummaryRecords } from '../loss/domain/elt.js';
import type { Occurrence } from '../loss/domain/types.js';
import { aalOf } from './run-book.js';

export const RETURN_PERIODS = [2, 5, 10, 25, 50, 100, 200, 250, 500, 1000] as const;

export interface EpPoint {
  return_period: number;
  exceedance_probability: number;
  oep: number;
  aep: number;
  oep_tvar: number;
  aep_tvar: number;
}

export interface PerspectiveEp {
  /** The EPCalc of `curve`: 2 (full uncertainty) when sampled, 1 (analytical means) without samples. */
  epCalc: number;
  curve: EpPoint[];
  aal: number;
  aalAnalytic: number;
}

const ALL = { oep: true, aep: true };
const FLAGS = { oep: true, aep: true, fullUncertainty: ALL, perSampleMean: ALL, sampleMean: ALL, psept: ALL };

/** The standard return periods a catalog of `periods` years reaches, in returnperiods.csv's (descending) order. */
export function returnPeriodsFor(periods: number): number[] {
  return RETURN_PERIODS.filter((rp) => rp <= periods).sort((a, b) => b - a);
}

export function perspectiveEp(r: SummaryRecords, occ: Occurrence): PerspectiveEp {
  const rps = returnPeriodsFor(occ.periods);
  const { ept } = eptTables(r, occ, rps, FLAGS);
  const epCalc = r.samples > 0 ? 2 : 1;
  const get = (type: number, rp: number) =>
    ept.find((x) => x.epCalc === epCalc && x.epType === type && x.returnPeriod === rp)?.loss ?? 0;
  const curve = [...rps].reverse().map((rp) => ({
    return_period: rp,
    exceedance_probability: 1 / rp,
    oep: get(EP_TYPE.OEP, rp),
    aep: get(EP_TYPE.AEP, rp),
    oep_tvar: get(EP_TYPE.OEP_TVAR, rp),
    aep_tvar: get(EP_TYPE.AEP_TVAR, rp),
  }));
  const { analytic, sampled } = aalOf(r, occ);
  return { epCalc, curve, aal: sampled, aalAnalytic: analytic };
}

/**
 * The ORD ept (or psept) table of a perspective as the engine writes it (`<perspective>_S1_ept.csv` or
 * `.parquet`), in `scratch`; its bytes.
 */
export async function ordTableBytes(
  perspective: 'gul' | 'il',
  r: SummaryRecords,
  occ: Occurrence,
  psept: boolean,
  format: 'csv' | 'parquet',
  scratch: string,
): Promise<Buffer> {
  const [{ OutputSet }, { writePerspective }] = await Promise.all([
    import('../lib/output-set.js'),
    import('../loss/write-outputs.js'),
  ]);
  const ordOutput: Record<string, boolean> = psept
    ? { psept_oep: true, psept_aep: true, return_period_file: true }
    : {
        ept_full_uncertainty_oep: true,
        ept_full_uncertainty_aep: true,
        ept_per_sample_mean_oep: true,
        ept_per_sample_mean_aep: true,
        ept_mean_sample_oep: true,
        ept_mean_sample_aep: true,
        return_period_file: true,
      };
  const set = await OutputSet.open(scratch);
  try {
    await writePerspective(
      set,
      perspective,
      { id: 1, ordOutput },
      r,
      occ,
      returnPeriodsFor(occ.periods),
      [],
      undefined,
      [],
      [],
      format,
    );
    await set.commit({ command: 'portfolio ep-curve' });
  } catch (err) {
    await set.discard().catch(() => undefined);
    throw err;
  }
  return fs.readFileSync(path.join(scratch, `${perspective}_S1_${psept ? 'psept' : 'ept'}.${format}`));
}
