/**
 * `catintel oasis fm-test DIR [--case NAME] [--expected NAME]`: every case folder of DIR (a folder with
 * expected/ in it, as oasislmf's run_fm_test finds them), or DIR itself when it is one case, run and
 * compared. --expected names another folder of expected files beside expected/ (expected_subperils:
 * oasislmf's runs of the same OED with a model of two perils), as oasislmf's expected_output_dir does.
 */
import fs from 'node:fs';
import path from 'node:path';
import { CatintelError } from '../errors.js';
import { runFmTestCase, type FmTestCaseResult } from './run-case.js';

export interface FmTestOptions {
  dir: string;
  caseName?: string;
  /** The perils the made keys cover; undefined: each case's own (the perils of its expected keys.csv). */
  modelPerils?: readonly string[];
  /** The folder of each case holding the expected files (default expected). */
  expected?: string;
  /** Called before each case, for progress. */
  onCase?: (name: string, index: number, total: number) => void;
}

export interface FmTestResult {
  cases: FmTestCaseResult[];
  passed: number;
  failed: number;
  refused: number;
}

export const DEFAULT_EXPECTED = 'expected';

export function caseFolders(dir: string, caseName?: string, expected = DEFAULT_EXPECTED): string[] {
  const isCase = (d: string): boolean => fs.existsSync(path.join(d, expected));
  if (caseName !== undefined) {
    const one = path.join(dir, caseName);
    if (!isCase(one)) {
      const known = caseFolders(dir, undefined, expected).map((c) => path.basename(c));
      throw new CatintelError(
        'invalid_parameter',
        `--case ${caseName}: ${dir} has no case folder of that name with ${expected}/ in it; its cases are ${known.join(', ') || '(none)'}`,
        { errors: [{ field: 'case', message: 'no such case' }] },
      );
    }
    return [one];
  }
  if (isCase(dir)) return [dir];
  const found = fs
    .readdirSync(dir)
    .filter((f) => isCase(path.join(dir, f)))
    .sort()
    .map((f) => path.join(dir, f));
  if (found.length === 0)
    throw new CatintelError(
      'invalid_parameter',
      `${dir} holds no FM test case: a case is a folder with its OED files and an ${expected}/ folder of Oasis files and losses`,
      { errors: [{ field: 'dir', message: 'no case' }] },
    );
  return found;
}

export async function runFmTest(opts: FmTestOptions): Promise<FmTestResult> {
  const folders = caseFolders(opts.dir, opts.caseName, opts.expected);
  const cases: FmTestCaseResult[] = [];
  for (const [i, f] of folders.entries()) {
    opts.onCase?.(path.basename(f), i, folders.length);
    cases.push(await runFmTestCase(f, opts.modelPerils, opts.expected));
  }
  const count = (s: FmTestCaseResult['status']) => cases.filter((c) => c.status === s).length;
  return { cases, passed: count('passed'), failed: count('failed'), refused: count('refused') };
}
