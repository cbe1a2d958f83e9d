/**
 * `catintel oasis run` on Oasis's own PiWind model and inputs (../shared/data/oasis_piwind), compared
 * row by row with the outputs Oasis wrote for the same run (expected_all_outputs/output).
 *
 * Reproduced, every column within 0.01 %, for gul and il: every row of the MELT, SELT, QELT, EPT
 * (EPCalc 1-4), PSEPT, PALT, SPLT, MPLT and QPLT, the sampled rows included (PiWind's settings ask
 * for one sample; the engine draws it as oasislmf 2.5's gulmc does), and summary-info byte for byte.
 * Not produced: the ri and rl perspectives, which the command lists as not written since PiWind's input
 * has no RI_n folders (test/oasis-run-reinsurance.test.ts runs them).
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli, tempDir } from './helpers/cli.js';
import { sharedData } from './helpers/paths.js';

const PIWIND = sharedData('oasis_piwind');
const EXPECTED = path.join(PIWIND, 'expected_all_outputs', 'output');

type Row = string[];
function read(file: string): { header: string; rows: Row[] } {
  const lines = fs.readFileSync(file, 'utf8').trim().split('\n');
  return { header: lines[0], rows: lines.slice(1).map((l) => l.split(',')) };
}

/** Relative 0.01 %, with the printed precision (0.01) as the floor for values near zero. */
function close(a: string, b: string): boolean {
  if (a === b) return true;
  const x = Number(a);
  const y = Number(b);
  return Math.abs(x - y) <= Math.max(1e-4 * Math.max(Math.abs(x), Math.abs(y)), 0.01);
}

/**
 * Compares every expected row with ours, matched on the key columns; every other column must be
 * close. Returns what matched, a description of every row that did not, and how many of ours are extra.
 */
function compare(name: string, keyCols: number[], ours: Row[], expected: Row[]) {
  const key = (r: Row) => keyCols.map((k) => r[k]).join(',');
  const mine = new Map(ours.map((r) => [key(r), r]));
  const bad: string[] = [];
  for (const r of expected) {
    const got = mine.get(key(r));
    if (!got) bad.push(`${name} ${key(r)}: missing`);
    else if (r.some((v, i) => !close(v, got[i])))
      bad.push(`${name} ${key(r)}: expected ${r.join(',')} got ${got.join(',')}`);
  }
  const wanted = new Set(expected.map(key));
  return {
    expected: expected.length,
    matched: expected.length - bad.length,
    bad,
    extra: ours.filter((r) => !wanted.has(key(r))).length,
  };
}

/** Each ORD file Oasis wrote for PiWind, the columns that identify a row, and its row count (gul, il). */
const TABLES: { table: string; key: number[]; rows: [number, number] }[] = [
  { table: 'melt', key: [0, 1, 2], rows: [756, 756] },
  { table: 'selt', key: [0, 1, 2], rows: [1113, 893] },
  { table: 'qelt', key: [0, 1, 2], rows: [2268, 2268] },
  { table: 'ept', key: [0, 1, 2, 3], rows: [224, 224] },
  { table: 'psept', key: [0, 1, 2, 3], rows: [56, 56] },
  { table: 'palt', key: [0, 1], rows: [2, 2] },
  { table: 'splt', key: [0, 2, 9], rows: [735, 515] },
  { table: 'mplt', key: [0, 2, 9], rows: [735, 213] },
  { table: 'qplt', key: [0, 2, 9], rows: [2268, 2268] },
];

let out: string;
let result: any;
let code: number;

beforeAll(async () => {
  out = tempDir('catintel-oasis-');
  const r = await cli([
    'oasis',
    'run',
    '--model',
    path.join(PIWIND, 'model_data'),
    '--input',
    path.join(PIWIND, 'expected_all_outputs', 'input'),
    '--out',
    out,
    '--settings',
    path.join(EXPECTED, 'analysis_settings.json'),
    '--json',
  ]);
  code = r.code;
  result = code === 0 ? r.json() : r.stderr;
});

describe('catintel oasis run on PiWind reproduces every row of Oasis outputs', () => {
  it('succeeds with the one sample the settings ask for, and says what it leaves out', () => {
    expect(code, String(result)).toBe(0);
    expect(result.events).toBe(378);
    expect(result.periods).toBe(1000);
    expect(result.samples).toBe(1);
    expect(result.skipped.map((s: any) => s.output)).toEqual(['ri_output', 'rl_output']);
  });

  for (const p of ['gul', 'il'] as const) {
    for (const t of TABLES) {
      it(`${p}_S1_${t.table}: the header, and every row within 0.01 %`, () => {
        const ours = read(path.join(out, `${p}_S1_${t.table}.csv`));
        const want = read(path.join(EXPECTED, `${p}_S1_${t.table}.csv`));
        expect(ours.header).toBe(want.header);
        const r = compare(`${p}_S1_${t.table}`, t.key, ours.rows, want.rows);
        expect(r.bad).toEqual([]);
        expect(r.matched).toBe(t.rows[p === 'gul' ? 0 : 1]);
        expect(r.extra).toBe(0);
      });
    }

    it(`${p}: summary-info as Oasis writes it`, () => {
      expect(fs.readFileSync(path.join(out, `${p}_S1_summary-info.csv`), 'utf8')).toBe(
        fs.readFileSync(path.join(EXPECTED, `${p}_S1_summary-info.csv`), 'utf8'),
      );
    });
  }
});

