/**
 * EP tables as Oasis's lec computes them (pytools lec write_ept, mirrored step by step so the
 * numbers agree): period values ranked in descending order get return period P/i; a requested
 * return period between two ranked points is interpolated linearly in return period; below the
 * last ranked point the loss is 0; return periods above P are dropped. TVaR at a return period is
 * the running mean of the ranked values down to it, with the interpolated loss as the last term.
 */

export const EP_TYPE = { OEP: 1, OEP_TVAR: 2, AEP: 3, AEP_TVAR: 4 } as const;

export interface EptRow {
  summaryId: number;
  epCalc: number;
  epType: number;
  returnPeriod: number;
  loss: number;
}

function getLoss(nextRp: number, lastRp: number, lastLoss: number, curRp: number, curLoss: number): number {
  if (curRp === 0) return 0;
  if (curLoss === 0) return 0;
  if (curRp === nextRp) return curLoss;
  if (curRp < nextRp) return ((nextRp - curRp) * (lastLoss - curLoss)) / (lastRp - curRp) + curLoss;
  return -1;
}

/**
 * One EP curve and its TVaR for one summary id. `values` are the period values (only periods with
 * a record); `maxRp` is P (times the sample count for full uncertainty); `returnPeriods` in the
 * order of returnperiods.csv (descending), or undefined for every ranked point.
 */
export function epCurve(
  values: Float64Array,
  maxRp: number,
  returnPeriods: number[] | undefined,
  summaryId: number,
  epCalc: number,
  epType: number,
  sampleSize = 1,
): { rows: EptRow[]; tvar: EptRow[] } {
  const sorted = Float64Array.from(values).sort().reverse();
  const rows: EptRow[] = [];
  const tvarRows: EptRow[] = [];
  const tvarType = epType + 1;
  let tvar = 0;
  if (!returnPeriods) {
    for (let k = 0; k < sorted.length; k++) {
      const i = k + 1;
      const value = sorted[k] / sampleSize;
      const rp = maxRp / i;
      tvar = tvar - (tvar - value) / i;
      rows.push({ summaryId, epCalc, epType, returnPeriod: rp, loss: value });
      tvarRows.push({ summaryId, epCalc, epType: tvarType, returnPeriod: rp, loss: tvar });
    }
    return { rows, tvar: tvarRows };
  }
  let nextIdx = 0;
  let lastRp = 0;
  let lastLoss = 0;
  // One step of lec's write_return_period_out: emits every requested return period reached at
  // this ranked point. Its TVaR and counter are local to the step, exactly as in lec.
  const step = (curRp: number, curLoss: number, counterIn: number, tvarIn: number): void => {
    let counter = counterIn;
    let t = tvarIn;
    while (nextIdx < returnPeriods.length) {
      const nextRp = returnPeriods[nextIdx];
      if (curRp > nextRp) break;
      if (maxRp < nextRp) {
        nextIdx++;
        continue;
      }
      const loss = getLoss(nextRp, lastRp, lastLoss, curRp, curLoss);
      rows.push({ summaryId, epCalc, epType, returnPeriod: nextRp, loss });
      if (curRp !== 0) {
        t = t - (t - loss) / counter;
        tvarRows.push({ summaryId, epCalc, epType: tvarType, returnPeriod: nextRp, loss: t });
      }
      nextIdx++;
      counter++;
      if (curRp > nextRp) break;
    }
    if (curRp > 0) {
      lastRp = curRp;
      lastLoss = curLoss;
    }
  };
  let i = 1;
  for (let k = 0; k < sorted.length; k++) {
    const value = sorted[k] / sampleSize;
    if (nextIdx < returnPeriods.length) step(maxRp / i, value, i, tvar);
    tvar = tvar - (tvar - value) / i;
    i++;
  }
  while (nextIdx < returnPeriods.length) {
    const rp = returnPeriods[nextIdx] <= 0 ? 0 : maxRp / i;
    step(rp, 0, i, tvar);
    tvar = tvar - tvar / i;
    i++;
  }
  return { rows, tvar: tvarRows };
}
