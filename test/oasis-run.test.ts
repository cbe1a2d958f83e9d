/**
 * `catintel oasis run` on Oasis's own PiWind model and inputs (../shared/data/oasis_piwind), compared
 * row by row with the outputs Oasis wrote for the same run (expected_all_outputs/output).
 *
 * Reproduced, every column within 0.01 %, for gul and il: every row of the MELT, SELT, QELT, EPT
 * (EPCalc 1-4), PSEPT, PALT, SPLT, MPLT and QPLT, the sampled rows included (PiWind's settings ask
 * for one sample; the engine draws it as oasislmf 2.5's gulmc does), and summary-info byte for byte.
 * Not produced: the ri and rl perspectives (reinsurance), which the command lists as not written.
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
    else if (r.some((v, i) => !close(v, got[i]))) bad.push(`${name} ${key(r)}: expected ${r.join(',')} got ${got.join(',')}`);
  }
  const wanted = new Set(expected.map(key));
  return { expected: expected.length, matched: expected.length - bad.length, bad, extra: ours.filter((r) => !wanted.has(key(r))).length };
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
  const r = await cli(['oasis', 'run', '--model', path.join(PIWIND, 'model_data'), '--input', path.join(PIWIND, 'expected_all_outputs', 'input'), '--out', out, '--settings', path.join(EXPECTED, 'analysis_settings.json'), '--json']);
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
      expect(fs.readFileSync(path.join(out, `${p}_S1_summary-info.csv`), 'utf8')).toBe(fs.readFileSync(path.join(EXPECTED, `${p}_S1_summary-info.csv`), 'utf8'));
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
    expect((await cli(['oasis', 'run', '--model', model, '--input', input, '--out', uncapped, '--gul-alloc-rule', '0'])).code).toBe(0);
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
    const a = await cli(['oasis', 'run', '--model', model, '--input', withProfile3('3,34,0.0,0.0,0.0,5500000.0,0.0,0.3,0.0,0.0'), '--out', rule34]);
    expect(a.code, a.stderr).toBe(0);
    expect((await cli(['oasis', 'run', '--model', model, '--input', withProfile3('3,2,0.0,0.0,0.0,5500000.0,1e18,0.3,0.0,0.0'), '--out', rule2])).code).toBe(0);
    const ils = fs.readdirSync(rule2).filter((f) => f.startsWith('il_')).sort();
    expect(ils.length).toBeGreaterThan(0);
    for (const f of ils) expect(fs.readFileSync(path.join(rule34, f), 'utf8'), f).toBe(fs.readFileSync(path.join(rule2, f), 'utf8'));
  });

  it('an fm_profile calc rule Oasis does not define is refused with exit 2, naming the rule id', async () => {
    const r = await cli(['oasis', 'run', '--model', model, '--input', withProfile3('3,42,0.0,0.0,0.0,5500000.0,100000000.0,0.3,0.0,0.0'), '--out', tempDir()]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/profile_id 3 uses calcrule_id 42/);
  });

  it('a missing model directory is a usage error naming the flag', async () => {
    const r = await cli(['oasis', 'run', '--model', '/nonexistent/model', '--input', input, '--out', tempDir()]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--model \/nonexistent\/model is not a directory/);
  });
});
