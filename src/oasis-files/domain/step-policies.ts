/**
 * Step policies (StepTriggerType, StepNumber and the Trigger / PayOut / Deductible columns of the
 * account file) as Oasis builds them into the policy all level. A step policy pays by steps of the
 * damage ratio rather than by deductible and limit: each step is one row of the account file, and all
 * steps of one policy node share one profile (one fm_profile row per step).
 *
 * When any account row has a StepNumber above 0, the policy all level is built from every account row:
 *   - rows without a step policy (StepTriggerType blank or 0) give one term row acting on every
 *     coverage, with the level's ordinary terms (PolDed6All, PolLimit6All, ...);
 *   - rows of trigger type s give one term row per coverage group of s (the trigger type decides how
 *     coverages are grouped, and which groups take the step terms; the others are excluded by a step
 *     profile without terms, calc rule 14, or for BI passed through);
 *   - every term row of a step group is a step profile, numbered per node (account, group, peril list,
 *     layer) before the level's ordinary profiles, which are numbered by their terms as elsewhere.
 * Where several columns feed one term for a trigger type (type 5 reads building and contents columns
 * into one trigger, payout and limit), the larger value is taken, as Oasis does.
 */
import { CatintelError } from '../../errors.js';

export interface StepValues {
  stepId: number;
  triggerStart: number;
  triggerEnd: number;
  payoutStart: number;
  payoutEnd: number;
  deductible1: number;
  limit1: number;
  limit2: number;
  scale1: number;
  scale2: number;
  triggerType: number;
  payoutType: number;
}

type StepTerm = keyof StepValues;

interface TriggerType {
  /** Term group of each coverage type 1-4. */
  groupOfCoverage: Readonly<Record<number, number>>;
  /** Groups that take the step terms. */
  stepGroups: ReadonlySet<number>;
  /** Coverages whose losses this trigger type does not step: their group takes the ordinary terms (BI everywhere). */
  ordinaryCoverages: ReadonlySet<number>;
}

const BY_COVERAGE = { 1: 1, 2: 2, 3: 3, 4: 4 } as const;
const BUILDING_WITH_CONTENTS = { 1: 1, 2: 2, 3: 1, 4: 3 } as const;
const BI = new Set([4]);

/** The trigger types Oasis supports: 1 buildings, 2 contents, 3 buildings and contents together, 5 buildings and contents apart. */
export const TRIGGER_TYPES: ReadonlyMap<number, TriggerType> = new Map([
  [1, { groupOfCoverage: BY_COVERAGE, stepGroups: new Set([1]), ordinaryCoverages: BI }],
  [2, { groupOfCoverage: BY_COVERAGE, stepGroups: new Set([3]), ordinaryCoverages: BI }],
  [3, { groupOfCoverage: BUILDING_WITH_CONTENTS, stepGroups: new Set([1]), ordinaryCoverages: BI }],
  [5, { groupOfCoverage: BY_COVERAGE, stepGroups: new Set([1, 3]), ordinaryCoverages: BI }],
]);

/**
 * The account columns of a step, in the order Oasis reads them (the order decides which trigger type's
 * groups come first), the step term each fills and the trigger types that read it. OED leaves the type
 * columns and StepNumber without a default: any value given counts; for the others 0 is no term.
 */
const STEP_COLUMNS: readonly {
  column: string;
  term: StepTerm;
  triggerTypes: readonly number[];
  noDefault?: boolean;
}[] = [
  { column: 'DebrisRemovalFactor', term: 'scale1', triggerTypes: [1, 2, 3, 5] },
  { column: 'DeductibleBuilding', term: 'deductible1', triggerTypes: [1, 5] },
  { column: 'DeductibleBuildingContents', term: 'deductible1', triggerTypes: [3] },
  { column: 'DeductibleContents', term: 'deductible1', triggerTypes: [2, 5] },
  { column: 'ExtraExpenseFactor', term: 'scale2', triggerTypes: [1, 2, 3, 5] },
  { column: 'ExtraExpenseLimit', term: 'limit2', triggerTypes: [1, 2, 3, 5] },
  { column: 'PayOutBuildingEnd', term: 'payoutEnd', triggerTypes: [1, 5] },
  { column: 'PayOutBuildingStart', term: 'payoutStart', triggerTypes: [1, 5] },
  { column: 'PayOutBuildingContentsEnd', term: 'payoutEnd', triggerTypes: [3] },
  { column: 'PayOutBuildingContentsStart', term: 'payoutStart', triggerTypes: [3] },
  { column: 'PayOutContentsEnd', term: 'payoutEnd', triggerTypes: [2, 5] },
  { column: 'PayOutContentsStart', term: 'payoutStart', triggerTypes: [2, 5] },
  { column: 'PayOutLimitBuilding', term: 'limit1', triggerTypes: [1, 5] },
  { column: 'PayOutLimitBuildingContents', term: 'limit1', triggerTypes: [3] },
  { column: 'PayOutLimitContents', term: 'limit1', triggerTypes: [2, 5] },
  { column: 'PayOutType', term: 'payoutType', triggerTypes: [1, 2, 3, 5], noDefault: true },
  { column: 'StepNumber', term: 'stepId', triggerTypes: [1, 2, 3, 5], noDefault: true },
  { column: 'TriggerBuildingEnd', term: 'triggerEnd', triggerTypes: [1, 5] },
  { column: 'TriggerBuildingStart', term: 'triggerStart', triggerTypes: [1, 5] },
  { column: 'TriggerBuildingContentsEnd', term: 'triggerEnd', triggerTypes: [3] },
  { column: 'TriggerBuildingContentsStart', term: 'triggerStart', triggerTypes: [3] },
  { column: 'TriggerContentsEnd', term: 'triggerEnd', triggerTypes: [2, 5] },
  { column: 'TriggerContentsStart', term: 'triggerStart', triggerTypes: [2, 5] },
  { column: 'TriggerType', term: 'triggerType', triggerTypes: [1, 2, 3, 5], noDefault: true },
];

