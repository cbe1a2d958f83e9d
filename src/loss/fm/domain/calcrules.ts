/**
 * The calc rules of the Oasis financial module, as its Python implementation (fmpy) computes them.
 * Each step maps a node's loss per sample (`inp`) to the loss after its terms (`out`) and keeps the
 * node's running deductible, over-limit and under-limit amounts up to date (they feed minimum and
 * maximum deductibles higher up and the back-allocation of losses to items). Rules 1xx are rule xx
 * followed by a share (share1); 200 is a share alone.
 */
import { CatintelError } from '../../../errors.js';
import { deductibleOverMax, deductibleUnderMin } from './deductible-bounds.js';
import type { ProfileStep } from './profile.js';

/** The running amounts of a node, one value per sample. */
export interface Extras {
  ded: Float64Array;
  over: Float64Array;
  under: Float64Array;
}

export const CALCRULE_NAMES: Record<number, string> = {
  1: 'deductible and limit',
  2: 'deductible, attachment, limit and share',
  3: 'franchise deductible and limit',
  4: 'deductible as a fraction of TIV, and limit',
  5: 'deductible and limit as fractions of loss',
  6: 'deductible as a fraction of TIV',
  7: 'deductible with minimum and maximum deductible, and limit',
  8: 'deductible with minimum deductible, and limit',
  9: 'deductible as a fraction of the limit, and limit',
  10: 'deductible with maximum deductible',
  11: 'deductible with minimum deductible',
  12: 'deductible',
  13: 'deductible with minimum and maximum deductible',
  14: 'limit',
  15: 'deductible, and limit as a fraction of loss',
  16: 'deductible as a fraction of loss',
  17: 'deductible as a fraction of loss, with attachment, limit and share',
  18: 'deductible as a fraction of TIV, with attachment, limit and share',
  19: 'deductible as a fraction of loss, with minimum and maximum deductible',
  20: 'reverse franchise deductible',
  21: 'deductible as a fraction of TIV, with minimum and maximum deductible',
  22: 'reinsurance: share ceded, limit and share placed',
  23: 'reinsurance: limit and share placed',
  24: 'reinsurance: excess of loss (attachment, limit, shares)',
  25: 'reinsurance: proportional shares',
  26: 'deductible as a fraction of loss, with minimum and maximum deductible, and limit',
  27: 'step payout (fixed amount), with limit',
  28: 'step payout as a fraction of loss',
  29: 'step payout as a fraction of TIV',
  30: 'step payout as a fraction of the limit',
  31: 'step payout as a fixed amount',
  32: 'monetary trigger with payout as a fraction of loss, and limit',
  33: 'deductible as a fraction of loss, and limit',
  34: 'deductible, attachment and share',
  35: 'deductible as a fraction of loss, with minimum and maximum deductible, and limit as a fraction of loss',
  36: 'deductible with minimum and maximum deductible, and limit as a fraction of loss',
  37: 'step payout as a fraction of loss, with deductible and limit',
  38: 'conditional coverage',
  39: 'franchise deductible',
  40: 'business interruption waiting period and period of indemnity',
  41: 'business interruption period of indemnity',
  100: 'no terms (pass-through)',
  200: 'share',
};
for (const base of [1, 3, 5, 7, 8, 10, 11, 12, 13, 14, 15, 16, 19, 20, 26, 33, 35, 36]) {
  CALCRULE_NAMES[100 + base] = `${CALCRULE_NAMES[base]}, then share`;
}

/** Step-policy rules: only read from an fm_profile with the step columns (step_id ...). */
export const STEP_RULES = new Set([27, 28, 29, 30, 31, 32, 37, 38]);

export function checkCalcrule(p: ProfileStep, stepped: boolean, file: string): void {
  const known = p.calcrule in CALCRULE_NAMES;
  if (known && (stepped || !STEP_RULES.has(p.calcrule))) return;
  if (known) {
    throw new CatintelError(
      'invalid_input',
      `${file}: profile_id ${p.profileId} uses step calc rule ${p.calcrule} (${CALCRULE_NAMES[p.calcrule]}), but the file has no step columns (step_id, trigger_start, trigger_end, payout_start, payout_end, limit2, scale1, scale2); write the step policy with them`,
    );
  }
  const ids = Object.keys(CALCRULE_NAMES).join(', ');
  throw new CatintelError(
    'invalid_input',
    `${file}: profile_id ${p.profileId} uses calcrule_id ${p.calcrule}, which the Oasis financial module does not define; use one of ${ids}`,
  );
}

