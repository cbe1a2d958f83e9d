/**
 * `catintel oasis files` on oasislmf's own FM acceptance cases (../shared/data/oasis_fm_validation):
 * the keys it makes from each case's OED location file (a model covering WTC, as the cases' expected
 * keys are) and the ground-up files it writes from them, compared row by row with the files oasislmf
 * wrote for the same case (expected/), numbers within 0.001 relative. A failure names the case, file
 * and row. With the case's account file, the FM files (fm_programme, fm_policytc, fm_profile, fm_xref,
 * fm_summary_map) are compared the same way, conditions (CondTag / CondNumber, nested, exclusions)
 * and step policies (every trigger type, fm_profile with its step columns) included.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from './helpers/cli.js';
import { sharedData } from './helpers/paths.js';

const CASES_DIR = sharedData('oasis_fm_validation');
const CASES = [
  'insurance', 'insurance_account', 'insurance_and_step', 'insurance_bi', 'insurance_conditions', 'insurance_policy_coverage',
  'issues', 'issue_1816', 'issue_1953_layerparticipation', 'reinsurance1', 'reinsurance2', 'reinsurance4',
];
const GUL_FILES = ['keys.csv', 'items.csv', 'coverages.csv', 'gul_summary_map.csv'];
const FM_FILES = ['fm_programme.csv', 'fm_policytc.csv', 'fm_profile.csv', 'fm_xref.csv', 'fm_summary_map.csv'];
/** The cases whose terms oasis files builds: all of them. */
const FM_CASES = ['insurance', 'insurance_and_step', 'insurance_conditions', 'insurance_policy_coverage', 'insurance_account', 'insurance_bi', 'issues', 'issue_1816', 'issue_1953_layerparticipation', 'reinsurance1', 'reinsurance2', 'reinsurance4'];

function table(file: string): { header: string[]; rows: string[][] } {
  const lines = fs.readFileSync(file, 'utf8').trim().split(/\r?\n/);
  return { header: lines[0].split(','), rows: lines.slice(1).map((l) => l.split(',')) };
}

function same(a: string, b: string): boolean {
  if (a === b) return true;
  const x = Number(a);
  const y = Number(b);
  return a !== '' && b !== '' && !Number.isNaN(x) && !Number.isNaN(y) && Math.abs(x - y) <= 1e-3 * Math.max(1, Math.abs(x), Math.abs(y));
}

/** The first difference of two CSV files, columns matched by name, as "file row n column c: ours x, Oasis y". */
function firstDifference(name: string, ours: string, oasis: string): string | null {
  const o = table(ours);
  const e = table(oasis);
  const missing = e.header.filter((c) => !o.header.includes(c));
  if (missing.length) return `${name}: no column ${missing.join(', ')}`;
  if (o.rows.length !== e.rows.length) return `${name}: ${o.rows.length} rows, Oasis ${e.rows.length}`;
  const at = e.header.map((c) => o.header.indexOf(c));
  for (let r = 0; r < e.rows.length; r++) {
    for (let c = 0; c < e.header.length; c++) {
      if (!same(o.rows[r][at[c]], e.rows[r][c])) return `${name} row ${r + 1} column ${e.header[c]}: ours ${o.rows[r][at[c]]}, Oasis ${e.rows[r][c]}`;
    }
  }
  return null;
}

describe('catintel oasis files: ground-up files of the acceptance cases', () => {
  it.each(CASES)('%s: keys, items, coverages and gul_summary_map match Oasis row for row', async (name) => {
    const out = tempDir('catintel-oasis-files-');
    try {
      const r = await cli(['oasis', 'files', '--oed-location', path.join(CASES_DIR, name, 'location.csv'), '--model-perils', 'WTC', '--out', out, '--json']);
      expect(r.stderr, `${name}: ${r.stderr}`).toBe('');
      expect(r.code).toBe(0);
      const differences = GUL_FILES.map((f) => firstDifference(f, path.join(out, f), path.join(CASES_DIR, name, 'expected', f))).filter(Boolean);
      expect(differences.map((d) => `${name} ${d}`)).toEqual([]);
    } finally {
      fs.rmSync(out, { recursive: true, force: true });
    }
  });

  it.each(FM_CASES)('%s: with its account file, the FM files match Oasis row for row', async (name) => {
    const out = tempDir('catintel-oasis-files-');
    try {
      const dir = path.join(CASES_DIR, name);
      const r = await cli(['oasis', 'files', '--oed-location', path.join(dir, 'location.csv'), '--oed-account', path.join(dir, 'account.csv'), '--model-perils', 'WTC', '--out', out, '--json']);
      expect(r.stderr, `${name}: ${r.stderr}`).toBe('');
      expect(r.code).toBe(0);
      const differences = [...GUL_FILES, ...FM_FILES].map((f) => firstDifference(f, path.join(out, f), path.join(dir, 'expected', f))).filter(Boolean);
      expect(differences.map((d) => `${name} ${d}`)).toEqual([]);
    } finally {
      fs.rmSync(out, { recursive: true, force: true });
    }
  });

  it('an account whose rows for one peril name two step trigger types is refused with the row named, and nothing is written', async () => {
    const out = tempDir('catintel-oasis-files-');
    const input = tempDir('catintel-oasis-files-in-');
    try {
      const dir = path.join(CASES_DIR, 'insurance_and_step');
      const lines = fs.readFileSync(path.join(dir, 'account.csv'), 'utf8').split('\n');
      const header = lines[0].split(',');
      const at = header.indexOf('StepTriggerType');
      // The second step of account FloodStep_T1 / B1_T1 becomes a contents step (type 2), its first a buildings step.
      const row = lines.findIndex((l) => { const c = l.split(','); return c[1] === 'FloodStep_T1' && c[2] === 'B1_T1' && c[at + 1] === '2'; });
      const cells = lines[row].split(',');
      cells[at] = '2';
      lines[row] = cells.join(',');
      fs.writeFileSync(path.join(input, 'account.csv'), lines.join('\n'));
      const r = await cli(['oasis', 'files', '--oed-location', path.join(dir, 'location.csv'), '--oed-account', path.join(input, 'account.csv'), '--model-perils', 'WTC', '--out', out]);
      expect(r.code).not.toBe(0);
      expect(r.stderr).toMatch(new RegExp(`account file row ${row + 1}: StepTriggerType 2 differs from 1 on row ${row} of the same account`));
      expect(fs.readdirSync(out)).toEqual([]);
    } finally {
      fs.rmSync(out, { recursive: true, force: true });
      fs.rmSync(input, { recursive: true, force: true });
    }
  });
});