describe('catintel oasis run: choices a user makes', () => {
  const model = path.join(PIWIND, 'model_data');
  const input = path.join(PIWIND, 'expected_all_outputs', 'input');

  it('without gul_alloc_rule 1 the two perils on a coverage add up past its TIV (PiWind event 3)', async () => {
    const capped = tempDir('catintel-oasis-');
    const uncapped = tempDir('catintel-oasis-');
    expect((await cli(['oasis', 'run', '--model', model, '--input', input, '--out', capped])).code).toBe(0);
    expect(
      (await cli(['oasis', 'run', '--model', model, '--input', input, '--out', uncapped, '--gul-alloc-rule', '0']))
        .code,
    ).toBe(0);
    const event3 = (dir: string) => Number(read(path.join(dir, 'gul_S1_melt.csv')).rows.find((r) => r[0] === '3')![5]);
    expect(event3(capped)).toBeCloseTo(3_400_000, 0);
    expect(event3(uncapped)).toBeGreaterThan(6_000_000);
  });

  /** PiWind's input with fm_profile.csv's profile 3 (the second layer) rewritten. */
  function withProfile3(row: string): string {
    const dir = tempDir('catintel-oasis-in-');
    for (const f of fs.readdirSync(input)) fs.copyFileSync(path.join(input, f), path.join(dir, f));
    const profile = path.join(dir, 'fm_profile.csv');
    fs.chmodSync(profile, 0o644);
    fs.writeFileSync(profile, fs.readFileSync(profile, 'utf8').replace(/\n3,2,[^\n]*/, `\n${row}`));
    return dir;
  }

  it('il runs through the financial module engine: any Oasis calc rule, e.g. 34 (deductible, attachment, share) as rule 2 without a limit', async () => {
    const rule34 = tempDir('catintel-oasis-');
    const rule2 = tempDir('catintel-oasis-');
    const a = await cli([
      'oasis',
      'run',
      '--model',
      model,
      '--input',
      withProfile3('3,34,0.0,0.0,0.0,5500000.0,0.0,0.3,0.0,0.0'),
      '--out',
      rule34,
    ]);
    expect(a.code, a.stderr).toBe(0);
    expect(
      (
        await cli([
          'oasis',
          'run',
          '--model',
          model,
          '--input',
          withProfile3('3,2,0.0,0.0,0.0,5500000.0,1e18,0.3,0.0,0.0'),
          '--out',
          rule2,
        ])
      ).code,
    ).toBe(0);
    const ils = fs
      .readdirSync(rule2)
      .filter((f) => f.startsWith('il_'))
      .sort();
    expect(ils.length).toBeGreaterThan(0);
    for (const f of ils)
      expect(fs.readFileSync(path.join(rule34, f), 'utf8'), f).toBe(fs.readFileSync(path.join(rule2, f), 'utf8'));
  });

  it('an fm_profile calc rule Oasis does not define is refused with exit 2, naming the rule id', async () => {
    const r = await cli([
      'oasis',
      'run',
      '--model',
      model,
      '--input',
      withProfile3('3,42,0.0,0.0,0.0,5500000.0,100000000.0,0.3,0.0,0.0'),
      '--out',
      tempDir(),
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/profile_id 3 uses calcrule_id 42/);
  });

  it('a missing model directory is a usage error naming the flag', async () => {
    const r = await cli(['oasis', 'run', '--model', '/nonexistent/model', '--input', input, '--out', tempDir()]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--model \/nonexistent\/model is not a directory/);
  });
});

describe('catintel oasis run with 10 samples: the standard deviation of the samples', () => {
  const model = path.join(PIWIND, 'model_data');
  const input = path.join(PIWIND, 'expected_all_outputs', 'input');
  let dir: string;

  beforeAll(async () => {
    const settings = JSON.parse(fs.readFileSync(path.join(EXPECTED, 'analysis_settings.json'), 'utf8'));
    settings.number_of_samples = 10;
    const file = path.join(tempDir('catintel-oasis-settings-'), 'analysis_settings.json');
    fs.writeFileSync(file, JSON.stringify(settings));
    dir = tempDir('catintel-oasis-');
    const r = await cli(['oasis', 'run', '--model', model, '--input', input, '--out', dir, '--settings', file]);
    expect(r.code, r.stderr).toBe(0);
  });

  /** The sample standard deviation (divided by S - 1) of each event's 10 SELT samples, absent ones 0. */
  function sdFromSelt(p: 'gul' | 'il'): Map<string, number> {
    const samples = new Map<string, number[]>();
    for (const r of read(path.join(dir, `${p}_S1_selt.csv`)).rows) {
      const sidx = Number(r[2]);
      if (sidx < 1) continue;
      const v = samples.get(r[0]) ?? new Array(10).fill(0);
      v[sidx - 1] = Number(r[3]);
      samples.set(r[0], v);
    }
    const sd = new Map<string, number>();
    for (const [event, v] of samples) {
      const mean = v.reduce((a, b) => a + b, 0) / v.length;
      sd.set(event, Math.sqrt(v.reduce((a, b) => a + (b - mean) ** 2, 0) / (v.length - 1)));
    }
    return sd;
  }

  for (const p of ['gul', 'il'] as const) {
    it(`${p}: MELT and MPLT SDLoss are the spread of the event's own sampled losses, a single loss among 10 included`, () => {
      const sd = sdFromSelt(p);
      const melt = read(path.join(dir, `${p}_S1_melt.csv`)).rows.filter((r) => r[2] === '2');
      const mplt = read(path.join(dir, `${p}_S1_mplt.csv`)).rows.filter((r) => r[9] === '2');
      const wrong = [
        ...melt
          .filter((r) => !close(r[6], (sd.get(r[0]) ?? 0).toFixed(2)))
          .map((r) => `melt event ${r[0]}: SDLoss ${r[6]}, samples give ${sd.get(r[0])}`),
        ...mplt
          .filter((r) => !close(r[12], (sd.get(r[2]) ?? 0).toFixed(2)))
          .map((r) => `mplt event ${r[2]}: SDLoss ${r[12]}, samples give ${sd.get(r[2])}`),
      ];
      expect(wrong).toEqual([]);
      // Events where exactly one of the 10 samples has a loss still have a spread (insured: 31 of them).
      const single = melt.filter((r) => Number(r[4]) === 0.1);
      if (p === 'il') expect(single.length).toBeGreaterThan(0);
      for (const r of single) expect(Number(r[6])).toBeGreaterThan(0);
    });
  }

  it('il event 87: SDLoss 49,108, as oasislmf 2.5.8 prints it for the same run', () => {
    const row = read(path.join(dir, 'il_S1_melt.csv')).rows.find((r) => r[0] === '87' && r[2] === '2')!;
    expect(Number(row[6])).toBeCloseTo(49108, -1);
  });
});

/**
 * PiWind's input with TIVs in cents, as generate-oasis-files writes it from such a location file: the
 * summary maps keep the location's TIV, coverages.csv holds it as a float32 (220000.13 becomes 220000.125).
 */
function piwindWithCents(): string {
  const input = path.join(PIWIND, 'expected_all_outputs', 'input');
  const dir = tempDir('catintel-oasis-cents-');
  for (const f of fs.readdirSync(input)) fs.writeFileSync(path.join(dir, f), fs.readFileSync(path.join(input, f)));
  const cents = (tiv: string, loc: number) => String(Number(tiv) + loc * 0.13);
  for (const map of ['gul_summary_map.csv', 'fm_summary_map.csv']) {
    const lines = fs.readFileSync(path.join(dir, map), 'utf8').trim().split('\n');
    const cols = lines[0].split(',');
    const [loc, tiv] = [cols.indexOf('loc_id'), cols.indexOf('tiv')];
    const rows = lines
      .slice(1)
      .map((l) => l.split(','))
      .map((r) => Object.assign(r, { [tiv]: cents(r[tiv], Number(r[loc])) }).join(','));
    fs.writeFileSync(path.join(dir, map), [lines[0], ...rows].join('\n') + '\n');
  }
  // Coverage c of PiWind is location c's building.
  const cov = fs.readFileSync(path.join(dir, 'coverages.csv'), 'utf8').trim().split('\n');
  const rows = cov
    .slice(1)
    .map((l) => l.split(','))
    .map(([c, tiv]) => `${c},${Math.fround(Number(cents(tiv, Number(c))))}`);
  fs.writeFileSync(path.join(dir, 'coverages.csv'), [cov[0], ...rows].join('\n') + '\n');
  return dir;
}

describe('catintel oasis run: summary-info TIV', () => {
  it('is the summary map TIV, as Oasis sums it, not coverages.csv, when TIVs have cents', async () => {
    const input = piwindWithCents();
    const out = tempDir('catintel-oasis-');
    const r = await cli([
      'oasis',
      'run',
      '--model',
      path.join(PIWIND, 'model_data'),
      '--input',
      input,
      '--out',
      out,
      '--settings',
      path.join(EXPECTED, 'analysis_settings.json'),
    ]);
    expect(r.code, r.stderr).toBe(0);
    // What oasislmf 2.5.8 prints for these maps (pandas: map sorted by item_id / output_id, one row per
    // location, building and coverage type, tiv summed); coverages.csv would give 3400007.09765625.
    expect(fs.readFileSync(path.join(out, 'gul_S1_summary-info.csv'), 'utf8')).toBe(
      'summary_id,_not_set_,tiv\n1,All-Risks,3400007.1499999994\n',
    );
    expect(fs.readFileSync(path.join(out, 'il_S1_summary-info.csv'), 'utf8')).toBe(
      'summary_id,_not_set_,tiv\n1,All-Risks,3400007.1499999994\n',
    );
  });
});
