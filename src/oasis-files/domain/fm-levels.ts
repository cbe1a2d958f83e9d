/**
 * The FM levels Oasis builds from OED files, bottom to top, with the columns each reads. A level is
 * written only when some row gives one of its terms a value other than the OED default; a level
 * without terms is left out, so level numbers in fm_programme count only the levels written (the
 * policy layer is the exception: it is always written, so every account has one node there).
 *
 * Within a level, a term group is the set of coverage types one set of columns acts on: the site
 * coverage level has one group per coverage type (LocDed1Building acts on buildings only), the site
 * PD level one group for buildings, other and contents together.
 *
 * An account-only cyber book climbs the same policy levels: its policy coverage level has one group per
 * cyber coverage (PolDedNPBI, PolLimitNPBI act on coverage 7), its policy all level a second group for
 * PolDed over all nine; the layer and account levels act on every coverage an item can have.
 *
 * The condition levels read the account file too, but their nodes are conditions (an account's rows
 * that share a CondTag), and they are built once per nesting stage of the conditions (condition-stages.ts).
 */
import { CYBER_COVERAGE_TYPES, CYBER_SUFFIX, ITEM_COVERAGE_TYPES } from './coverage-types.js';

export type TermName =
  | 'deductible'
  | 'deductibleMin'
  | 'deductibleMax'
  | 'limit'
  | 'share'
  | 'attachment'
  | 'dedType'
  | 'dedCode'
  | 'limType'
  | 'limCode';

export interface TermGroup {
  group: number;
  coverageTypes: readonly number[];
  /** OED column of each term the group reads. */
  columns: Partial<Record<TermName, string>>;
}

export interface FmLevel {
  /** Oasis's level number (its calc rule table and rules depend on it, not the written level_id). */
  id: number;
  name: string;
  source: 'location' | 'account' | 'condition';
  /** The OED column naming the perils a row's terms apply to, when the level filters by peril. */
  perilField?: string;
  groups: readonly TermGroup[];
}

export const SITE_ITEM = 1;
export const POLICY_LAYER = 11;
export const ACCOUNT_ALL = 14;

const ALL = [1, 2, 3, 4] as const;
const PD = [1, 2, 3] as const;
const COVERAGE_SUFFIX: Record<number, string> = { 1: '1Building', 2: '2Other', 3: '3Contents', 4: '4BI' };

function standard(prefix: string, suffix: string): TermGroup['columns'] {
  return {
    deductible: `${prefix}Ded${suffix}`,
    dedCode: `${prefix}DedCode${suffix}`,
    dedType: `${prefix}DedType${suffix}`,
    deductibleMin: `${prefix}MinDed${suffix}`,
    deductibleMax: `${prefix}MaxDed${suffix}`,
    limit: `${prefix}Limit${suffix}`,
    limCode: `${prefix}LimitCode${suffix}`,
    limType: `${prefix}LimitType${suffix}`,
  };
}

function byCoverage(prefix: string): TermGroup[] {
  return ALL.map((c) => ({ group: c, coverageTypes: [c], columns: standard(prefix, COVERAGE_SUFFIX[c]) }));
}

/** The policy terms of each cyber coverage: a deductible and a limit, flat amounts (OED has no type or code for them). */
const CYBER_POLICY_COVERAGE: TermGroup[] = CYBER_COVERAGE_TYPES.map((c) => ({
  group: c,
  coverageTypes: [c],
  columns: { deductible: `PolDed${CYBER_SUFFIX[c]}`, limit: `PolLimit${CYBER_SUFFIX[c]}` },
}));

export const FM_LEVELS: readonly FmLevel[] = [
  {
    id: SITE_ITEM,
    name: 'site item',
    source: 'location',
    groups: [
      {
        group: 1,
        coverageTypes: [4],
        columns: {
          limit: 'BIPOI',
          limType: 'BIPOIType',
          deductible: 'BIWaitingPeriod',
          dedType: 'BIWaitingPeriodType',
        },
      },
    ],
  },
  { id: 2, name: 'site coverage', source: 'location', perilField: 'LocPeril', groups: byCoverage('Loc') },
  {
    id: 3,
    name: 'site pd',
    source: 'location',
    perilField: 'LocPeril',
    groups: [{ group: 1, coverageTypes: PD, columns: standard('Loc', '5PD') }],
  },
  {
    id: 4,
    name: 'site all',
    source: 'location',
    perilField: 'LocPeril',
    groups: [{ group: 1, coverageTypes: ALL, columns: standard('Loc', '6All') }],
  },
  { id: 5, name: 'condition coverage', source: 'condition', perilField: 'CondPeril', groups: byCoverage('Cond') },
  {
    id: 6,
    name: 'condition pd',
    source: 'condition',
    perilField: 'CondPeril',
    groups: [{ group: 5, coverageTypes: PD, columns: standard('Cond', '5PD') }],
  },
  {
    id: 7,
    name: 'condition all',
    source: 'condition',
    perilField: 'CondPeril',
    groups: [{ group: 1, coverageTypes: ALL, columns: standard('Cond', '6All') }],
  },
  {
    id: 8,
    name: 'policy coverage',
    source: 'account',
    perilField: 'PolPeril',
    groups: [...byCoverage('Pol'), ...CYBER_POLICY_COVERAGE],
  },
  {
    id: 9,
    name: 'policy pd',
    source: 'account',
    perilField: 'PolPeril',
    groups: [{ group: 5, coverageTypes: PD, columns: standard('Pol', '5PD') }],
  },
  {
    id: 10,
    name: 'policy all',
    source: 'account',
    perilField: 'PolPeril',
    groups: [
      { group: 1, coverageTypes: ALL, columns: standard('Pol', '6All') },
      { group: 2, coverageTypes: CYBER_COVERAGE_TYPES, columns: { deductible: 'PolDed' } },
    ],
  },
  {
    id: POLICY_LAYER,
    name: 'policy layer',
    source: 'account',
    groups: [
      {
        group: 1,
        coverageTypes: ITEM_COVERAGE_TYPES,
        columns: { attachment: 'LayerAttachment', limit: 'LayerLimit', share: 'LayerParticipation' },
      },
    ],
  },
  {
    id: ACCOUNT_ALL,
    name: 'account all',
    source: 'account',
    perilField: 'AccPeril',
    groups: [
      {
        group: 1,
        coverageTypes: ITEM_COVERAGE_TYPES,
        columns: { ...standard('Acc', '6All'), share: 'AccParticipation' },
      },
    ],
  },
];

/** OED defaults of the term columns: participations are whole (1), every other amount, type and code 0. */
export function oedDefault(column: string): number {
  if (column === 'LayerParticipation' || column === 'AccParticipation') return 1;
  if (column === 'BIPOI') return 365;
  if (column === 'BIWaitingPeriodType' || column === 'BIPOIType') return 3;
  return 0;
}

/**
 * The value a column must differ from to count as a term. BIPOI is the one column where this is not
 * its OED default: any period of indemnity, the default 365 days included, limits BI, so a location
 * file that has the column puts a limit on every BI item.
 */
export function noTermValue(column: string): number {
  if (column === 'BIPOI') return 0;
  return oedDefault(column);
}

export const ALL_TERM_COLUMNS: readonly string[] = [
  ...new Set(
    FM_LEVELS.flatMap((l) => [
      ...(l.perilField ? [l.perilField] : []),
      ...l.groups.flatMap((g) => Object.values(g.columns)),
    ]),
  ),
];
