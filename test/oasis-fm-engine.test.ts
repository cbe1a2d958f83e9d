/**
 * The financial module on oasislmf's own FM acceptance cases (../shared/data/oasis_fm_validation):
 * each case's expected Oasis files (fm_programme, fm_policytc, fm_profile, fm_xref, items, coverages)
 * and ground-up losses (guls.csv, every item streamed as oasislmf's run_fm_test streams them) in;
 * insured losses per output out, compared row by row with the case's ils.csv (allocation rule 2, as
 * run_fm_test runs it), and, for reinsurance cases, each RI_n level run on the previous level's net
 * losses (rule 3) compared with rils.csv. A row matches within 0.1 % (oasislmf's own tolerance), with
 * the printed precision (0.01) as the floor for values near zero.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readEventLosses, readFmFiles, type EventLosses } from '../src/loss/fm/read-fm-files.js';
import { insuredLosses, lossRows, netOfReinsurance, reinsuranceLevels, type LossRow } from '../src/loss/fm/run-fm.js';
import { buildStructure } from '../src/loss/fm/domain/structure.js';
import { readTable } from '../src/loss/io/csv.js';
import { FIXTURES, sharedData } from './helpers/paths.js';

const CASES = sharedData('oasis_fm_validation');

/**
 * Rows where a case's ils.csv is not what oasislmf 2.5.8's fmpy computes from the case's own files
 * (alloc rule 2, every item streamed): the fixture holds fmpy 2.5.8's value for each, and ours must
 * match it. In `insurance` these are accounts whose policy maximum deductible gives back part of the
 * locations' deductibles: the account totals agree, the split among the items differs.
 */
function fmpy258(name: string): Record<string, number> {
  const file = path.join(FIXTURES, 'fm-acceptance', `${name}-fmpy-2.5.8.csv`);
  if (!fs.existsSync(file)) return {};
  return Object.fromEntries(lossRows(readEventLosses(file, 'output_id')).map((r) => [keyOf(r), r.loss]));
}

/**
 * Cases whose reinsurance files do not fit their own insured losses, so rils.csv cannot be checked:
 * in `issues`, RI_1's programme has 335 items but ils.csv has 409 outputs (RI_1 is older than ils.csv).
 */
const RI_NOT_CHECKABLE: Record<string, string> = {
  issues: 'RI_1/fm_programme.csv knows items 1-335, but ils.csv has outputs up to 409',
};

function close(got: number, want: number): boolean {
  return Math.abs(got - want) <= Math.max(1e-3 * Math.abs(want), 0.01);
}

/** Every item of items.csv in each event, with its ground-up loss or 0, in items.csv order. */
function groundUp(dir: string): EventLosses {
  const guls = readEventLosses(path.join(dir, 'guls.csv'), 'item_id');
  const items = readTable(path.join(dir, 'items.csv'), ['item_id']).col('item_id');
  const events = new Map<number, [number, Float64Array][]>();
  for (const [eventId, rows] of guls.events) {
    const byItem = new Map(rows);
    events.set(
      eventId,
      Array.from(items, (id) => [id, byItem.get(id) ?? new Float64Array(guls.samples)]),
    );
  }
  return { samples: guls.samples, events };
}

const keyOf = (r: LossRow) => `event ${r.eventId} output ${r.outputId}${r.sample ? ` sample ${r.sample}` : ''}`;

/** Differences between ours and the expected file, one line each naming the case, file and row. */
function differences(
  name: string,
  file: string,
  ours: LossRow[],
  expected: LossRow[],
  known: Record<string, number> = {},
): { rows: number; bad: string[] } {
  const mine = new Map(ours.map((r) => [keyOf(r), r.loss]));
  const bad: string[] = [];
  for (const r of expected) {
    const key = keyOf(r);
    const got = mine.get(key) ?? 0;
    const want = known[key] ?? r.loss;
    if (!close(got, want)) bad.push(`${name} ${file} ${key}: expected ${want}, got ${got}`);
    mine.delete(key);
  }
  for (const [key, loss] of mine)
    if (!close(loss, 0)) bad.push(`${name} ${file} ${key}: expected no loss, got ${loss}`);
  return { rows: expected.length, bad };
}

const cases = fs
  .readdirSync(CASES)
  .filter((c) => fs.existsSync(path.join(CASES, c, 'expected', 'ils.csv')))
  .sort();

describe('the financial module reproduces oasislmf FM acceptance cases', () => {
  it('finds the cases', () => {
    expect(cases).toEqual(
      expect.arrayContaining([
        'cyber',
        'insurance',
        'insurance_account',
        'insurance_and_step',
        'insurance_bi',
        'insurance_conditions',
        'insurance_policy_coverage',
        'issue_1816',
        'issue_1953_layerparticipation',
        'issues',
        'reinsurance1',
        'reinsurance2',
        'reinsurance4',
      ]),
    );
  });

  for (const name of cases) {
    it(`${name}: every ils.csv row${fs.existsSync(path.join(CASES, name, 'expected', 'rils.csv')) && !RI_NOT_CHECKABLE[name] ? ' and every rils.csv row' : ''}`, () => {
      const dir = path.join(CASES, name, 'expected');
      const insured = insuredLosses(dir, groundUp(dir));
      const il = differences(
        name,
        'ils.csv',
        lossRows(insured),
        lossRows(readEventLosses(path.join(dir, 'ils.csv'), 'output_id')),
        fmpy258(name),
      );
      expect(il.bad, il.bad.slice(0, 5).join('\n')).toEqual([]);
      expect(il.rows).toBeGreaterThan(0);
      if (fs.existsSync(path.join(dir, 'rils.csv')) && !RI_NOT_CHECKABLE[name]) {
        const net = netOfReinsurance(reinsuranceLevels(dir), insured);
        const ri = differences(
          name,
          'rils.csv',
          lossRows(net),
          lossRows(readEventLosses(path.join(dir, 'rils.csv'), 'output_id')),
        );
        expect(ri.bad, ri.bad.slice(0, 5).join('\n')).toEqual([]);
      }
    });
  }
});

describe('what the financial module refuses, naming the value', () => {
  const dir = path.join(CASES, 'insurance', 'expected');
  it('an allocation rule outside 0-3', () => {
    expect(() => buildStructure(readFmFiles(dir), 4)).toThrow(/allocation rule 4 is not one of 0, 1, 2, 3/);
  });
  it('a calc rule Oasis does not define, and a step rule without the step columns', () => {
    const files = readFmFiles(dir);
    files.profiles[1] = { ...files.profiles[1], calcrule: 42 };
    expect(() => buildStructure(files, 2)).toThrow(/profile_id 2 uses calcrule_id 42/);
    const plain = readFmFiles(dir);
    plain.profiles[1] = { ...plain.profiles[1], calcrule: 28 };
    expect(() => buildStructure(plain, 2)).toThrow(/step calc rule 28 .* no step columns/);
  });
  it('an item the programme does not know, and net losses under rule 0', () => {
    const losses = { samples: 1, events: new Map([[1, [[999_999, Float64Array.of(1)]] as [number, Float64Array][]]]) };
    expect(() => insuredLosses(dir, losses)).toThrow(/item_id 999999 is not an item of the programme/);
    expect(() => netOfReinsurance([dir], losses, 0)).toThrow(/net losses need allocation rule 1, 2 or 3/);
  });
});
