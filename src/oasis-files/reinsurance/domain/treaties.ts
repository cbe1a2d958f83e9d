/**
 * OED ri_info and ri_scope rows read into treaties and scopes. Every field either changes the
 * reinsurance losses the way oasislmf 2.5.x applies it, or is descriptive (names, premium); a field
 * that would change the losses in a way we do not model is refused with its name and value, never
 * dropped (docs/loss-engine.md, "Reinsurance").
 */
import { CatintelError } from '../../../errors.js';
import { COVERED_BY } from '../../../oed/perils.js';
import {
  EXTRA_SCOPE_FIELDS,
  RISK_FIELDS,
  RISK_LEVEL_ORDER,
  type RiskLevel,
  type Scope,
  type ScopeField,
  type Treaty,
  type TreatyType,
} from './types.js';

export type CsvRecord = Record<string, string>;

const TREATY_TYPES: Record<string, TreatyType> = { FAC: 'FAC', QS: 'QS', SS: 'SS', PR: 'PR', CXL: 'CXL' };

/** ri_info fields that are read into the treaty. */
const USED_INFO_FIELDS = [
  'ReinsNumber',
  'ReinsPeril',
  'ReinsInceptionDate',
  'ReinsExpiryDate',
  'CededPercent',
  'RiskLimit',
  'RiskAttachment',
  'OccLimit',
  'OccAttachment',
  'PlacedPercent',
  'ReinsCurrency',
  'InuringPriority',
  'ReinsType',
  'AttachmentBasis',
  'RiskLevel',
];
/** ri_info fields that describe a treaty without changing its losses. */
const DESCRIPTIVE_INFO_FIELDS = [
  'ReinsName',
  'ReinsLayerNumber',
  'ReinsPremium',
  'DeemedPercentPlaced',
  'AggPeriod',
  'OEDVersion',
];
/**
 * ri_info fields that would change the losses in a way not modelled: accepted only at their OED
 * default (or empty), with the reason given when refused.
 */
const UNSUPPORTED_INFO_FIELDS: Record<string, { isDefault: (v: string) => boolean; why: string }> = {
  OccFranchiseDed: { isDefault: (v) => num(v) === 0, why: 'occurrence franchise deductibles are not modelled' },
  OccReverseFranchise: { isDefault: (v) => num(v) === 0, why: 'occurrence reverse franchises are not modelled' },
  AggLimit: {
    isDefault: (v) => num(v) === 0,
    why: 'aggregate (annual) limits need losses accumulated over a period, which the per-event FM does not do',
  },
  AggAttachment: {
    isDefault: (v) => num(v) === 0,
    why: 'aggregate (annual) attachments need losses accumulated over a period, which the per-event FM does not do',
  },
  Reinstatement: {
    isDefault: (v) => num(v) === 0,
    why: 'reinstatements need losses accumulated over a period, which the per-event FM does not do',
  },
  ReinstatementCharge: {
    isDefault: (v) => v.trim() === '',
    why: 'reinstatements need losses accumulated over a period, which the per-event FM does not do',
  },
  TreatyShare: {
    isDefault: (v) => num(v) === 1,
    why: 'oasislmf does not apply TreatyShare; put the share in PlacedPercent',
  },
  UseReinsDates: {
    isDefault: (v) => ['', 'N'].includes(v.trim().toUpperCase()),
    why: 'event dates are not modelled, so the treaty period cannot filter losses (AttachmentBasis RA filters policies by inception date)',
  },
  ReinsFXrate: {
    isDefault: (v) => num(v) === 1,
    why: 'currency conversion is not done; give the terms in the portfolio currency',
  },
  OriginalCurrency: {
    isDefault: (v) => v.trim() === '',
    why: 'currency conversion is not done; give the terms in the portfolio currency',
  },
  RateOfExchange: {
    isDefault: (v) => num(v) === 0 || num(v) === 1,
    why: 'currency conversion is not done; give the terms in the portfolio currency',
  },
};

const SCOPE_FIELDS: readonly ScopeField[] = [...RISK_FIELDS, ...EXTRA_SCOPE_FIELDS];
const KNOWN_SCOPE_FIELDS = new Set<string>(['ReinsNumber', ...SCOPE_FIELDS, 'CededPercent', 'OEDVersion']);

/** Empty is 0 for the "is it the default" checks; text that is not a number never equals a default. */
function num(v: string): number {
  return v.trim() === '' ? 0 : Number(v);
}

