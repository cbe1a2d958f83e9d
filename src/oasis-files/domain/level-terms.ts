/**
 * The terms one FM level reads from its OED file: which term groups carry terms, and one term row per
 * source row (location or account row) of every key (location or account) that has a term in the
 * group. Blank cells are the OED default. Flat amounts of an aggregate location (IsAggregate 1) are
 * split over its buildings, as its TIV is.
 */
import { CatintelError } from '../../errors.js';
import { oedDefault, noTermValue, type FmLevel, type TermGroup, type TermName } from './fm-levels.js';
import type { StepValues } from './step-policies.js';

export interface TermValues {
  deductible: number;
  deductibleMin: number;
  deductibleMax: number;
  limit: number;
  share: number;
  attachment: number;
  dedType: number;
  dedCode: number;
  limType: number;
  limCode: number;
}

/** The source file of a level as the FM builder needs it. */
export interface TermSource {
  rows: number;
  /** Location id (location file) or account id (account file) of each row. */
  key: Int32Array;
  /** Layer of each row: 1 for locations, the account's (PolNumber, LayerNumber) number for accounts. */
  layer: Int32Array;
  polNumber: (string | null)[];
  /** Risks an aggregate location row's flat terms are split over (1 when not aggregate). */
  risks: Float64Array;
  cols: Map<string, string[]>;
  file: string;
}

export interface TermRow {
  key: number;
  group: number;
  coverageTypes: readonly number[];
  layer: number;
  polNumber: string | null;
  fmPeril: string | null;
  values: TermValues;
  /** The step of a step policy this row is (step policies only). */
  step?: StepValues;
  /** True when the row is a step profile: numbered per node, its calc rule from the step rules. */
  isStep?: boolean;
}

const AMOUNT_TERMS: readonly TermName[] = [
  'deductible',
  'deductibleMin',
  'deductibleMax',
  'limit',
  'share',
  'attachment',
];
const BI_TYPES = new Set(['BIWaitingPeriodType', 'BIPOIType']);
const BI_AMOUNT_OF: Record<string, string> = { BIWaitingPeriodType: 'BIWaitingPeriod', BIPOIType: 'BIPOI' };

export function cellValue(src: TermSource, column: string, row: number): number {
  const cells = src.cols.get(column);
  const c = cells ? cells[row].trim() : '';
  if (c === '') return oedDefault(column);
  const v = Number(c);
  if (Number.isNaN(v))
    throw new CatintelError(
      'invalid_input',
      `the ${src.file} row ${row + 2}: ${column} "${c}" is not a number; write it as a plain number`,
    );
  return v;
}

/** True when the column holds a term on that row (a BI period type counts wherever its period column is given). */
function holdsTerm(src: TermSource, column: string, row: number): boolean {
  if (BI_TYPES.has(column)) return src.cols.has(BI_AMOUNT_OF[column]);
  if (!src.cols.has(column)) return false;
  return cellValue(src, column, row) !== noTermValue(column);
}

/** The columns of a group that hold a term on some row; empty when the group has no terms. */
export function termColumns(src: TermSource, g: TermGroup): [TermName, string][] {
  return (Object.entries(g.columns) as [TermName, string][]).filter(([, column]) => {
    for (let r = 0; r < src.rows; r++) if (holdsTerm(src, column, r)) return true;
    return false;
  });
}

export interface LevelTerms {
  rows: TermRow[];
  /** Term group of each coverage type that has one at this level. */
  groupOfCoverage: Map<number, number>;
  /** Amount terms present at this level (absent ones are 0 and play no part in the calc rule). */
  hasShare: boolean;
  /** Term group of a coverage type under one key, where it depends on the key (step policies). */
  groupOf?: (key: number, coverageType: number, peril: string | null) => number | undefined;
  /** Coverage types whose TIV a term in % of TIV takes, by group, where not the group's own. */
  tivCoverages?: Map<number, readonly number[]>;
}

export function levelTerms(level: FmLevel, src: TermSource): LevelTerms | null {
  const groupOfCoverage = new Map<number, number>();
  const rows: TermRow[] = [];
  let hasShare = false;
  const withTerms: { g: TermGroup; used: [TermName, string][] }[] = [];
  for (const g of level.groups) {
    const used = termColumns(src, g);
    if (used.length === 0) continue;
    // A participation left at its default joins a group only beside another term, at its default value.
    if (g.columns.share && !used.some(([t]) => t === 'share')) used.push(['share', g.columns.share]);
    withTerms.push({ g, used });
  }
  if (withTerms.length === 0) return null;
  const perilCells = level.perilField ? src.cols.get(level.perilField) : undefined;
  for (const { g, used } of withTerms) {
    if (used.some(([t]) => t === 'share')) hasShare = true;
    for (const c of g.coverageTypes) groupOfCoverage.set(c, g.group);
    // Every row of a key that has a term on any of its rows.
    const keys = new Set<number>();
    for (let r = 0; r < src.rows; r++) if (used.some(([, column]) => holdsTerm(src, column, r))) keys.add(src.key[r]);
    // Only a key on several rows can repeat a row: the others skip the comparison.
    const rowsOfKey = new Map<number, number>();
    for (let r = 0; r < src.rows; r++)
      if (keys.has(src.key[r])) rowsOfKey.set(src.key[r], (rowsOfKey.get(src.key[r]) ?? 0) + 1);
    const seen = new Set<string>();
    for (let r = 0; r < src.rows; r++) {
      const rowsOfThisKey = rowsOfKey.get(src.key[r]);
      if (rowsOfThisKey === undefined) continue;
      const values: TermValues = {
        deductible: 0,
        deductibleMin: 0,
        deductibleMax: 0,
        limit: 0,
        share: 0,
        attachment: 0,
        dedType: 0,
        dedCode: 0,
        limType: 0,
        limCode: 0,
      };
      for (const [t, column] of used) values[t] = cellValue(src, column, r);
      splitOverRisks(values, src.risks[r]);
      const row: TermRow = {
        key: src.key[r],
        group: g.group,
        coverageTypes: g.coverageTypes,
        layer: src.layer[r],
        polNumber: src.polNumber[r],
        fmPeril: perilCells ? perilCells[r].trim() : null,
        values,
      };
      if (rowsOfThisKey > 1) {
        const id = `${row.key}|${row.layer}|${row.polNumber}|${row.fmPeril}|${Object.values(values).join('|')}`;
        if (seen.has(id)) continue;
        seen.add(id);
      }
      rows.push(row);
    }
  }
  return { rows, groupOfCoverage, hasShare };
}

function splitOverRisks(v: TermValues, risks: number): void {
  if (risks === 1) return;
  for (const t of AMOUNT_TERMS) {
    if (t === 'share') continue;
    const flat = t === 'limit' ? v.limType === 0 : t === 'attachment' ? true : v.dedType === 0;
    if (flat) v[t] /= risks;
  }
}

/** A deductible or limit of 0 is no deductible or limit, whatever its type or code says. */
export function clearUnusedTypes(v: TermValues): void {
  if (v.deductible === 0) {
    v.dedType = 0;
    v.dedCode = 0;
  }
  if (v.limit === 0) {
    v.limType = 0;
    v.limCode = 0;
  }
}

/** A term that depends on the TIV under the node: % of TIV (type 2) or BI days (type 3). */
export function needsTiv(v: TermValues): boolean {
  return v.dedType === 2 || v.dedType === 3 || v.limType === 2 || v.limType === 3;
}
