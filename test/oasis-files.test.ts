/**
 * `catintel oasis files` on oasislmf's own FM acceptance cases (../shared/data/oasis_fm_validation):
 * the keys it makes from each case's OED location file (a model covering WTC, as the cases' expected
 * keys are) and the ground-up files it writes from them, compared row by row with the files oasislmf
 * wrote for the same case (expected/), numbers within 0.001 relative. A failure names the case, file
 * and row. With the case's account file, the FM files (fm_programme, fm_policytc, fm_profile, fm_xref,
 * fm_summary_map) are compared the same way, conditions (CondTag / CondNumber, nested, exclusions)
 * and step policies (every trigger type, fm_profile with its step columns) included.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from './helpers/cli.js';
import { sharedData } from './helpers/paths.js';

const CASES_DIR = sharedData('oasis_fm_validation');
const CASES = [
  'insurance',
  'insurance_account',
  'insurance_and_step',
  'insurance_bi',
  'insurance_conditions',
  'insurance_policy_coverage',
  'issues',
  'issue_1816',
  'issue_1953_layerparticipation',
  'reinsurance1',
  'reinsurance2',
  'reinsurance4',
];
const GUL_FILES = ['keys.csv', 'items.csv', 'coverages.csv', 'gul_summary_map.csv'];
const FM_FILES = ['fm_programme.csv', 'fm_policytc.csv', 'fm_profile.csv', 'fm_xref.csv', 'fm_summary_map.csv'];
/** The cases whose terms oasis files builds: all of them. */
const FM_CASES = [
  'insurance',
  'insurance_and_step',
  'insurance_conditions',
  'insurance_policy_coverage',
  'insurance_account',
  'insurance_bi',
  'issues',
  'issue_1816',
  'issue_1953_layerparticipation',
  'reinsurance1',
  'reinsurance2',
  'reinsurance4',
];

function table(file: string): { header: string[]; rows: string[][] } {
  const lines = fs.readFileSync(file, 'utf8').trim().split(/\r?\n/);
  return { header: lines[0].split(','), rows: lines.slice(1).map((l) => l.split(',')) };
}

function same(a: string, b: string): boolean {
  if (a === b) return true;
  const x = Number(a);
  const y = Number(b);
  return (
    a !== '' &&
    b !== '' &&
    !Number.isNaN(x) &&
    !Number.isNaN(y) &&
    Math.abs(x - y) <= 1e-3 * Math.max(1, Math.abs(x), Math.abs(y))
  );
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
      if (!same(o.rows[r][at[c]], e.rows[r][c]))
        return `${name} row ${r + 1} column ${e.header[c]}: ours ${o.rows[r][at[c]]}, Oasis ${e.rows[r][c]}`;
    }
  }
  return null;
}

describe('catintel oasis files: ground-up files of the acceptance cases', () => {
  it.each(CASES)('%s: keys, items, coverages and gul_summary_map match Oasis row for row', async (name) => {
    const out = tempDir('catintel-oasis-files-');
    try {
      const r = await cli([
        'oasis',
        'files',
        '--oed-location',
        path.join(CASES_DIR, name, 'location.csv'),
        '--model-perils',
        'WTC',
        '--out',
        out,
        '--json',
      ]);
      expect(r.stderr, `${name}: ${r.stderr}`).toBe('');
      expect(r.code).toBe(0);
      const differences = GUL_FILES.map((f) =>
        firstDifference(f, path.join(out, f), path.join(CASES_DIR, name, 'expected', f)),
      ).filter(Boolean);
      expect(differences.map((d) => `${name} ${d}`)).toEqual([]);
    } finally {
      fs.rmSync(out, { recursive: true, force: true });
    }
  });

  it.each(FM_CASES)('%s: with its account file, the FM files match Oasis row for row', async (name) => {
    const out = tempDir('catintel-oasis-files-');
    try {
      const dir = path.join(CASES_DIR, name);
      const r = await cli([
        'oasis',
        'files',
        '--oed-location',
        path.join(dir, 'location.csv'),
        '--oed-account',
        path.join(dir, 'account.csv'),
        '--model-perils',
        'WTC',
        '--out',
        out,
        '--json',
      ]);
      expect(r.stderr, `${name}: ${r.stderr}`).toBe('');
      expect(r.code).toBe(0);
      const differences = [...GUL_FILES, ...FM_FILES]
        .map((f) => firstDifference(f, path.join(out, f), path.join(dir, 'expected', f)))
        .filter(Boolean);
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
      const row = lines.findIndex((l) => {
        const c = l.split(',');
        return c[1] === 'FloodStep_T1' && c[2] === 'B1_T1' && c[at + 1] === '2';
      });
      const cells = lines[row].split(',');
      cells[at] = '2';
      lines[row] = cells.join(',');
      fs.writeFileSync(path.join(input, 'account.csv'), lines.join('\n'));
      const r = await cli([
        'oasis',
        'files',
        '--oed-location',
        path.join(dir, 'location.csv'),
        '--oed-account',
        path.join(input, 'account.csv'),
        '--model-perils',
        'WTC',
        '--out',
        out,
      ]);
      expect(r.code).not.toBe(0);
      expect(r.stderr).toMatch(
        new RegExp(`account file row ${row + 1}: StepTriggerType 2 differs from 1 on row ${row} of the same account`),
      );
      expect(fs.readdirSync(out)).toEqual([]);
    } finally {
      fs.rmSync(out, { recursive: true, force: true });
      fs.rmSync(input, { recursive: true, force: true });
    }
  });
});