function numberField(rec: CsvRecord, field: string, fallback: number, where: string): number {
  const raw = (rec[field] ?? '').trim();
  if (raw === '') return fallback;
  const v = Number(raw);
  if (!Number.isFinite(v) || v < 0)
    throw new CatintelError(
      'invalid_input',
      `${where}: ${field} '${raw}' is not a non-negative number; give a number or leave it empty for the OED default (${fallback})`,
    );
  return v;
}

export function readTreaties(records: CsvRecord[]): Treaty[] {
  if (records.length === 0)
    throw new CatintelError(
      'invalid_input',
      'ri_info.csv has no treaties; give at least one row or leave out the reinsurance files',
    );
  const known = new Set([...USED_INFO_FIELDS, ...DESCRIPTIVE_INFO_FIELDS, ...Object.keys(UNSUPPORTED_INFO_FIELDS)]);
  const unknown = Object.keys(records[0]).filter((c) => !known.has(c));
  if (unknown.length)
    throw new CatintelError(
      'invalid_input',
      `ri_info.csv: column ${unknown.join(', ')} is not an OED ReinsInfo field; remove it or rename it to its OED name`,
    );
  return records.map((rec, i) => {
    const row = i + 2;
    const where = `ri_info.csv row ${row}`;
    const reinsNumber = (rec.ReinsNumber ?? '').trim();
    if (reinsNumber === '')
      throw new CatintelError('invalid_input', `${where}: ReinsNumber is empty; every treaty needs one`);
    for (const [field, rule] of Object.entries(UNSUPPORTED_INFO_FIELDS)) {
      const v = rec[field];
      if (v !== undefined && !rule.isDefault(v))
        throw new CatintelError(
          'invalid_input',
          `${where}: ${field} '${v}' (ReinsNumber ${reinsNumber}) is not supported: ${rule.why}; leave it empty`,
        );
    }
    const rawType = (rec.ReinsType ?? '').trim();
    const type = TREATY_TYPES[rawType];
    if (!type) {
      const why =
        rawType === 'AXL'
          ? 'aggregate excess of loss needs losses accumulated over a period, which the per-event FM does not do'
          : 'supported types are FAC, QS, SS, PR and CXL';
      throw new CatintelError(
        'invalid_input',
        `${where}: ReinsType '${rawType}' (ReinsNumber ${reinsNumber}) is not supported: ${why}`,
      );
    }
    const rawLevel = (rec.RiskLevel ?? '').trim();
    const riskLevel = (rawLevel === '' ? 'SEL' : rawLevel) as RiskLevel;
    if (!RISK_LEVEL_ORDER.includes(riskLevel))
      throw new CatintelError(
        'invalid_input',
        `${where}: RiskLevel '${rawLevel}' (ReinsNumber ${reinsNumber}) is not one of LOC, LGR, POL, ACC, SEL (empty means SEL)`,
      );
    const rawPriority = (rec.InuringPriority ?? '').trim();
    const inuringPriority = Number(rawPriority);
    if (!Number.isInteger(inuringPriority) || inuringPriority < 1)
      throw new CatintelError(
        'invalid_input',
        `${where}: InuringPriority '${rawPriority}' (ReinsNumber ${reinsNumber}) must be a whole number from 1`,
      );
    const rawBasis = (rec.AttachmentBasis ?? '').trim().toUpperCase();
    if (!['', 'LO', 'RA'].includes(rawBasis))
      throw new CatintelError(
        'invalid_input',
        `${where}: AttachmentBasis '${rec.AttachmentBasis}' (ReinsNumber ${reinsNumber}) must be LO (losses occurring) or RA (risks attaching)`,
      );
    return {
      row,
      reinsNumber,
      type,
      riskLevel,
      inuringPriority,
      cededPercent: numberField(rec, 'CededPercent', 1, where),
      riskLimit: numberField(rec, 'RiskLimit', 0, where),
      riskAttachment: numberField(rec, 'RiskAttachment', 0, where),
      occLimit: numberField(rec, 'OccLimit', 0, where),
      occAttachment: numberField(rec, 'OccAttachment', 0, where),
      placedPercent: numberField(rec, 'PlacedPercent', 1, where),
      attachmentBasis: rawBasis === 'RA' ? 'RA' : 'LO',
      inceptionDate: (rec.ReinsInceptionDate ?? '').trim(),
      expiryDate: (rec.ReinsExpiryDate ?? '').trim(),
    };
  });
}

