/**
 * One step of an fm_profile row: the calc rule and its terms. A plain profile has one step; a step
 * policy (fm_profile with step_id and the trigger/payout columns) has one per step_id, applied in
 * file order to the same loss.
 *
 * Before a run, terms given as a share of the TIV or of the limit are turned into amounts and a few
 * rules are rewritten as the rule they then equal (4 -> 1, 6 -> 12, 18 -> 2, 21 -> 13, 9 -> 1, 15
 * with a limit of 100% -> 12, 29/30/31 -> 27), as the Oasis financial module does when it builds its
 * structure. Preparing mutates the step: a profile shared by several nodes is prepared once per node,
 * which matters only for the few rules whose preparation is not idempotent (as in Oasis).
 */
export interface ProfileStep {
  profileId: number;
  calcrule: number;
  deductible1: number;
  deductible2: number;
  deductible3: number;
  attachment1: number;
  limit1: number;
  share1: number;
  share2: number;
  share3: number;
  stepId: number;
  triggerStart: number;
  triggerEnd: number;
  payoutStart: number;
  payoutEnd: number;
  limit2: number;
  scale1: number;
  scale2: number;
}

/** Rules whose terms depend on the TIV under the node: each node using them gets its own copy of the profile. */
export const TIV_RULES = new Set([4, 6, 18, 27, 28, 29, 30, 31, 32, 37]);

/**
 * Rules that carry the deductible, over-limit and under-limit amounts from level to level (minimum and
 * maximum deductibles need to know how much deductible was already taken below, and how much loss was
 * cut by limits below, to give it back).
 */
export const EXTRAS_RULES = new Set([
  7, 8, 10, 11, 13, 19, 26, 27, 35, 36, 107, 108, 110, 111, 113, 119, 126, 135, 136,
]);

const TIV_SCALED_TRIGGER_RULES = new Set([27, 28, 29, 30, 31, 37, 38]);

function scaleTrigger(p: ProfileStep, tiv: number): void {
  p.triggerStart *= tiv;
  // A trigger end of 1 (100% of TIV) means no upper bound.
  p.triggerEnd = p.triggerEnd === 1 ? Infinity : p.triggerEnd * tiv;
}

export function prepareSimple(p: ProfileStep, tiv: number): void {
  switch (p.calcrule) {
    case 4:
      p.calcrule = 1;
      p.deductible1 *= tiv;
      break;
    case 6:
      p.calcrule = 12;
      p.deductible1 *= tiv;
      break;
    case 18:
      p.calcrule = 2;
      p.deductible1 *= tiv;
      break;
    case 21:
      p.calcrule = 13;
      p.deductible1 *= tiv;
      break;
    case 9:
      p.calcrule = 1;
      p.deductible1 *= p.limit1;
      break;
    case 15:
      if (p.limit1 >= 1) p.calcrule = 12;
      break;
  }
}

/** A fixed payout (rules 27, 29, 30, 31) is known once the TIV is: its amount, with the extra-expense share. */
function fixedPayout(p: ProfileStep, base: number): number {
  const loss = Math.max(base - p.deductible1, 0);
  return (loss + Math.min(loss * p.scale2, p.limit2)) * (1 + p.scale1);
}

export function prepareStepped(p: ProfileStep, tiv: number): void {
  if (TIV_SCALED_TRIGGER_RULES.has(p.calcrule)) scaleTrigger(p, tiv);
  switch (p.calcrule) {
    case 27: {
      const loss = Math.min(Math.max(p.payoutStart * tiv - p.deductible1, 0), p.limit1);
      p.payoutStart = (loss + Math.min(loss * p.scale2, p.limit2)) * (1 + p.scale1);
      break;
    }
    case 28:
      p.scale1 += 1;
      // A % of loss step with no payout is the older spelling of a conditional coverage.
      if (p.payoutStart === 0) p.calcrule = 281;
      break;
    case 29:
      p.calcrule = 27;
      p.payoutStart = fixedPayout(p, p.payoutStart * tiv);
      break;
    case 30:
      p.calcrule = 27;
      p.payoutStart = fixedPayout(p, p.payoutStart * p.limit1);
      break;
    case 31:
      p.calcrule = 27;
      p.payoutStart = fixedPayout(p, p.payoutStart);
      break;
    case 32:
    case 37:
    case 38:
      p.scale1 += 1;
      break;
    default:
      prepareSimple(p, tiv);
  }
}

// Terms are compared at single precision, the precision Oasis stores them in.
const FLOAT32_EPSILON = 1.1920928955078125e-7;
const near = (a: number, b: number): boolean => Math.abs(a - b) < FLOAT32_EPSILON;

/** A step that leaves every loss as it is: the node's profile is then skipped altogether. */
export function doesNothing(p: ProfileStep): boolean {
  return (
    p.calcrule === 100 ||
    (p.calcrule === 12 && near(p.deductible1, 0)) ||
    (p.calcrule === 15 && near(p.limit1, 1)) ||
    (p.calcrule === 16 && near(p.deductible1, 0)) ||
    (p.calcrule === 34 && near(p.deductible1, 0) && near(p.attachment1, 0) && near(p.share1, 1))
  );
}
