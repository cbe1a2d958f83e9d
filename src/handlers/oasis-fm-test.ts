/**
 * `catintel oasis fm-test DIR [--case NAME]`: oasislmf's FM acceptance cases (or any folder laid out
 * like them) from OED to Oasis files to insured and reinsured losses, each compared with the case's
 * expected/ files (docs/loss-engine.md "The acceptance runner"). One line per case; exit 1 when any case
 * does not pass. CLI only and storeless; the runner is imported lazily.
 */
import fs from 'node:fs';
import path from 'node:path';
import { CatintelError } from '../errors.js';
import { str } from './params.js';
import { defineHandler } from './types.js';
import type { FmTestResult } from '../oasis-fm-test/run.js';

export interface OasisFmTestInput {
  dir: string;
  caseName?: string;
  /** Absent: each case's own model perils (those of its expected keys.csv). */
  modelPerils?: string[];
  /** The folder of each case holding the expected files. */
  expected: string;
}

export const oasisFmTest = defineHandler<OasisFmTestInput, FmTestResult>({
  name: 'oasis.fm-test',
  summary: "Run FM acceptance cases (OED in, oasislmf's expected files and losses beside) and report each",
  storeless: true,
  cli: {
    command: ['oasis', 'fm-test'],
    args: ['dir'],
    options: [
      { flags: '--case <name>', description: 'run only this case folder of DIR' },
      {
        flags: '--expected <name>',
        description:
          "the folder of each case whose files are compared (default expected; expected_subperils holds oasislmf's runs of the same OED with a two-peril model)",
      },
      {
        flags: '--model-perils <codes>',
        description:
          "the OED perils or peril groups the made keys cover, ';'-separated, for every case (default: each case's own, the perils of its expected keys.csv, else WTC)",
      },
    ],
    examples: [
      'catintel oasis fm-test oasis_fm_validation',
      'catintel oasis fm-test oasis_fm_validation --case insurance_bi --json',
      'catintel oasis fm-test oasis_fm_validation --expected expected_subperils --case cyber',
    ],
    paths: ['dir'],
    exitCode: (body) => (body.failed + body.refused > 0 ? 1 : 0),
  },
  parse(raw) {
    const value = str(raw, 'dir');
    if (value === undefined || value === '')
      throw new CatintelError('invalid_parameter', 'give the folder of FM test cases: catintel oasis fm-test DIR', {
        errors: [{ field: 'dir', message: 'required' }],
      });
    const dir = path.resolve(value);
    let ok: boolean;
    try {
      ok = fs.statSync(dir, { throwIfNoEntry: false })?.isDirectory() ?? false;
    } catch {
      ok = false;
    }
    if (!ok)
      throw new CatintelError(
        'invalid_parameter',
        `${value} is not a directory; give a folder of FM test cases (each with its OED files and expected/)`,
        { errors: [{ field: 'dir', message: 'not a directory' }] },
      );
    const caseName = str(raw, 'case');
    if (
      caseName !== undefined &&
      (caseName === '' ||
        caseName.includes('/') ||
        caseName.includes('\\') ||
        caseName === '..' ||
        caseName.includes('\0'))
    ) {
      throw new CatintelError(
        'invalid_parameter',
        `--case ${JSON.stringify(caseName)} is not a case folder name; give the name of one folder of DIR`,
        { errors: [{ field: 'case', message: 'not a folder name' }] },
      );
    }
    const expected = str(raw, 'expected') ?? 'expected';
    if (
      expected === '' ||
      expected.includes('/') ||
      expected.includes('\\') ||
      expected === '..' ||
      expected === '.' ||
      expected.includes('\0')
    ) {
      throw new CatintelError(
        'invalid_parameter',
        `--expected ${JSON.stringify(expected)} is not a folder name; give the name of the folder of expected files inside each case (expected, expected_subperils)`,
        { errors: [{ field: 'expected', message: 'not a folder name' }] },
      );
    }
    const perilsRaw = str(raw, 'model_perils');
    const modelPerils =
      perilsRaw === undefined
        ? undefined
        : perilsRaw
            .split(';')
            .map((s) => s.trim().toUpperCase())
            .filter(Boolean);
    return { dir, caseName, modelPerils, expected };
  },
  async run(ctx, input) {
    const { runFmTest } = await import('../oasis-fm-test/run.js');
    const result = await runFmTest({
      dir: input.dir,
      caseName: input.caseName,
      modelPerils: input.modelPerils,
      expected: input.expected,
      onCase: (name, done, total) => ctx.progress({ task: 'oasis fm-test', done, total, message: name }),
    });
    return { body: result };
  },
});