describe('catintel oasis files: reinsurance (--oed-ri-info, --oed-ri-scope)', () => {
  const RI_FILES = ['RI_1/fm_programme.csv', 'RI_1/fm_policytc.csv', 'RI_1/fm_profile.csv', 'RI_1/fm_xref.csv'];
  const dir = path.join(CASES_DIR, 'reinsurance4');
  const oed = [
    '--oed-location',
    path.join(dir, 'location.csv'),
    '--oed-account',
    path.join(dir, 'account.csv'),
    '--model-perils',
    'WTC',
  ];

  it('reinsurance4: the direct and RI_1 files match Oasis row for row, and the manifest lists every file with its checksum', async () => {
    const out = tempDir('catintel-oasis-files-');
    try {
      const r = await cli([
        'oasis',
        'files',
        ...oed,
        '--oed-ri-info',
        path.join(dir, 'ri_info.csv'),
        '--oed-ri-scope',
        path.join(dir, 'ri_scope.csv'),
        '--out',
        out,
        '--json',
      ]);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      const differences = [...GUL_FILES, ...FM_FILES, ...RI_FILES]
        .map((f) => firstDifference(f, path.join(out, f), path.join(dir, 'expected', f)))
        .filter(Boolean);
      expect(differences).toEqual([]);
      // Oasis's ri_layers.json names the folder by its absolute path on the machine that made it; ours by its name.
      expect(JSON.parse(fs.readFileSync(path.join(out, 'ri_layers.json'), 'utf8'))).toEqual({
        1: { inuring_priority: 1, risk_level: 'SEL', directory: 'RI_1' },
      });
      const manifest = JSON.parse(fs.readFileSync(path.join(out, 'manifest.json'), 'utf8')) as {
        reinsurance_levels: number;
        outputs: { file: string; bytes: number; sha256: string }[];
      };
      expect(manifest.reinsurance_levels).toBe(1);
      expect(manifest.outputs.map((o) => o.file).sort()).toEqual(
        [...GUL_FILES, ...FM_FILES, ...RI_FILES, 'ri_layers.json', 'ri_inuring_priority_output_levels.json'].sort(),
      );
      for (const o of manifest.outputs) {
        const bytes = fs.readFileSync(path.join(out, o.file));
        expect({ file: o.file, bytes: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') }).toEqual(
          { file: o.file, bytes: o.bytes, sha256: o.sha256 },
        );
      }
      expect(fs.readdirSync(out).filter((f) => f.startsWith('.'))).toEqual([]);
    } finally {
      fs.rmSync(out, { recursive: true, force: true });
    }
  });

  it('a set without reinsurance written over one with it leaves no RI_n/ behind', async () => {
    const out = tempDir('catintel-oasis-files-');
    try {
      const ri = ['--oed-ri-info', path.join(dir, 'ri_info.csv'), '--oed-ri-scope', path.join(dir, 'ri_scope.csv')];
      expect((await cli(['oasis', 'files', ...oed, ...ri, '--out', out])).code).toBe(0);
      expect((await cli(['oasis', 'files', ...oed, '--out', out])).code).toBe(0);
      expect(fs.readdirSync(out).sort()).toEqual([...GUL_FILES, ...FM_FILES, 'manifest.json'].sort());
    } finally {
      fs.rmSync(out, { recursive: true, force: true });
    }
  });

  it.each([
    ['--oed-ri-info alone', ['--oed-ri-info', path.join(dir, 'ri_info.csv')], /--oed-ri-info needs --oed-ri-scope/],
    ['--oed-ri-scope alone', ['--oed-ri-scope', path.join(dir, 'ri_scope.csv')], /--oed-ri-scope needs --oed-ri-info/],
  ])('%s is refused with exit 2, and nothing is written', async (_what, ri, message) => {
    const out = path.join(tempDir('catintel-oasis-files-'), 'out');
    const r = await cli(['oasis', 'files', ...oed, ...ri, '--out', out]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(fs.existsSync(out)).toBe(false);
  });

  it('reinsurance without the account file is refused with exit 2', async () => {
    const out = path.join(tempDir('catintel-oasis-files-'), 'out');
    const r = await cli([
      'oasis',
      'files',
      '--oed-location',
      path.join(dir, 'location.csv'),
      '--model-perils',
      'WTC',
      '--oed-ri-info',
      path.join(dir, 'ri_info.csv'),
      '--oed-ri-scope',
      path.join(dir, 'ri_scope.csv'),
      '--out',
      out,
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/need --oed-account/);
  });
});
