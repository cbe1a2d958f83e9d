/** The shapes the reinsurance layer generator reads and writes: one concept, no I/O. */

export const RISK_FIELDS = ['PortNumber', 'AccNumber', 'PolNumber', 'LocGroup', 'LocNumber'] as const;
export type RiskField = (typeof RISK_FIELDS)[number];

/** Scope fields that narrow a treaty beyond the risk hierarchy. */
export const EXTRA_SCOPE_FIELDS = ['CedantName', 'ProducerName', 'LOB', 'CountryCode', 'ReinsTag'] as const;
export type ExtraScopeField = (typeof EXTRA_SCOPE_FIELDS)[number];

export type ScopeField = RiskField | ExtraScopeField;

export type TreatyType = 'FAC' | 'QS' | 'SS' | 'PR' | 'CXL';
/** OED RiskLevel codes; an empty RiskLevel is the whole portfolio (SEL). */
export type RiskLevel = 'LOC' | 'LGR' | 'POL' | 'ACC' | 'SEL';

/** The order oasislmf walks risk levels within one inuring priority: it numbers the RI_n folders. */
export const RISK_LEVEL_ORDER: readonly RiskLevel[] = ['LOC', 'LGR', 'POL', 'ACC', 'SEL'];

/** One ri_info row after defaults (empty numbers take the OED default). */
export interface Treaty {
  /** 1-based row of ri_info.csv, for messages. */
  row: number;
  reinsNumber: string;
  type: TreatyType;
  riskLevel: RiskLevel;
  inuringPriority: number;
  cededPercent: number;
  riskLimit: number;
  riskAttachment: number;
  occLimit: number;
  occAttachment: number;
  placedPercent: number;
  /** 'LO' losses occurring (every policy) or 'RA' risks attaching (policies incepting within the treaty dates). */
  attachmentBasis: 'LO' | 'RA';
  inceptionDate: string;
  expiryDate: string;
}

/** One ri_scope row: which risks a treaty covers. Empty fields match anything. */
export interface Scope {
  row: number;
  reinsNumber: string;
  fields: Record<ScopeField, string>;
  /** The share of each scoped risk a surplus treaty takes. */
  cededPercent: number;
}

/**
 * One output of the direct insurance (a row of fm_summary_map) with the OED fields a scope can name:
 * the location's LocGroup, CountryCode and ReinsTag, and the policy's CedantName, ProducerName, LOB and
 * inception date.
 */
export interface RiskRow {
  outputId: number;
  /** Rows are taken in agg_id order (stable), as the direct programme lists them. */
  aggId: number;
  fields: Record<ScopeField, string>;
  polInceptionDate: string;
}

export interface ProfileRow {
  profileId: number;
  calcruleId: number;
  deductible1: number;
  deductible2: number;
  deductible3: number;
  attachment1: number;
  limit1: number;
  share1: number;
  share2: number;
  share3: number;
}

/** The four Oasis FM files of one reinsurance inuring layer (RI_n/). */
export interface ReinsuranceLayerFiles {
  inuringPriority: number;
  riskLevel: RiskLevel;
  programme: { fromAggId: number; levelId: number; toAggId: number }[];
  profiles: ProfileRow[];
  policytc: { levelId: number; aggId: number; layerId: number; profileId: number }[];
  xref: { output: number; aggId: number; layerId: number }[];
}