function plainDeductible(i: number, d: number, out: Float64Array, inp: Float64Array, x: Extras): void {
  if (inp[i] > d) {
    out[i] = inp[i] - d;
    x.ded[i] += d;
    x.under[i] += d;
  } else {
    out[i] = 0;
    x.ded[i] += inp[i];
    x.under[i] += inp[i];
  }
}

function cap(i: number, limit: number, out: Float64Array, x: Extras): void {
  if (out[i] > limit) {
    x.over[i] += out[i] - limit;
    x.under[i] = 0;
    out[i] = limit;
  } else {
    x.under[i] = Math.min(limit - out[i], x.under[i]);
  }
}

type LimitKind = 'none' | 'amount' | 'fraction of loss';

/** Rules 7, 8, 10, 11, 13, 36: a fixed deductible held between a minimum (deductible2) and a maximum (deductible3). */
function boundedDeductible(
  p: ProfileStep,
  out: Float64Array,
  inp: Float64Array,
  x: Extras,
  n: number,
  useMin: boolean,
  useMax: boolean,
  maxOnlyWhenPositive: boolean,
  limit: LimitKind,
): void {
  const maxLeft = p.deductible3 - p.deductible1;
  const minLeft = p.deductible2 - p.deductible1;
  for (let i = 0; i < n; i++) {
    if (useMax && x.ded[i] > maxLeft && (!maxOnlyWhenPositive || maxLeft > 0))
      deductibleOverMax(i, out, inp, x.ded, x.over, x.under, p.deductible3);
    else if (useMin && x.ded[i] < minLeft)
      deductibleUnderMin(i, out, inp, x.ded, x.over, x.under, p.deductible2, p.deductible1);
    else plainDeductible(i, p.deductible1, out, inp, x);
    if (limit === 'amount') cap(i, p.limit1, out, x);
    else if (limit === 'fraction of loss') cap(i, inp[i] * p.limit1, out, x);
  }
}

/** Rules 19, 26, 35: a deductible as a fraction of loss, held between a minimum and a maximum (when above 0). */
function boundedLossDeductible(
  p: ProfileStep,
  out: Float64Array,
  inp: Float64Array,
  x: Extras,
  n: number,
  limit: LimitKind,
): void {
  for (let i = 0; i < n; i++) {
    const effective = inp[i] * p.deductible1;
    if (effective + x.ded[i] > p.deductible3 && p.deductible3 > 0)
      deductibleOverMax(i, out, inp, x.ded, x.over, x.under, p.deductible3);
    else if (effective + x.ded[i] < p.deductible2)
      deductibleUnderMin(i, out, inp, x.ded, x.over, x.under, p.deductible2, effective);
    else plainDeductible(i, effective, out, inp, x);
    if (limit === 'amount') cap(i, p.limit1, out, x);
    else if (limit === 'fraction of loss') cap(i, inp[i] * p.limit1, out, x);
  }
}

