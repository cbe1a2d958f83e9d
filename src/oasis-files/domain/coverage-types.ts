/**
 * OED coverage types as Oasis items carry them. A property book's items cover buildings, other
 * structures, contents and BI (1-4), each with its own TIV column of the location file. An account-only
 * cyber book has no location file: its items cover the nine cyber coverages (7-15) of each account,
 * every one valued at the account's AnnualRevenue, and its policy terms name each coverage by an OED
 * suffix (PolDedNPBI, PolLimitNPBI act on coverage 7). The combined types (5 property damage, 6 all,
 * 16 all cyber) are groups of these, never items.
 */
export const PROPERTY_COVERAGE_TYPES = [1, 2, 3, 4] as const;

export const CYBER_COVERAGE_TYPES = [7, 8, 9, 10, 11, 12, 13, 14, 15] as const;

/** Every coverage type an item can have: the types a term with no coverage of its own acts on. */
export const ITEM_COVERAGE_TYPES: readonly number[] = [...PROPERTY_COVERAGE_TYPES, ...CYBER_COVERAGE_TYPES];

/** The largest coverage type an item can have (arrays indexed by coverage type - 1 have this length). */
export const MAX_COVERAGE_TYPE = 15;

/** OED's suffix of each cyber coverage in the policy term fields (PolDed<suffix>, PolLimit<suffix>). */
export const CYBER_SUFFIX: Readonly<Record<number, string>> = {
  7: 'NPBI',
  8: 'CBI',
  9: 'DIAS',
  10: 'EXT',
  11: 'FIN',
  12: 'INRE',
  13: 'LIA',
  14: 'REG',
  15: 'ENO',
};

/** The account field every cyber coverage takes its TIV from. */
export const CYBER_TIV_FIELD = 'AnnualRevenue';
