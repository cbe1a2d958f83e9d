/**
 * The OED financial fields Oasis's file generation reads (its default location, account and step-policy
 * profiles), and which of them `oasis files` does not turn into FM terms (REFUSED_ACCOUNT_FIELDS; the
 * levels it builds are in fm-levels.ts, step policies in step-policies.ts). A field not built into FM terms here is refused when any row gives it a value other than its OED default, with the field named, so a
 * term is never dropped in silence. Type and code fields (LocDedType1Building, ...) only qualify an
 * amount, so they are judged through their amount field.
 */
const COVERAGES = ['1Building', '2Other', '3Contents', '4BI', '5PD', '6All'];
const AMOUNTS = ['Ded', 'MinDed', 'MaxDed', 'Limit'];

function byCoverage(prefix: string, coverages = COVERAGES): string[] {
  return AMOUNTS.flatMap((a) => coverages.map((c) => `${prefix}${a}${c}`));
}

/** Location-file amount fields with their OED default. */
export const LOCATION_TERM_FIELDS: Readonly<Record<string, number>> = Object.fromEntries([
  ...byCoverage('Loc').map((f) => [f, 0] as const),
  // Oasis reads BIPOI as 0 when absent or blank (no period-of-indemnity limit), not OED's 365.
  ['BIPOI', 0],
  ['BIWaitingPeriod', 0],
]);

const CYBER = ['NPBI', 'CBI', 'DIAS', 'EXT', 'FIN', 'INRE', 'LIA', 'REG', 'ENO'];

/** Account-file amount fields with their OED default. */
export const ACCOUNT_TERM_FIELDS: Readonly<Record<string, number>> = Object.fromEntries([
  ...byCoverage('Cond').map((f) => [f, 0] as const),
  ...byCoverage('Pol').map((f) => [f, 0] as const),
  ...CYBER.flatMap(
    (c) =>
      [
        [`PolDed${c}`, 0],
        [`PolLimit${c}`, 0],
      ] as const,
  ),
  ['PolDed', 0],
  ['LayerAttachment', 0],
  ['LayerLimit', 0],
  ['LayerParticipation', 1],
  ...['AccDed6All', 'AccMinDed6All', 'AccMaxDed6All', 'AccLimit6All'].map((f) => [f, 0] as const),
  ['AccParticipation', 1],
]);

/** Condition terms: they act only through a condition, so an account file that names none cannot apply them. */
export const CONDITION_TERM_FIELDS: Readonly<Record<string, number>> = Object.fromEntries(
  byCoverage('Cond').map((f) => [f, 0] as const),
);

/** Step-policy fields, read for the policy all level when some row has StepNumber > 0 (step-policies.ts). */
export const STEP_POLICY_FIELDS = [
  'StepTriggerType',
  'StepNumber',
  'DebrisRemovalFactor',
  'DeductibleBuilding',
  'DeductibleBuildingContents',
  'DeductibleContents',
  'ExtraExpenseFactor',
  'ExtraExpenseLimit',
  'PayOutBuildingEnd',
  'PayOutBuildingStart',
  'PayOutBuildingContentsEnd',
  'PayOutBuildingContentsStart',
  'PayOutContentsEnd',
  'PayOutContentsStart',
  'PayOutLimitBuilding',
  'PayOutLimitBuildingContents',
  'PayOutLimitContents',
  'PayOutType',
  'TriggerBuildingEnd',
  'TriggerBuildingStart',
  'TriggerBuildingContentsEnd',
  'TriggerBuildingContentsStart',
  'TriggerContentsEnd',
  'TriggerContentsStart',
  'TriggerType',
] as const;

/** True when a cell holds a value other than the field's default (blank is the default). */
export function departsFromDefault(cell: string, fallback: number): boolean {
  const t = cell.trim();
  if (t === '') return false;
  const v = Number(t);
  return Number.isNaN(v) ? true : v !== fallback;
}

/**
 * Account fields refused beside a location file: the cyber policy terms act on the cyber coverages
 * (7-15) of an account-only book, which a property book's items never have.
 */
export const REFUSED_ACCOUNT_FIELDS: Readonly<Record<string, number>> = Object.fromEntries([
  ...CYBER.flatMap(
    (c) =>
      [
        [`PolDed${c}`, 0],
        [`PolLimit${c}`, 0],
      ] as const,
  ),
  ['PolDed', 0],
]);

/**
 * Account fields refused in an account-only (cyber) book: the property, condition and step terms act
 * on coverages 1-4 or on locations, which such a book has none of.
 */
export const PROPERTY_ACCOUNT_FIELDS: Readonly<Record<string, number>> = Object.fromEntries([
  ...byCoverage('Cond').map((f) => [f, 0] as const),
  ...byCoverage('Pol').map((f) => [f, 0] as const),
  ...['AccDed6All', 'AccMinDed6All', 'AccMaxDed6All', 'AccLimit6All'].map((f) => [f, 0] as const),
  ['AccParticipation', 1],
  ['CondTag', 0],
  ['CondNumber', 0],
  ['StepTriggerType', 0],
  ['StepNumber', 0],
]);

/**
 * Cyber account fields that OED defines but Oasis builds into no FM term (a self-insured retention,
 * aggregate layer terms, a BI waiting period and period of indemnity on the account): refused when
 * set, rather than dropped in silence.
 */
export const UNBUILT_CYBER_FIELDS: Readonly<Record<string, number>> = {
  PolSIR: 0,
  LayerAggAttachment: 0,
  LayerAggLimit: 0,
  BIWaitingPeriod: 0,
  BIPOI: 0,
};
