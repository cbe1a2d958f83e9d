/**
 * P(ln Y > ln x) for a lognormal ground motion truncated at ±3σ, as the NSHM hazard code does: no ground
 * motion beyond median·e^{3σ}, and the distribution renormalised over [−3σ, 3σ].
 */
import { normalCdf } from '../../../lib/numerics/normal.js';

export const TRUNCATION_SIGMAS = 3;
const PHI_HI = normalCdf(TRUNCATION_SIGMAS);
const PHI_LO = normalCdf(-TRUNCATION_SIGMAS);

export function exceedanceProbability(lnX: number, lnMedian: number, sigma: number): number {
  const z = (lnX - lnMedian) / sigma;
  if (z >= TRUNCATION_SIGMAS) return 0;
  if (z <= -TRUNCATION_SIGMAS) return 1;
  return (PHI_HI - normalCdf(z)) / (PHI_HI - PHI_LO);
}
