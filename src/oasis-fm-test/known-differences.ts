/**
 * The places where a case of oasislmf's FM acceptance suite (oasis_fm_validation) holds expected files
 * that oasislmf 2.5.8 itself does not reproduce from the case's own inputs. Each applies only when the
 * expected files are byte for byte the ones examined (their sha256), so a case that is edited or
 * refreshed is compared in full again, and a folder of other cases is never excused.
 *
 * - insurance, ils.csv: 48 rows (accounts whose policy maximum deductible gives back part of several
 *   locations' deductibles) split the account's loss among items differently from what fmpy 2.5.8
 *   computes from the same files; the account totals agree. Those rows are compared with fmpy 2.5.8's
 *   values (fixtures/fm-acceptance/insurance-fmpy-2.5.8.csv; in expected_subperils the same 48 rows for
 *   each of its two perils, insurance-subperils-fmpy-2.5.8.csv).
 * - reinsurance1, reinsurance2: expected RI_n fm_profile and fm_policytc were written by an older
 *   oasislmf, which ordered and numbered the profiles differently (oasislmf's own test compares only
 *   rils.csv, so they were never refreshed). Their fm_programme and fm_xref, and rils.csv, are compared.
 * - issues: expected RI_1 is older than the case's own direct files (its programme knows 335 of the 409
 *   outputs; in expected_subperils, 670 of 818); it is not compared. rils.csv is (our RI_1 is made from
 *   the case's OED). oasislmf's own runner compares no RI_n file, so it never noticed.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readTable } from '../loss/io/csv.js';
import { lossKey } from './compare-losses.js';

interface Exception {
  caseName: string;
  /** Files of the case's expected/ folder (RI_* stands for every RI_n folder) whose digest identifies it. */
  files: string[];
  /** sha256 of the lines "path sha256" of the listed files, in sorted path order. */
  digest: string;
  /** Expected files (relative to expected/, RI_* for every RI_n) left out of the comparison. */
  notCompared?: string[];
  /** A fixture of fmpy 2.5.8's values for rows of ils.csv. */
  fmpyValues?: string;
  reason: string;
}

const EXCEPTIONS: Exception[] = [
  {
    caseName: 'insurance',
    files: ['ils.csv'],
    digest: 'a87149e424e25710db50e1667e37325bd055edbc2dbf6323bd4f98bee821ea38',
    fmpyValues: 'insurance-fmpy-2.5.8.csv',
    reason: '48 ils.csv rows are compared with the values oasislmf 2.5.8 computes from the same files',
  },
  {
    // The same rows in the two-peril set (expected_subperils), once per peril.
    caseName: 'insurance',
    files: ['ils.csv'],
    digest: '28e49ca72da138c7d501a9e8e45b4e05c969fda74963a3b69f39c08e72002d62',
    fmpyValues: 'insurance-subperils-fmpy-2.5.8.csv',
    reason: '96 ils.csv rows are compared with the values oasislmf 2.5.8 computes from the same files',
  },
  {
    caseName: 'reinsurance1',
    files: ['RI_*/fm_profile.csv', 'RI_*/fm_policytc.csv'],
    digest: 'a5a914c64c4f1d3c54474e5b0ab78c340e2895029b4aca9afcd9f5343a5c6133',
    notCompared: ['RI_*/fm_profile.csv', 'RI_*/fm_policytc.csv'],
    reason: 'expected RI_n profiles were numbered by an older oasislmf',
  },
  {
    caseName: 'reinsurance2',
    files: ['RI_*/fm_profile.csv', 'RI_*/fm_policytc.csv'],
    digest: 'ae1df2f54e48290da5e5f155849613c31891fa97f2a45b0406aca55fb8aad5a1',
    notCompared: ['RI_*/fm_profile.csv', 'RI_*/fm_policytc.csv'],
    reason: 'expected RI_n profiles were numbered by an older oasislmf',
  },
  {
    caseName: 'issues',
    files: ['RI_*/fm_programme.csv', 'RI_*/fm_policytc.csv', 'RI_*/fm_profile.csv', 'RI_*/fm_xref.csv'],
    digest: '95fe2bab1dc4c609cc09b531351ac93e582e56aa6bfb5350ed6cd08f3b8b5a1c',
    notCompared: ['RI_*/fm_programme.csv', 'RI_*/fm_policytc.csv', 'RI_*/fm_profile.csv', 'RI_*/fm_xref.csv'],
    reason: "expected RI_1 is older than the case's direct files",
  },
  {
    // The same in the two-peril set (expected_subperils): its RI_1 knows 670 of the 818 outputs.
    caseName: 'issues',
    files: ['RI_*/fm_programme.csv', 'RI_*/fm_policytc.csv', 'RI_*/fm_profile.csv', 'RI_*/fm_xref.csv'],
    digest: '88b3cc0f7f25e110153e52a87bfdd281694b73455b5290d4a2a5fae9eeaa8eff',
    notCompared: ['RI_*/fm_programme.csv', 'RI_*/fm_policytc.csv', 'RI_*/fm_profile.csv', 'RI_*/fm_xref.csv'],
    reason: "expected RI_1 is older than the case's direct files",
  },
];