/**
 * The ktools step calc rules: [flags (deductible1, payout start, payout end, limit1, limit2: 1 when > 0) |
 * trigger type | payout type, rule]. Trigger type 2 is % of TIV, 0 a monetary amount; payout type 1 is %
 * of loss, 2 % of TIV, 3 % of limit, 0 a monetary amount.
 */
const STEP_RULES = new Map<string, number>([
  ['00000|0|0', 14],
  ['01010|2|2', 27],
  ['01110|2|2', 27],
  ['01011|2|2', 27],
  ['01111|2|2', 27],
  ['01001|2|1', 28],
  ['01101|2|1', 28],
  ['01000|2|1', 28],
  ['01100|2|1', 28],
  ['11001|2|1', 28],
  ['11101|2|1', 28],
  ['11000|2|1', 28],
  ['11100|2|1', 28],
  ['00001|2|1', 38],
  ['00000|2|1', 38],
  ['10001|2|1', 38],
  ['10000|2|1', 38],
  ['01011|2|1', 37],
  ['01111|2|1', 37],
  ['01010|2|1', 37],
  ['01110|2|1', 37],
  ['11011|2|1', 37],
  ['11111|2|1', 37],
  ['11010|2|1', 37],
  ['11110|2|1', 37],
  ['01000|2|2', 29],
  ['01100|2|2', 29],
  ['01010|2|3', 30],
  ['01000|2|0', 31],
  ['01010|0|1', 32],
  ['01011|0|1', 32],
]);

const flag = (v: number) => (v > 0 ? '1' : '0');

export function stepCalcRule(s: StepValues, where: () => string): number {
  const key = `${flag(s.deductible1)}${flag(s.payoutStart)}${flag(s.payoutEnd)}${flag(s.limit1)}${flag(s.limit2)}|${s.triggerType}|${s.payoutType}`;
  const rule = STEP_RULES.get(key);
  if (rule === undefined) {
    throw new CatintelError(
      'invalid_input',
      `${where()}: no step calc rule takes this step (TriggerType ${s.triggerType}, PayOutType ${s.payoutType}, deductible ${s.deductible1}, payout start ${s.payoutStart}, payout end ${s.payoutEnd}, payout limit ${s.limit1}, extra expense limit ${s.limit2}); give the step a trigger and payout type Oasis supports`,
    );
  }
  return rule;
}

/** The step columns of an fm_profile row that is not a step: step 1, no step terms. */
export const NO_STEP_COLUMNS = '1,0,0,0,0,0,0,0';
export const STEP_PROFILE_HEADER = ',step_id,trigger_start,trigger_end,payout_start,payout_end,limit2,scale1,scale2';

/** One fm_profile row of a step profile. */
export function stepProfileLine(profile: number, calcrule: number, s: StepValues): string {
  return `${profile},${calcrule},${s.deductible1},0,0,0,${s.limit1},0,0,0,${s.stepId === 0 ? 1 : s.stepId},${s.triggerStart},${s.triggerEnd},${s.payoutStart},${s.payoutEnd},${s.limit2},${s.scale1},${s.scale2}`;
}