export function readScopes(records: CsvRecord[], treaties: Treaty[]): Scope[] {
  if (records.length > 0) {
    const unknown = Object.keys(records[0]).filter((c) => !KNOWN_SCOPE_FIELDS.has(c));
    if (unknown.length)
      throw new CatintelError(
        'invalid_input',
        `ri_scope.csv: column ${unknown.join(', ')} is not an OED ReinsScope field; remove it or rename it to its OED name`,
      );
  }
  const numbers = new Set(treaties.map((t) => t.reinsNumber));
  const scopes = records.map((rec, i) => {
    const row = i + 2;
    const reinsNumber = (rec.ReinsNumber ?? '').trim();
    if (!numbers.has(reinsNumber))
      throw new CatintelError(
        'invalid_input',
        `ri_scope.csv row ${row}: ReinsNumber '${reinsNumber}' is not in ri_info.csv; every scope row belongs to a treaty`,
      );
    const fields = Object.fromEntries(SCOPE_FIELDS.map((f) => [f, rec[f] ?? ''])) as Record<ScopeField, string>;
    return { row, reinsNumber, fields, cededPercent: numberField(rec, 'CededPercent', 1, `ri_scope.csv row ${row}`) };
  });
  const scoped = new Set(scopes.map((s) => s.reinsNumber));
  const unscoped = treaties.find((t) => !scoped.has(t.reinsNumber));
  if (unscoped)
    throw new CatintelError(
      'invalid_input',
      `ri_info.csv row ${unscoped.row}: ReinsNumber ${unscoped.reinsNumber} has no row in ri_scope.csv, so it covers nothing; add a scope row (an empty one covers the whole portfolio) or remove the treaty`,
    );
  return scopes;
}

/**
 * The treaties must cover every peril the portfolio's outputs carry (ReinsPeril: codes or groups, ';'
 * separated, AA1 for all), because a treaty that covers only some perils would need per-peril losses
 * the reinsurance files do not separate.
 */
export function checkReinsPerils(records: CsvRecord[], treaties: Treaty[], perilIds: ReadonlySet<string>): void {
  treaties.forEach((t, i) => {
    const raw = (records[i].ReinsPeril ?? '').trim();
    const codes = new Set(
      raw
        .split(';')
        .map((c) => c.trim().toUpperCase())
        .filter(Boolean),
    );
    if (codes.size === 0)
      throw new CatintelError(
        'invalid_input',
        `ri_info.csv row ${t.row}: ReinsPeril is empty (ReinsNumber ${t.reinsNumber}); name the perils the treaty covers (AA1 for all)`,
      );
    for (const peril of perilIds) {
      const covered = codes.has('AA1') || codes.has(peril) || (COVERED_BY[peril] ?? []).some((c) => codes.has(c));
      if (!covered)
        throw new CatintelError(
          'invalid_input',
          `ri_info.csv row ${t.row}: ReinsPeril '${raw}' (ReinsNumber ${t.reinsNumber}) does not cover peril ${peril} of the portfolio; treaties limited to some perils are not supported, cover every modelled peril (AA1 for all)`,
        );
    }
  });
}

/**
 * Terms are amounts in ReinsCurrency, applied to losses in the portfolio's currency without
 * conversion: so the treaties must share one currency, and it must be the portfolio's when the
 * portfolio has one.
 */
export function checkReinsCurrency(
  records: CsvRecord[],
  treaties: Treaty[],
  portfolioCurrencies: ReadonlySet<string>,
): void {
  const currencies = new Set(records.map((r) => (r.ReinsCurrency ?? '').trim()).filter(Boolean));
  if (currencies.size > 1)
    throw new CatintelError(
      'invalid_input',
      `ri_info.csv: ReinsCurrency holds ${[...currencies].join(' and ')}; currency conversion is not done, give every treaty in one currency`,
    );
  const [currency] = [...currencies];
  if (currency && portfolioCurrencies.size === 1 && !portfolioCurrencies.has(currency)) {
    const t = treaties[records.findIndex((r) => (r.ReinsCurrency ?? '').trim() === currency)];
    throw new CatintelError(
      'invalid_input',
      `ri_info.csv row ${t.row}: ReinsCurrency '${currency}' is not the portfolio's currency (${[...portfolioCurrencies][0]}); currency conversion is not done, give the terms in the portfolio currency`,
    );
  }
}
