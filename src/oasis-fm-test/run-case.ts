/**
 * One case of an FM acceptance folder laid out like oasislmf's oasis_fm_validation: OED location.csv
 * and account.csv (and ri_info.csv, ri_scope.csv for reinsurance) in the case folder, or account.csv
 * alone for an account-only cyber book, oasislmf's files and losses in expected/. As oasislmf's
 * run_fm_test runs a case: Oasis files from the OED (keys made for the model perils: those given, else
 * the perils of the case's expected keys.csv, as oasislmf's own test picks a model per case), the
 * case's expected/guls.csv as ground-up losses (every item streamed, 0 when
 * guls.csv has none for it), insured losses with allocation rule 2, each RI_n on the previous level's
 * net losses with rule 3; then every file the case expects is compared, in the order they are made.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CatintelError } from '../errors.js';
import { oasisFiles } from '../oasis-files/run.js';
import { readEventLosses, type EventLosses } from '../loss/fm/read-fm-files.js';
import { insuredLosses, lossRows, netOfReinsurance, reinsuranceLevels } from '../loss/fm/run-fm.js';
import { readTable } from '../loss/io/csv.js';
import { firstFileDifference, type Difference } from './compare-files.js';
import { firstLossDifference } from './compare-losses.js';
import { exceptionsFor, riFolders } from './known-differences.js';

export interface FmTestCaseResult {
  case: string;
  status: 'passed' | 'failed' | 'refused';
  /** failed: the first differing file (RI_n/ prefixed), its line in the expected file, and what differs. */
  file?: string;
  line?: number;
  detail?: string;
  /** refused: why the Oasis files could not be made (the field the generator does not support, named). */
  reason?: string;
  /** The expected files compared, in order. */
  compared: string[];
  /** Known differences of this case's expected files applied (see docs/loss-engine.md). */
  notes: string[];
}

/** Oasis input files in the order oasislmf's generator writes them and its FM test compares them. */
const DIRECT_FILES = [
  'keys.csv',
  'items.csv',
  'coverages.csv',
  'gul_summary_map.csv',
  'fm_programme.csv',
  'fm_policytc.csv',
  'fm_profile.csv',
  'fm_xref.csv',
  'fm_summary_map.csv',
];
const RI_FILES = ['fm_programme.csv', 'fm_policytc.csv', 'fm_profile.csv', 'fm_xref.csv'];

/** Every item of items.csv in each event, with its ground-up loss or 0, in items.csv order. */
function groundUp(runDir: string, gulsFile: string): EventLosses {
  const guls = readEventLosses(gulsFile, 'item_id');
  const items = readTable(path.join(runDir, 'items.csv'), ['item_id']).col('item_id');
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

const failed = (name: string, compared: string[], notes: string[], d: Difference): FmTestCaseResult => ({
  case: name,
  status: 'failed',
  file: d.file,
  line: d.line,
  detail: d.detail,
  compared,
  notes,
});

/** The model perils oasislmf's test runs a case with when none are given: those its expected keys name (else WTC). */
export const DEFAULT_MODEL_PERILS = ['WTC'];

export function casePerils(expectedDir: string): string[] {
  const keys = path.join(expectedDir, 'keys.csv');
  if (!fs.existsSync(keys)) return DEFAULT_MODEL_PERILS;
  const perils = new Set(readTextColumn(keys, 'PerilID'));
  return perils.size ? [...perils].sort() : DEFAULT_MODEL_PERILS;
}

function readTextColumn(file: string, name: string): string[] {
  const [header, ...rows] = fs
    .readFileSync(file, 'utf8')
    .replace(/\r/g, '')
    .split('\n')
    .filter((l) => l.trim() !== '');
  const at = header.split(',').findIndex((h) => h.trim().toLowerCase() === name.toLowerCase());
  return at < 0 ? [] : rows.map((r) => r.split(',')[at].trim()).filter(Boolean);
}

/** modelPerils: the perils the made keys cover; undefined for each case's own (casePerils). */
export async function runFmTestCase(
  caseDir: string,
  modelPerils: readonly string[] | undefined,
  expectedName = 'expected',
): Promise<FmTestCaseResult> {
  const name = path.basename(caseDir);
  const expected = path.join(caseDir, expectedName);
  const exceptions = exceptionsFor(name, expected);
  const compared: string[] = [];
  const refused = (reason: string): FmTestCaseResult => ({
    case: name,
    status: 'refused',
    reason,
    compared,
    notes: exceptions.notes,
  });
  const location = path.join(caseDir, 'location.csv');
  const account = path.join(caseDir, 'account.csv');
  if (!fs.existsSync(account))
    return refused('no account.csv: the case needs an OED account file for its insured losses');
  // No location file: an account-only (cyber) book, read from its account file alone.
  const hasLocations = fs.existsSync(location);
  const gulsFile = path.join(expected, 'guls.csv');
  if (!fs.existsSync(gulsFile)) return refused(`no ${expectedName}/guls.csv: the ground-up losses the case runs on`);

  const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'catintel-fm-test-'));
  try {
    try {
      const info = path.join(caseDir, 'ri_info.csv');
      const scope = path.join(caseDir, 'ri_scope.csv');
      const reinsurance = fs.existsSync(info) && fs.existsSync(scope) ? { info, scope } : undefined;
      await oasisFiles({
        location: hasLocations ? location : undefined,
        account,
        modelPerils: modelPerils ?? casePerils(expected),
        reinsurance,
        out: runDir,
      });
    } catch (e) {
      // A term the generator does not build yet is refused by name: that is this case's answer.
      if (e instanceof CatintelError) return refused(e.message);
      throw e;
    }

    const check = (file: string, compare: () => Difference | undefined): Difference | undefined => {
      if (exceptions.notCompared.has(file) || !fs.existsSync(path.join(expected, file))) return undefined;
      compared.push(file);
      return compare();
    };
    for (const f of DIRECT_FILES) {
      const d = check(f, () => firstFileDifference(f, path.join(runDir, f), path.join(expected, f)));
      if (d) return failed(name, compared, exceptions.notes, d);
    }
    const ground = groundUp(runDir, gulsFile);
    const insured = insuredLosses(runDir, ground);
    const il = check('ils.csv', () =>
      firstLossDifference('ils.csv', lossRows(insured), path.join(expected, 'ils.csv'), exceptions.ilsValues),
    );
    if (il) return failed(name, compared, exceptions.notes, il);

    const ours = reinsuranceLevels(runDir).map((d) => path.basename(d));
    const theirs = riFolders(expected);
    if (theirs.length && ours.join() !== theirs.join())
      return failed(name, compared, exceptions.notes, {
        file: 'RI_n',
        detail: `expected ${theirs.length} reinsurance levels (${theirs.join(', ')}), ours ${ours.length}`,
      });
    for (const dir of theirs) {
      for (const f of RI_FILES) {
        const file = `${dir}/${f}`;
        const d = check(file, () => firstFileDifference(file, path.join(runDir, dir, f), path.join(expected, dir, f)));
        if (d) return failed(name, compared, exceptions.notes, d);
      }
    }
    if (ours.length) {
      const net = netOfReinsurance(reinsuranceLevels(runDir), insured);
      const ri = check('rils.csv', () =>
        firstLossDifference('rils.csv', lossRows(net), path.join(expected, 'rils.csv')),
      );
      if (ri) return failed(name, compared, exceptions.notes, ri);
    }
    return { case: name, status: 'passed', compared, notes: exceptions.notes };
  } finally {
    fs.rmSync(runDir, { recursive: true, force: true });
  }
}
