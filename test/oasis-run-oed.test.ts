/**
 * `catintel oasis run` from OED: the location and account files with the model's keys, turned into Oasis
 * input files as `catintel oasis files` writes them and run, give the same ORD files as those two commands
 * run one after the other (an account-only cyber book from its account file alone too); the temporary
 * input is gone afterwards; a run needs exactly one of --input and
 * --oed-location, and --oed-location needs the model's keys; the OED reinsurance files come as a pair.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from './helpers/cli.js';
import { sharedData } from './helpers/paths.js';

const PIWIND = sharedData('oasis_piwind');
const MODEL = path.join(PIWIND, 'model_data');
const INPUT = path.join(PIWIND, 'expected_all_outputs', 'input');
const SETTINGS = path.join(PIWIND, 'expected_all_outputs', 'output', 'analysis_settings.json');
const OED = [
  '--oed-location',
  path.join(INPUT, 'location.csv'),
  '--oed-account',
  path.join(INPUT, 'account.csv'),
  '--keys',
  path.join(INPUT, 'keys.csv'),
];

/** The ORD files of a run; of the manifest, its files' rows and checksums (its run id and time differ per run). */
function outputs(dir: string): Map<string, string> {
  return new Map(
    fs.readdirSync(dir).map((f) => {
      const text = fs.readFileSync(path.join(dir, f), 'utf8');
      return [f, f === 'manifest.json' ? JSON.stringify(JSON.parse(text).outputs) : text];
    }),
  );
}

const madeInputs = () => new Set(fs.readdirSync(os.tmpdir()).filter((f) => f.startsWith('catintel-oasis-input-')));

/**
 * Whether every temporary input made since `before` is gone. Other test files run `oasis run --oed-*` side
 * by side in the same temporary folder, so one of theirs may be there for a moment: a leak is one that
 * stays, so wait (a few seconds at most) for the others' runs to end and remove theirs.
 */
async function noInputLeft(before: Set<string>): Promise<boolean> {
  for (let waited = 0; waited < 30_000; waited += 250) {
    if ([...madeInputs()].every((f) => before.has(f))) return true;
    await new Promise((r) => setTimeout(r, 250));
  }
  return false;
}

