/**
 * `catintel oasis fm-test` on oasislmf's own FM acceptance cases (../shared/data/oasis_fm_validation):
 * each case from its OED files to Oasis files to insured (and reinsured) losses on its guls.csv, every
 * expected file compared. Every case passes, with every file compared (items, coverages, fm_*,
 * ils.csv, RI_n/*, rils.csv), cyber included: an account-only book (account.csv, no location.csv) keyed
 * for its own model peril (CSB, the peril of its expected keys), its nine cyber coverages valued at
 * AnnualRevenue. The two-peril sets beside them (expected_subperils, which oasislmf's own test also
 * runs) pass the same way. A case that regresses fails this test. A doctored case shows a failure names the
 * case, file and line, and exits 1.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli, tempDir, type CliResult } from './helpers/cli.js';
import { sharedData } from './helpers/paths.js';

const CASES_DIR = sharedData('oasis_fm_validation');
const PASSING = [
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
];

interface CaseResult {
  case: string;
  status: string;
  reason?: string;
  file?: string;
  line?: number;
  compared: string[];
}

describe('catintel oasis fm-test on the oasis_fm_validation cases', () => {
  let text: CliResult;
  let json: CliResult;
  beforeAll(async () => {
    json = await cli(['oasis', 'fm-test', CASES_DIR, '--json']);
    text = await cli(['oasis', 'fm-test', CASES_DIR, '--case', 'reinsurance4']);
  }, 300_000);

  it('every one of the 13 cases passes, and the run exits 0', () => {
    const body = json.json() as { cases: CaseResult[]; passed: number; failed: number; refused: number };
    expect(body.cases.map((c) => `${c.case}: ${c.status} ${c.reason ?? ''}${c.file ?? ''} ${c.line ?? ''}`)).toEqual(
      PASSING.map((c) => `${c}: passed  `),
    );
    expect([body.passed, body.failed, body.refused]).toEqual([13, 0, 0]);
    expect(json.code).toBe(0);
  });

  it('a passing case compared every file it expects: Oasis files, ils.csv, each RI_n and rils.csv', () => {
    const cases = new Map((json.json().cases as CaseResult[]).map((c) => [c.case, c.compared]));
    const direct = [
      'keys.csv',
      'items.csv',
      'coverages.csv',
      'gul_summary_map.csv',
      'fm_programme.csv',
      'fm_policytc.csv',
      'fm_profile.csv',
      'fm_xref.csv',
      'fm_summary_map.csv',
      'ils.csv',
    ];
    expect(cases.get('insurance_bi')).toEqual(direct);
    // The account-only cyber book: the same files, made from its account file alone.
    expect(cases.get('cyber')).toEqual(direct);
    const ri = ['fm_programme.csv', 'fm_policytc.csv', 'fm_profile.csv', 'fm_xref.csv'].map((f) => `RI_1/${f}`);
    expect(cases.get('reinsurance4')).toEqual([...direct, ...ri, 'rils.csv']);
    // The known stale expected files (older oasislmf) are left out, and nothing else.
    expect(cases.get('reinsurance2')).toContain('RI_11/fm_xref.csv');
    expect(cases.get('reinsurance2')).not.toContain('RI_1/fm_profile.csv');
    expect(cases.get('issues')).toEqual([...direct, 'rils.csv']);
  });

  it('prints one line per case; --case runs that case alone', () => {
    expect(text.code).toBe(0);
    expect(text.stdout).toBe('reinsurance4: passed\n');
  });
});

describe('catintel oasis fm-test --expected expected_subperils: the same OED run by oasislmf with a two-peril model', () => {
  it('the 9 cases that hold such a set pass, each keyed for the perils of its own expected keys (WTC and WEC; CSB and CPD)', async () => {
    const r = await cli(['oasis', 'fm-test', CASES_DIR, '--expected', 'expected_subperils', '--json']);
    const body = r.json() as { cases: (CaseResult & { notes: string[] })[]; passed: number };
    expect(body.cases.map((c) => `${c.case}: ${c.status} ${c.reason ?? ''}${c.file ?? ''} ${c.line ?? ''}`)).toEqual(
      [
        'cyber',
        'insurance',
        'insurance_and_step',
        'insurance_bi',
        'insurance_conditions',
        'insurance_policy_coverage',
        'issues',
        'reinsurance1',
        'reinsurance2',
      ].map((c) => `${c}: passed  `),
    );
    expect(r.code).toBe(0);
    const cyber = body.cases.find((c) => c.case === 'cyber')!;
    expect(cyber.compared).toContain('ils.csv');
    expect(cyber.notes).toEqual([]);
  }, 300_000);
});

describe('a case that differs from its expected files', () => {
  it('names the case, the first differing file and its line, and exits 1', async () => {
    const dir = tempDir('catintel-fm-test-');
    try {
      const source = path.join(CASES_DIR, 'reinsurance4');
      fs.cpSync(source, path.join(dir, 'reinsurance4'), { recursive: true });
      const ils = path.join(dir, 'reinsurance4', 'expected', 'ils.csv');
      // Line 3 (event 1, output 2): 4000 becomes 4100.
      fs.writeFileSync(ils, fs.readFileSync(ils, 'utf8').replace(/^1,2,4000\.0$/m, '1,2,4100.0'));
      const r = await cli(['oasis', 'fm-test', dir]);
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('reinsurance4: failed: ils.csv line 3: event 1 output 2: expected 4100, ours 4000\n');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('an unknown --case is refused with the cases the folder holds', async () => {
    const r = await cli(['oasis', 'fm-test', CASES_DIR, '--case', 'nope']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/--case nope: .* its cases are cyber, insurance, /);
  });
});
