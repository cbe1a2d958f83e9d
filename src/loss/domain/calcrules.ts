/**
 * FM calc rules (ktools "Financial Module" calcrule ids, as fm_profile names them). Each maps one
 * aggregated loss to the loss after the profile's terms. Only the rules below are supported; any
 * other id is refused before the run starts (docs/loss-engine.md lists them).
 */
import { CatintelError } from '../../errors.js';
import type { Profile } from './types.js';

export const SUPPORTED_CALCRULES: Record<number, string> = {
  1: 'deductible and limit',
  2: 'deductible, attachment, limit and share',
  3: 'franchise deductible and limit',
  12: 'deductible only',
  14: 'limit only',
  16: 'deductible as a fraction of loss',
  100: 'no terms (pass-through)',
};

export function checkCalcrule(profileId: number, p: Profile): void {
  if (!(p.calcrule in SUPPORTED_CALCRULES)) {
    const list = Object.entries(SUPPORTED_CALCRULES).map(([id, what]) => `${id} (${what})`).join(', ');
    throw new CatintelError('invalid_input', `fm_profile.csv: profile_id ${profileId} uses calcrule_id ${p.calcrule}, which catintel oasis run does not support; supported calc rules: ${list}`);
  }
}

export function applyCalcrule(p: Profile, loss: number): number {
  switch (p.calcrule) {
    case 1:
      return Math.min(Math.max(loss - p.deductible1, 0), p.limit1);
    case 2: {
      const afterDed = Math.max(loss - p.deductible1, 0);
      if (afterDed <= p.attachment1) return 0;
      return Math.min(afterDed - p.attachment1, p.limit1) * p.share1;
    }
    case 3:
      return loss > p.deductible1 ? Math.min(loss, p.limit1) : 0;
    case 12:
      return Math.max(loss - p.deductible1, 0);
    case 14:
      return Math.min(loss, p.limit1);
    case 16:
      return loss - loss * p.deductible1;
    case 100:
      return loss;
    default:
      // checkCalcrule ran on every profile before the run.
      throw new CatintelError('internal_error', `calcrule_id ${p.calcrule} reached the kernel unchecked`);
  }
}
