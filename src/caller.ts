/**
 * Who is calling and at which access tier. The auth code, the store's key table, saved locations and
 * reports all need these alongside the handlers, so they live below every layer (importable from anywhere).
 */
export const TIERS = ['free', 'agency', 'analyst', 'enterprise'] as const;
export type Tier = (typeof TIERS)[number];

export function tierAtLeast(have: Tier, need: Tier): boolean {
  return TIERS.indexOf(have) >= TIERS.indexOf(need);
}

/** Who is calling. The CLI is the operator on their own machine: enterprise tier, account `local`. */
export interface Caller {
  tier: Tier;
  account: string;
  clientIp?: string;
}