describe('catintel oasis run from OED', () => {
  it('writes what oasis files then oasis run --input write, and leaves no temporary input behind', async () => {
    const dir = tempDir('catintel-oasis-oed-');
    const before = madeInputs();
    const direct = await cli([
      '--quiet',
      'oasis',
      'run',
      '--model',
      MODEL,
      ...OED,
      '--out',
      path.join(dir, 'direct'),
      '--settings',
      SETTINGS,
    ]);
    expect(direct.code, direct.stderr).toBe(0);
    expect(await noInputLeft(before)).toBe(true);
    const files = await cli(['--quiet', 'oasis', 'files', ...OED, '--out', path.join(dir, 'input')]);
    expect(files.code, files.stderr).toBe(0);
    const stepwise = await cli([
      '--quiet',
      'oasis',
      'run',
      '--model',
      MODEL,
      '--input',
      path.join(dir, 'input'),
      '--out',
      path.join(dir, 'stepwise'),
      '--settings',
      SETTINGS,
    ]);
    expect(stepwise.code, stepwise.stderr).toBe(0);
    const a = outputs(path.join(dir, 'direct'));
    const b = outputs(path.join(dir, 'stepwise'));
    expect([...a.keys()].sort()).toEqual([...b.keys()].sort());
    expect(a.get('il_S1_melt.csv')!.split('\n').length).toBeGreaterThan(100);
    for (const [f, text] of a) expect(b.get(f), f).toBe(text);
  });

  it('an account-only cyber book (--oed-account alone, with keys for its nine coverages) runs as oasis files then oasis run --input', async () => {
    const dir = tempDir('catintel-oasis-oed-');
    // PiWind's hazard and vulnerability for the cyber case's one account: a key per cyber coverage.
    const keys = path.join(dir, 'keys.csv');
    fs.writeFileSync(
      keys,
      [
        'LocID,PerilID,CoverageTypeID,AreaPerilID,VulnerabilityID',
        ...[7, 8, 9, 10, 11, 12, 13, 14, 15].map((c) => `1,WTC,${c},54,${c % 2 ? 2 : 5}`),
      ].join('\n') + '\n',
    );
    const cyber = ['--oed-account', sharedData('oasis_fm_validation', 'cyber', 'account.csv'), '--keys', keys];
    const direct = await cli([
      '--quiet',
      'oasis',
      'run',
      '--model',
      MODEL,
      ...cyber,
      '--out',
      path.join(dir, 'direct'),
      '--settings',
      SETTINGS,
    ]);
    expect(direct.code, direct.stderr).toBe(0);
    const files = await cli(['--quiet', 'oasis', 'files', ...cyber, '--out', path.join(dir, 'input')]);
    expect(files.code, files.stderr).toBe(0);
    const stepwise = await cli([
      '--quiet',
      'oasis',
      'run',
      '--model',
      MODEL,
      '--input',
      path.join(dir, 'input'),
      '--out',
      path.join(dir, 'stepwise'),
      '--settings',
      SETTINGS,
    ]);
    expect(stepwise.code, stepwise.stderr).toBe(0);
    const a = outputs(path.join(dir, 'direct'));
    const b = outputs(path.join(dir, 'stepwise'));
    expect([...a.keys()].sort()).toEqual([...b.keys()].sort());
    expect(a.get('il_S1_melt.csv')!.split('\n').length).toBeGreaterThan(10);
    for (const [f, text] of a) expect(b.get(f), f).toBe(text);
    const noKeys = await cli(['oasis', 'run', '--model', MODEL, cyber[0], cyber[1], '--out', path.join(dir, 'out')]);
    expect(noKeys.code).toBe(2);
    expect(noKeys.stderr).toMatch(/--oed-account needs --keys FILE: the model's keys for these accounts/);
  });

  it('needs exactly one of --input and --oed-location, and the keys with OED (exit 2, nothing written)', async () => {
    const dir = tempDir('catintel-oasis-oed-');
    const out = path.join(dir, 'out');
    const both = await cli(['oasis', 'run', '--model', MODEL, '--input', INPUT, ...OED, '--out', out]);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/either --input DIR .* or --oed-location FILE/);
    const noKeys = await cli([
      'oasis',
      'run',
      '--model',
      MODEL,
      '--oed-location',
      path.join(INPUT, 'location.csv'),
      '--out',
      out,
    ]);
    expect(noKeys.code).toBe(2);
    expect(noKeys.stderr).toMatch(/--oed-location needs --keys FILE/);
    const stray = await cli([
      'oasis',
      'run',
      '--model',
      MODEL,
      '--input',
      INPUT,
      '--keys',
      path.join(INPUT, 'keys.csv'),
      '--out',
      out,
    ]);
    expect(stray.code).toBe(2);
    expect(stray.stderr).toMatch(/go with --oed-location/);
    expect(fs.existsSync(out)).toBe(false);
  });

  it('takes the OED reinsurance files as a pair: one alone is refused with exit 2, nothing written', async () => {
    const out = path.join(tempDir('catintel-oasis-oed-'), 'out');
    const ri = sharedData('oasis_fm_validation', 'reinsurance4');
    const infoAlone = await cli([
      'oasis',
      'run',
      '--model',
      MODEL,
      ...OED,
      '--oed-ri-info',
      path.join(ri, 'ri_info.csv'),
      '--out',
      out,
    ]);
    expect(infoAlone.code).toBe(2);
    expect(infoAlone.stderr).toMatch(/--oed-ri-info needs --oed-ri-scope/);
    const withInput = await cli([
      'oasis',
      'run',
      '--model',
      MODEL,
      '--input',
      INPUT,
      '--oed-ri-scope',
      path.join(ri, 'ri_scope.csv'),
      '--out',
      out,
    ]);
    expect(withInput.code).toBe(2);
    expect(withInput.stderr).toMatch(/go with --oed-location/);
    expect(fs.existsSync(out)).toBe(false);
  });
  it('counts affected risks (SELT sidx -4) by location and building, as Oasis does: a location hit on its building and its contents counts once', async () => {
    const dir = tempDir('catintel-oasis-risks-');
    const lines = fs.readFileSync(path.join(INPUT, 'location.csv'), 'utf8').trim().split('\n');
    const header = lines[0].split(',');
    const [b, c] = [header.indexOf('BuildingTIV'), header.indexOf('ContentsTIV')];
    const rows = lines.slice(1).map((l) => {
      const cells = l.split(',');
      cells[c] = String(Number(cells[b]) / 2); // contents at half the building: two coverages a location
      return cells.join(',');
    });
    fs.writeFileSync(path.join(dir, 'location.csv'), [lines[0], ...rows].join('\n') + '\n');
    const r = await cli([
      '--quiet',
      'oasis',
      'run',
      '--model',
      MODEL,
      '--oed-location',
      path.join(dir, 'location.csv'),
      '--keys',
      path.join(INPUT, 'keys.csv'),
      '--out',
      path.join(dir, 'out'),
      '--settings',
      SETTINGS,
    ]);
    expect(r.code, r.stderr).toBe(0);
    const affected = fs
      .readFileSync(path.join(dir, 'out', 'gul_S1_selt.csv'), 'utf8')
      .trim()
      .split('\n')
      .slice(1)
      .map((l) => l.split(','))
      .filter((cells) => cells[2] === '-4')
      .map((cells) => Number(cells[3]));
    expect(affected.length).toBeGreaterThan(0);
    expect(Math.max(...affected)).toBeLessThanOrEqual(rows.length); // never more than the locations
  });
});