/** Applies one profile step to n samples. */
export function applyStep(p: ProfileStep, out: Float64Array, inp: Float64Array, x: Extras, n: number): void {
  const { ded, over, under } = x;
  const rule = p.calcrule;
  if (rule > 100 && rule < 200) {
    applyStep({ ...p, calcrule: rule - 100 }, out, inp, x, n);
    for (let i = 0; i < n; i++) out[i] *= p.share1;
    return;
  }
  switch (rule) {
    case 1: {
      const lim = p.limit1 + p.deductible1;
      for (let i = 0; i < n; i++) {
        if (inp[i] <= p.deductible1) {
          under[i] = Math.min(under[i] + inp[i], p.limit1);
          ded[i] += inp[i];
          out[i] = 0;
        } else if (inp[i] <= lim) {
          under[i] = Math.min(under[i] + p.deductible1, lim - inp[i]);
          ded[i] += p.deductible1;
          out[i] = inp[i] - p.deductible1;
        } else {
          over[i] += inp[i] - lim;
          under[i] = 0;
          ded[i] += p.deductible1;
          out[i] = p.limit1;
        }
      }
      return;
    }
    case 2: {
      const dedAtt = p.deductible1 + p.attachment1;
      const lim = p.limit1 + dedAtt;
      for (let i = 0; i < n; i++) {
        if (inp[i] <= dedAtt) out[i] = 0;
        else if (inp[i] <= lim) out[i] = (inp[i] - dedAtt) * p.share1;
        else out[i] = p.limit1 * p.share1;
      }
      return;
    }
    case 3:
      for (let i = 0; i < n; i++) {
        if (inp[i] <= p.deductible1) {
          under[i] = Math.min(under[i] + inp[i], p.limit1);
          ded[i] += inp[i];
          out[i] = 0;
        } else if (inp[i] <= p.limit1) {
          under[i] = Math.min(under[i], p.limit1 - inp[i]);
          out[i] = inp[i];
        } else {
          under[i] = 0;
          over[i] += inp[i] - p.limit1;
          out[i] = p.limit1;
        }
      }
      return;
    case 5:
      for (let i = 0; i < n; i++) {
        const effDed = inp[i] * p.deductible1;
        const effLim = inp[i] * p.limit1;
        ded[i] += effDed;
        if (p.deductible1 + p.limit1 >= 1) {
          out[i] = inp[i] - effDed;
          under[i] = Math.min(effLim - out[i], under[i] + effDed);
        } else {
          out[i] = effLim;
          over[i] += inp[i] - effDed - effLim;
          under[i] = 0;
        }
      }
      return;
    case 7:
      return boundedDeductible(p, out, inp, x, n, true, true, false, 'amount');
    case 8:
      return boundedDeductible(p, out, inp, x, n, true, false, false, 'amount');
    case 10:
      return boundedDeductible(p, out, inp, x, n, false, true, false, 'none');
    case 11:
      return boundedDeductible(p, out, inp, x, n, true, false, false, 'none');
    case 13:
      return boundedDeductible(p, out, inp, x, n, true, true, false, 'none');
    case 36:
      return boundedDeductible(p, out, inp, x, n, true, true, true, 'fraction of loss');
    case 19:
      return boundedLossDeductible(p, out, inp, x, n, 'none');
    case 26:
      return boundedLossDeductible(p, out, inp, x, n, 'amount');
    case 35:
      return boundedLossDeductible(p, out, inp, x, n, 'fraction of loss');
    case 12:
      for (let i = 0; i < n; i++) plainDeductible(i, p.deductible1, out, inp, x);
      return;
    case 14:
      for (let i = 0; i < n; i++) {
        if (inp[i] <= p.limit1) {
          under[i] = Math.min(p.limit1 - inp[i], under[i]);
          out[i] = inp[i];
        } else {
          over[i] += inp[i] - p.limit1;
          under[i] = 0;
          out[i] = p.limit1;
        }
      }
      return;
    case 15: {
      const effLim = p.deductible1 / (1 - p.limit1);
      for (let i = 0; i < n; i++) {
        if (inp[i] <= p.deductible1) {
          under[i] = Math.min(effLim, under[i] + inp[i]);
          out[i] = 0;
          ded[i] += inp[i];
        } else if (inp[i] <= effLim) {
          under[i] = Math.min(effLim - inp[i], under[i] + p.deductible1);
          out[i] = inp[i] - p.deductible1;
          ded[i] += p.deductible1;
        } else {
          out[i] = inp[i] * p.limit1;
          ded[i] += p.deductible1;
          over[i] += inp[i] - out[i] - p.deductible1;
          under[i] = 0;
        }
      }
      return;
    }
    case 16:
      for (let i = 0; i < n; i++) {
        const effDed = inp[i] * p.deductible1;
        ded[i] += effDed;
        under[i] += effDed;
        out[i] = inp[i] - effDed;
      }
      return;
    case 17:
      if (p.deductible1 >= 1) {
        out.fill(0, 0, n);
        return;
      }
      for (let i = 0; i < n; i++) {
        const attachment = p.attachment1 / (1 - p.deductible1);
        const top = (p.attachment1 + p.limit1) / (1 - p.deductible1);
        if (inp[i] <= attachment) out[i] = 0;
        else if (inp[i] <= top) out[i] = (inp[i] - inp[i] * p.deductible1 - p.attachment1) * p.share1;
        else out[i] = p.limit1 * p.share1;
      }
      return;
    case 20:
      for (let i = 0; i < n; i++) out[i] = inp[i] > p.deductible1 ? 0 : inp[i];
      return;
    case 22: {
      if (p.share1 === 0) {
        out.fill(0, 0, n);
        return;
      }
      const preShareLimit = p.limit1 / p.share1;
      const all = p.share1 * p.share2 * p.share3;
      for (let i = 0; i < n; i++) out[i] = inp[i] <= preShareLimit ? inp[i] * all : p.limit1 * p.share2 * p.share3;
      return;
    }
    case 23: {
      const all = p.share2 * p.share3;
      for (let i = 0; i < n; i++) out[i] = inp[i] <= p.limit1 ? inp[i] * all : p.limit1 * all;
      return;
    }
    case 24: {
      if (p.share1 === 0) {
        out.fill(0, 0, n);
        return;
      }
      const attachment = p.attachment1 / p.share1;
      const top = (p.limit1 + p.attachment1) / p.share1;
      const all = p.share1 * p.share2 * p.share3;
      for (let i = 0; i < n; i++) {
        if (inp[i] <= attachment) out[i] = 0;
        else if (inp[i] <= top) out[i] = inp[i] * all - p.attachment1 * p.share2 * p.share3;
        else out[i] = p.limit1 * p.share2 * p.share3;
      }
      return;
    }
    case 25:
      for (let i = 0; i < n; i++) out[i] = inp[i] * (p.share1 * p.share2 * p.share3);
      return;
    case 27:
      if (p.stepId === 1) out.fill(0, 0, n);
      for (let i = 0; i < n; i++) {
        if ((inp[i] > 0 || ded[i] > 0) && p.triggerStart <= inp[i] && inp[i] < p.triggerEnd) out[i] += p.payoutStart;
      }
      return;
    case 28:
      if (p.stepId === 1) out.fill(0, 0, n);
      for (let i = 0; i < n; i++) {
        if (p.triggerStart <= inp[i] && inp[i] < p.triggerEnd) {
          const loss = Math.max(p.payoutStart * inp[i] - p.deductible1, 0);
          out[i] = (loss + Math.min(loss * p.scale2, p.limit2)) * p.scale1;
        }
      }
      return;
    case 281:
      if (p.stepId === 1) out.fill(0, 0, n);
      for (let i = 0; i < n; i++) {
        if (p.triggerStart <= inp[i] && inp[i] < p.triggerEnd)
          out[i] += Math.min(out[i] * p.scale2, p.limit2) * p.scale1;
      }
      return;
    case 32:
      if (p.stepId === 1) out.fill(0, 0, n);
      for (let i = 0; i < n; i++) {
        if (p.triggerStart <= inp[i]) {
          const loss = Math.min(p.payoutStart * inp[i], p.limit1);
          out[i] += (loss + Math.min(loss * p.scale2, p.limit2)) * p.scale1;
        }
      }
      return;
    case 33:
      if (p.deductible1 >= 1) {
        out.fill(0, 0, n);
        for (let i = 0; i < n; i++) ded[i] += inp[i];
        return;
      }
      for (let i = 0; i < n; i++) {
        const effDed = inp[i] * p.deductible1;
        ded[i] += effDed;
        if (inp[i] <= p.limit1 / (1 - p.deductible1)) {
          out[i] = inp[i] - effDed;
          under[i] = Math.min(under[i] + effDed, p.limit1 - out[i]);
        } else {
          over[i] += inp[i] - effDed - p.limit1;
          under[i] = 0;
          out[i] = p.limit1;
        }
      }
      return;
    case 34: {
      const dedAtt = p.deductible1 + p.attachment1;
      for (let i = 0; i < n; i++) out[i] = inp[i] <= dedAtt ? 0 : (inp[i] - dedAtt) * p.share1;
      return;
    }
    case 37:
      if (p.stepId === 1) out.fill(0, 0, n);
      for (let i = 0; i < n; i++) {
        if (p.triggerStart <= inp[i] && inp[i] < p.triggerEnd) {
          const loss = Math.min(Math.max(p.payoutStart * inp[i] - p.deductible1, 0), p.limit1);
          out[i] = (loss + Math.min(loss * p.scale2, p.limit2)) * p.scale1;
        }
      }
      return;
    case 38:
      if (p.stepId === 1) out.fill(0, 0, n);
      for (let i = 0; i < n; i++) {
        if (p.triggerStart <= inp[i] && inp[i] < p.triggerEnd)
          out[i] = (out[i] + Math.min(out[i] * p.scale2, p.limit2)) * p.scale1;
      }
      return;
    case 39:
      for (let i = 0; i < n; i++) {
        if (inp[i] <= p.deductible1) {
          under[i] += inp[i];
          ded[i] += inp[i];
          out[i] = 0;
        } else out[i] = inp[i];
      }
      return;
    case 40: {
      const lim = p.limit1 + p.deductible1;
      for (let i = 0; i < n; i++)
        out[i] = inp[i] <= p.deductible1 ? 0 : inp[i] <= lim ? inp[i] - p.deductible1 : p.limit1;
      return;
    }
    case 41:
      for (let i = 0; i < n; i++) out[i] = inp[i] <= p.limit1 ? inp[i] : p.limit1;
      return;
    case 100:
      out.set(inp.subarray(0, n));
      return;
    case 200:
      for (let i = 0; i < n; i++) out[i] = inp[i] * p.share1;
      return;
    default:
      // Every step was checked when the structure was built; rules 4, 6, 9, 18, 21, 29-31 are rewritten then.
      throw new CatintelError('internal_error', `calcrule_id ${rule} reached the financial module unprepared`);
  }
}
