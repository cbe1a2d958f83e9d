/**
 * The policy all level's terms when the account file holds step policies (step-policies.ts has the
 * rules): every account row gives term rows, accounts without a step policy one acting on every
 * coverage with the ordinary terms, accounts with one a term row per coverage group of their trigger
 * type, each step a row of its own. Rows are listed as Oasis lists them, which numbers the profiles:
 * the ordinary rows first, then each trigger type's groups in turn, rows in file order.
 */
import { CatintelError } from '../../errors.js';
import type { FmLevel } from './fm-levels.js';
import { perilsCovered } from './peril-groups.js';
import {
  cellValue,
  termColumns,
  type LevelTerms,
  type TermRow,
  type TermSource,
  type TermValues,
} from './level-terms.js';
import {
  groupOfCoverage,
  groupsOf,
  isStepped,
  stepGroupsOrder,
  stepValues,
  triggerTypes,
  type StepValues,
} from './step-policies.js';

const ALL = [1, 2, 3, 4] as const;
const NO_STEP: StepValues = {
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

export function stepLevelTerms(level: FmLevel, src: TermSource): LevelTerms {
  const stt = triggerTypes(src.cols, src.rows, src.file);
  const perilCells = level.perilField ? src.cols.get(level.perilField) : undefined;
  // The rows of an account that act on one peril name one trigger type: its coverages are grouped by
  // it. Rows for other perils may name another (a step policy for flood beside ordinary wind terms).
  const triggersOfKey = new Map<number, { triggerType: number; perils: Set<string> | null; row: number }[]>();
  for (let r = 0; r < src.rows; r++) {
    const perils = perilCells ? perilsCovered(perilCells[r]) : null;
    const list = triggersOfKey.get(src.key[r]) ?? [];
    const clash = list.find(
      (t) =>
        t.triggerType !== stt[r] && (t.perils === null || perils === null || [...perils].some((p) => t.perils!.has(p))),
    );
    if (clash) {
      throw new CatintelError(
        'invalid_input',
        `the ${src.file} row ${r + 2}: StepTriggerType ${stt[r] || 'blank'} differs from ${clash.triggerType || 'blank'} on row ${clash.row + 2} of the same account for the same peril; give the rows of an account that cover one peril one step trigger type`,
      );
    }
    list.push({ triggerType: stt[r], perils, row: r });
    triggersOfKey.set(src.key[r], list);
  }
  const ordinary = level.groups[0];
  const used = termColumns(src, ordinary);
  const rows: TermRow[] = [];
  const seen = new Set<string>();
  const push = (r: number, group: number, coverageTypes: readonly number[], step: StepValues, isStep: boolean) => {
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
    const row: TermRow = {
      key: src.key[r],
      group,
      coverageTypes,
      layer: src.layer[r],
      polNumber: src.polNumber[r],
      fmPeril: perilCells ? perilCells[r].trim() : null,
      values,
      step,
      isStep,
    };
    const id = `${row.key}|${row.layer}|${row.polNumber}|${row.fmPeril}|${group}|${stt[r]}|${Object.values(values).join('|')}|${Object.values(step).join('|')}`;
    if (seen.has(id)) return;
    seen.add(id);
    rows.push(row);
  };
  for (let r = 0; r < src.rows; r++) if (stt[r] === 0) push(r, 1, ALL, NO_STEP, false);
  for (const { triggerType, columns } of stepGroupsOrder(src.cols, stt, src.file)) {
    for (const g of groupsOf(triggerType)) {
      const stepped = isStepped(triggerType, g.coverageTypes);
      for (let r = 0; r < src.rows; r++) {
        if (stt[r] !== triggerType) continue;
        push(r, g.group, g.coverageTypes, g.takesSteps ? stepValues(src.cols, r, columns, src.file) : NO_STEP, stepped);
      }
    }
  }
  return {
    rows,
    groupOfCoverage: new Map(),
    hasShare: false,
    groupOf: (key, coverageType, peril) => {
      const t = triggersOfKey.get(key)?.find((x) => x.perils === null || peril === null || x.perils.has(peril));
      if (t === undefined) return undefined;
      return t.triggerType === 0 ? 1 : groupOfCoverage(t.triggerType, coverageType);
    },
    // Ordinary terms in % of TIV take the TIV of every coverage under the node; a step group's none.
    tivCoverages: new Map<number, readonly number[]>([
      [1, ALL],
      [2, []],
      [3, []],
      [4, []],
    ]),
  };
}