function cellNumber(cells: readonly string[] | undefined, row: number, column: string, file: string): number | null {
  const c = cells ? cells[row].trim() : '';
  if (c === '') return null;
  const v = Number(c);
  if (Number.isNaN(v))
    throw new CatintelError(
      'invalid_input',
      `the ${file} row ${row + 2}: ${column} "${c}" is not a number; write it as a plain number`,
    );
  return v;
}

/** The step trigger type of each source row: blank is 0, no step. */
export function triggerTypes(cols: Map<string, string[]>, rows: number, file: string): Int32Array {
  const cells = cols.get('StepTriggerType');
  return Int32Array.from({ length: rows }, (_, r) => {
    const v = cellNumber(cells, r, 'StepTriggerType', file) ?? 0;
    if (v !== 0 && !TRIGGER_TYPES.has(v)) {
      throw new CatintelError(
        'invalid_input',
        `the ${file} row ${r + 2}: StepTriggerType ${v} is not a step trigger type Oasis supports (1 buildings, 2 contents, 3 buildings and contents together, 5 apart); correct it or leave it blank`,
      );
    }
    return v;
  });
}

/** True when some row has a StepNumber above 0: the policy all level is then built with step policies. */
export function hasStepPolicies(cols: Map<string, string[]>, rows: number, file: string): boolean {
  const cells = cols.get('StepNumber');
  if (!cells || !cols.has('StepTriggerType')) return false;
  for (let r = 0; r < rows; r++) if ((cellNumber(cells, r, 'StepNumber', file) ?? 0) > 0) return true;
  return false;
}

/**
 * The trigger types in the order their term groups are built: by first appearance of a row that gives
 * a step column a value, the columns taken in Oasis's order. With each, the step columns it reads.
 */
export function stepGroupsOrder(
  cols: Map<string, string[]>,
  stt: Int32Array,
  file: string,
): { triggerType: number; columns: (typeof STEP_COLUMNS)[number][] }[] {
  const order: number[] = [];
  const columnsOf = new Map<number, (typeof STEP_COLUMNS)[number][]>();
  for (const c of STEP_COLUMNS) {
    const cells = cols.get(c.column);
    if (!cells) continue;
    for (let r = 0; r < stt.length; r++) {
      const s = stt[r];
      if (!c.triggerTypes.includes(s)) continue;
      const v = cellNumber(cells, r, c.column, file);
      if (v === null || (!c.noDefault && v === 0)) continue;
      if (!columnsOf.has(s)) {
        columnsOf.set(s, []);
        order.push(s);
      }
      const list = columnsOf.get(s)!;
      if (!list.includes(c)) list.push(c);
    }
  }
  return order.map((s) => ({ triggerType: s, columns: columnsOf.get(s)! }));
}

/** A row's step terms read from the given columns (several columns of one term: the larger). */
export function stepValues(
  cols: Map<string, string[]>,
  row: number,
  columns: readonly (typeof STEP_COLUMNS)[number][],
  file: string,
): StepValues {
  const v: StepValues = {
    stepId: 0,
    triggerStart: 0,
    triggerEnd: 0,
    payoutStart: 0,
    payoutEnd: 0,
    deductible1: 0,
    limit1: 0,
    limit2: 0,
    scale1: 0,
    scale2: 0,
    triggerType: 0,
    payoutType: 0,
  };
  const seen = new Set<StepTerm>();
  for (const c of columns) {
    const x = cellNumber(cols.get(c.column), row, c.column, file) ?? 0;
    v[c.term] = seen.has(c.term) ? Math.max(v[c.term], x) : x;
    seen.add(c.term);
  }
  return v;
}

/** Whether a group of a trigger type is stepped: its coverages' losses take the step profile (BI never does). */
export function isStepped(triggerType: number, coverageTypes: readonly number[]): boolean {
  const t = TRIGGER_TYPES.get(triggerType);
  return t !== undefined && !coverageTypes.some((c) => t.ordinaryCoverages.has(c));
}

/** The coverage types of each term group of a trigger type, groups in coverage order. */
export function groupsOf(triggerType: number): { group: number; coverageTypes: number[]; takesSteps: boolean }[] {
  const t = TRIGGER_TYPES.get(triggerType)!;
  const out: { group: number; coverageTypes: number[]; takesSteps: boolean }[] = [];
  for (const [c, g] of Object.entries(t.groupOfCoverage)) {
    let e = out.find((o) => o.group === g);
    if (!e) {
      e = { group: g, coverageTypes: [], takesSteps: t.stepGroups.has(g) };
      out.push(e);
    }
    e.coverageTypes.push(Number(c));
  }
  return out;
}

export function groupOfCoverage(triggerType: number, coverageType: number): number | undefined {
  return TRIGGER_TYPES.get(triggerType)?.groupOfCoverage[coverageType];
}