/** The RI_n folders of an expected/ directory, in number order. */
export function riFolders(expectedDir: string): string[] {
  const names = fs.existsSync(expectedDir) ? fs.readdirSync(expectedDir).filter((f) => /^RI_\d+$/.test(f)) : [];
  return names.sort((a, b) => Number(a.slice(3)) - Number(b.slice(3)));
}

/** Expands RI_* to every RI_n folder of the case. */
function expand(pattern: string, expectedDir: string): string[] {
  return pattern.startsWith('RI_*/') ? riFolders(expectedDir).map((d) => `${d}/${pattern.slice(5)}`) : [pattern];
}

export function digestOf(expectedDir: string, patterns: readonly string[]): string {
  const files = patterns.flatMap((p) => expand(p, expectedDir)).sort();
  const lines = files.map((f) => {
    const full = path.join(expectedDir, f);
    const body = fs.existsSync(full) ? fs.readFileSync(full) : Buffer.alloc(0);
    return `${f} ${crypto.createHash('sha256').update(body).digest('hex')}`;
  });
  return crypto.createHash('sha256').update(lines.join('\n')).digest('hex');
}

/** fixtures/fm-acceptance, found from this module upwards (it sits at the project root). */
function fixturesDir(): string | undefined {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    const candidate = path.join(dir, 'fixtures', 'fm-acceptance');
    if (fs.existsSync(candidate)) return candidate;
    dir = path.dirname(dir);
  }
  return undefined;
}

export interface CaseExceptions {
  /** Expected files (relative to expected/) not compared. */
  notCompared: Set<string>;
  /** ils.csv values replaced by fmpy 2.5.8's, by lossKey. */
  ilsValues: Map<string, number>;
  /** One line each, for the report. */
  notes: string[];
}

export function exceptionsFor(caseName: string, expectedDir: string): CaseExceptions {
  const result: CaseExceptions = { notCompared: new Set(), ilsValues: new Map(), notes: [] };
  for (const x of EXCEPTIONS) {
    if (x.caseName !== caseName || digestOf(expectedDir, x.files) !== x.digest) continue;
    for (const p of x.notCompared ?? []) for (const f of expand(p, expectedDir)) result.notCompared.add(f);
    if (x.fmpyValues) {
      const dir = fixturesDir();
      if (!dir) continue;
      const t = readTable(path.join(dir, x.fmpyValues), ['event_id', 'output_id', 'loss']);
      const ev = t.col('event_id');
      const out = t.col('output_id');
      const loss = t.col('loss');
      for (let i = 0; i < t.rows; i++) result.ilsValues.set(lossKey(ev[i], out[i], 0), loss[i]);
    }
    result.notes.push(x.reason);
  }
  return result;
}
