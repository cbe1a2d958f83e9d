/**
 * How each treaty type becomes FM profiles, at the two levels that carry terms: the risk level (one
 * node per risk: location, policy, account, location group or portfolio) and the programme level (one
 * node for the whole inuring layer). These are the terms oasislmf 2.5.x writes, so the files and the
 * losses match its own acceptance cases.
 *
 *   FAC  risk:      excess of RiskAttachment, up to RiskLimit, CededPercent ceded, PlacedPercent placed
 *   PR   risk:      excess of RiskAttachment, up to RiskLimit, CededPercent ceded
 *        programme: excess of OccAttachment, up to OccLimit, PlacedPercent placed
 *   QS   risk:      up to RiskLimit, CededPercent ceded
 *        programme: up to OccLimit, PlacedPercent placed
 *   SS   risk:      excess of RiskAttachment, up to RiskLimit, the scope row's CededPercent ceded
 *        programme: up to OccLimit, PlacedPercent placed
 *   CXL  programme: excess of OccAttachment, up to OccLimit, CededPercent ceded, PlacedPercent placed
 *
 * A limit of 0 means unlimited (the OED default), written as oasislmf's large value.
 */
import type { ProfileRow, Scope, Treaty, TreatyType } from './types.js';

/** What oasislmf writes for "no limit". */
export const UNLIMITED = 9999999999999;

/** Calc rules of the reinsurance profiles (fmpy numbering). */
export const CALCRULE = {
  deductibleOnly: 12,
  limitOnly: 14,
  occurrenceLimitAndShare: 23,
  excessOfLoss: 24,
} as const;

/** Every filter and risk node starts closed (limit 0: nothing ceded) until a scope opens it. */
export const NO_LOSS_PROFILE_ID = 1;
/** Nodes a scope selects, and levels without terms, pass their loss through (deductible 0). */
export const PASSTHROUGH_PROFILE_ID = 2;

export const BASE_PROFILES: ProfileRow[] = [
  {
    profileId: NO_LOSS_PROFILE_ID,
    calcruleId: CALCRULE.limitOnly,
    deductible1: 0,
    deductible2: 0,
    deductible3: 0,
    attachment1: 0,
    limit1: 0,
    share1: 0,
    share2: 0,
    share3: 0,
  },
  {
    profileId: PASSTHROUGH_PROFILE_ID,
    calcruleId: CALCRULE.deductibleOnly,
    deductible1: 0,
    deductible2: 0,
    deductible3: 0,
    attachment1: 0,
    limit1: 0,
    share1: 0,
    share2: 0,
    share3: 0,
  },
];

export type TermLevel = 'risk' | 'programme';

/** One contract's row as the generator sees it: the treaty with one of its scope rows. */
export interface Contract {
  treaty: Treaty;
  scope: Scope;
  layerId: number;
}

interface Terms {
  calcruleId: number;
  attachment1: number;
  limit1: number;
  share1: number;
  share2: number;
}

/**
 * The terms of a contract at a level, or undefined when its type has none there (the nodes then pass
 * the loss through). `key` lists exactly the OED values the terms come from: contracts with equal
 * keys share one profile.
 */
export function termsAt(type: TreatyType, level: TermLevel, c: Contract): { key: number[]; terms: Terms } | undefined {
  const t = c.treaty;
  const limit = (v: number): number => (v === 0 ? UNLIMITED : v);
  if (level === 'risk') {
    switch (type) {
      case 'FAC':
        return {
          key: [t.riskAttachment, t.riskLimit, t.cededPercent, t.placedPercent],
          terms: {
            calcruleId: CALCRULE.excessOfLoss,
            attachment1: t.riskAttachment,
            limit1: limit(t.riskLimit),
            share1: t.cededPercent,
            share2: t.placedPercent,
          },
        };
      case 'PR':
        return {
          key: [t.riskAttachment, t.riskLimit, t.cededPercent],
          terms: {
            calcruleId: CALCRULE.excessOfLoss,
            attachment1: t.riskAttachment,
            limit1: limit(t.riskLimit),
            share1: t.cededPercent,
            share2: 1,
          },
        };
      case 'QS':
        return {
          key: [t.riskLimit, t.cededPercent],
          terms: {
            calcruleId: CALCRULE.excessOfLoss,
            attachment1: 0,
            limit1: limit(t.riskLimit),
            share1: t.cededPercent,
            share2: 1,
          },
        };
      case 'SS':
        return {
          key: [t.riskAttachment, t.riskLimit, c.scope.cededPercent],
          terms: {
            calcruleId: CALCRULE.excessOfLoss,
            attachment1: t.riskAttachment,
            limit1: limit(t.riskLimit),
            share1: c.scope.cededPercent,
            share2: 1,
          },
        };
      case 'CXL':
        return undefined;
    }
  }
  switch (type) {
    case 'FAC':
      return undefined;
    case 'PR':
      return {
        key: [t.occAttachment, t.occLimit, t.placedPercent],
        terms: {
          calcruleId: CALCRULE.excessOfLoss,
          attachment1: t.occAttachment,
          limit1: limit(t.occLimit),
          share1: 1,
          share2: t.placedPercent,
        },
      };
    case 'QS':
    case 'SS':
      return {
        key: [t.occLimit, t.placedPercent],
        terms: {
          calcruleId: CALCRULE.occurrenceLimitAndShare,
          attachment1: 0,
          limit1: limit(t.occLimit),
          share1: 0,
          share2: t.placedPercent,
        },
      };
    case 'CXL':
      return {
        key: [t.occAttachment, t.occLimit, t.cededPercent, t.placedPercent],
        terms: {
          calcruleId: CALCRULE.excessOfLoss,
          attachment1: t.occAttachment,
          limit1: limit(t.occLimit),
          share1: t.cededPercent,
          share2: t.placedPercent,
        },
      };
  }
}

export function profileOf(profileId: number, terms: Terms): ProfileRow {
  return {
    profileId,
    calcruleId: terms.calcruleId,
    deductible1: 0,
    deductible2: 0,
    deductible3: 0,
    attachment1: terms.attachment1,
    limit1: terms.limit1,
    share1: terms.share1,
    share2: terms.share2,
    share3: 1,
  };
}

/** The order oasislmf gives profile ids: treaty types in this order, risk level before programme level. */
export const TYPE_ORDER: readonly TreatyType[] = ['FAC', 'PR', 'QS', 'SS', 'CXL'];

/** FAC and surplus treaties name exactly the risks they cover; the others also reach the risks below a broader scope. */
export const EXACT_MATCH_TYPES: ReadonlySet<TreatyType> = new Set(['FAC', 'SS']);
