/**
 * The ri and rl perspectives of `catintel oasis run`: an input directory with RI_n/ folders (PiWind's
 * ten locations with two inuring levels, the files oasislmf 2.5.8's generate-oasis-files wrote) run
 * with 10 samples, compared with what oasislmf 2.5.8's generate-losses wrote for the same files
 * (fixtures/oasis-ri-run, its README says how both were made).
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli, tempDir } from './helpers/cli.js';
import { FIXTURES, sharedData } from './helpers/paths.js';

const MODEL = sharedData('oasis_piwind', 'model_data');
const CASE = path.join(FIXTURES, 'oasis-ri-run');
const EXPECTED = path.join(CASE, 'expected');

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

/** Key columns per table. */
const KEYS: Record<string, number[]> = { melt: [0, 1, 2], ept: [0, 1, 2, 3], psept: [0, 1, 2, 3], palt: [0, 1] };

/** Settings with ri/rl on or off (the fixture's, otherwise unchanged). */
function settings(reinsurance: boolean): string {
  const s = JSON.parse(fs.readFileSync(path.join(CASE, 'analysis_settings.json'), 'utf8'));
  s.ri_output = reinsurance;
  s.rl_output = reinsurance;
  const file = path.join(tempDir('catintel-ri-settings-'), 'analysis_settings.json');
  fs.writeFileSync(file, JSON.stringify(s));
  return file;
}

async function run(reinsurance: boolean): Promise<{ out: string; result: any }> {
  const out = tempDir('catintel-ri-run-');
  const r = await cli([
    'oasis',
    'run',
    '--model',
    MODEL,
    '--input',
    path.join(CASE, 'input'),
    '--out',
    out,
    '--settings',
    settings(reinsurance),
    '--json',
  ]);
  expect(r.code, r.stderr).toBe(0);
  return { out, result: r.json() };
}

let withRi: { out: string; result: any };
let withoutRi: { out: string; result: any };

beforeAll(async () => {
  withRi = await run(true);
  withoutRi = await run(false);
});

describe('catintel oasis run: ri and rl from RI_n folders, as oasislmf 2.5.8 computes them', () => {
  it('writes ri (net of both levels) and rl_IP1, rl_IP2 (what each level takes), and skips nothing', () => {
    expect(withRi.result.skipped).toEqual([]);
    const names = fs.readdirSync(withRi.out);
    for (const p of ['ri_S1', 'rl_IP1_S1', 'rl_IP2_S1'])
      for (const t of ['melt', 'selt', 'qelt', 'ept', 'psept', 'palt', 'splt', 'mplt', 'qplt'])
        expect(names).toContain(`${p}_${t}.csv`);
    expect(names).not.toContain('rl_IP3_S1_melt.csv');
  });

  const files = fs.readdirSync(EXPECTED).filter((f) => !f.includes('summary-info'));
  for (const file of files) {
    it(`${file}: the header, and every row oasislmf wrote within 0.01 %`, () => {
      const table = file
        .replace(/\.csv$/, '')
        .split('_')
        .pop()!;
      const want = read(path.join(EXPECTED, file));
      const ours = read(path.join(withRi.out, file));
      expect(ours.header).toBe(want.header);
      const key = (r: Row) => KEYS[table].map((k) => r[k]).join(',');
      // oasislmf sums losses in float32: ten samples all at one loss (a layer's limit) come out a few ulps
      // apart and print an SDLoss of 0.02-0.05 on 400,000 where ours is 0; agreed within a millionth of
      // the row's MeanLoss, as scripts/conformance-oasislmf.sh agrees it for gul and il.
      const sd = want.header.split(',').indexOf('SDLoss');
      const mean = want.header.split(',').indexOf('MeanLoss');
      const same = (r: Row, got: Row) =>
        r.every(
          (v, i) =>
            (i === sd && Math.abs(Number(v) - Number(got[i])) <= Math.max(1e-6 * Math.abs(Number(r[mean])), 0.01)) ||
            close(v, got[i]),
        );
      const mine = new Map(ours.rows.map((r) => [key(r), r]));
      const bad: string[] = [];
      for (const r of want.rows) {
        const got = mine.get(key(r));
        if (!got) bad.push(`${key(r)}: missing`);
        else if (!same(r, got)) bad.push(`${key(r)}: oasislmf ${r.join(',')}, ours ${got.join(',')}`);
      }
      expect(bad).toEqual([]);
      // The fixture keeps the MELT rows with a loss: every row of ours it lacks must print no loss.
      const wanted = new Set(want.rows.map(key));
      const extra = ours.rows.filter((r) => !wanted.has(key(r)));
      if (table === 'melt') expect(extra.filter((r) => Number(r[5]) !== 0)).toEqual([]);
      else expect(extra).toEqual([]);
    });
  }

  it('ri summary-info is the fm summary map TIV, as oasislmf writes it; rl has none, as oasislmf writes none', () => {
    expect(fs.readFileSync(path.join(withRi.out, 'ri_S1_summary-info.csv'), 'utf8')).toBe(
      fs.readFileSync(path.join(EXPECTED, 'ri_S1_summary-info.csv'), 'utf8'),
    );
    expect(fs.readdirSync(withRi.out).filter((f) => f.startsWith('rl_') && f.includes('summary-info'))).toEqual([]);
  });

  it('no SELT sidx -4 rows for ri and rl (oasislmf counts affected risks for gul and il only)', () => {
    expect(read(path.join(withRi.out, 'ri_S1_selt.csv')).rows.filter((r) => r[2] === '-4')).toEqual([]);
    expect(read(path.join(withRi.out, 'il_S1_selt.csv')).rows.filter((r) => r[2] === '-4').length).toBeGreaterThan(0);
  });

  it('the levels add up: per event, il = ri + rl_IP1 + rl_IP2 (mean loss, as printed: float32, two decimals)', () => {
    const means = (p: string) =>
      new Map(
        read(path.join(withRi.out, `${p}_melt.csv`))
          .rows.filter((r) => r[2] === '1')
          .map((r) => [r[0], Number(r[5])]),
      );
    const il = means('il_S1');
    const ri = means('ri_S1');
    const rl1 = means('rl_IP1_S1');
    const rl2 = means('rl_IP2_S1');
    let ceded = 0;
    for (const [event, loss] of il) {
      expect(Math.abs(loss - ri.get(event)! - rl1.get(event)! - rl2.get(event)!), `event ${event}`).toBeLessThanOrEqual(
        Math.max(0.02, 1e-6 * loss),
      );
      ceded += rl1.get(event)! + rl2.get(event)!;
    }
    expect(ceded).toBeGreaterThan(0);
  });

  it('gul and il are the same bytes with and without ri/rl asked for', () => {
    const gulIl = fs.readdirSync(withoutRi.out).filter((f) => /^(gul|il)_/.test(f));
    expect(gulIl.length).toBe(20);
    for (const f of gulIl)
      expect(fs.readFileSync(path.join(withRi.out, f), 'utf8'), f).toBe(
        fs.readFileSync(path.join(withoutRi.out, f), 'utf8'),
      );
  });

  it('shared between threads, the ri and rl files are the same bytes', async () => {
    const before = process.env.CATINTEL_OASIS_THREADS;
    process.env.CATINTEL_OASIS_THREADS = '3';
    try {
      const threaded = await run(true);
      for (const f of fs.readdirSync(withRi.out).filter((n) => /^r[il]_/.test(n)))
        expect(fs.readFileSync(path.join(threaded.out, f), 'utf8'), f).toBe(
          fs.readFileSync(path.join(withRi.out, f), 'utf8'),
        );
    } finally {
      if (before === undefined) delete process.env.CATINTEL_OASIS_THREADS;
      else process.env.CATINTEL_OASIS_THREADS = before;
    }
  });

  it('asked for ri/rl on an input without RI_n folders: listed as not written, gul and il as before', async () => {
    const out = tempDir('catintel-ri-run-');
    const r = await cli([
      'oasis',
      'run',
      '--model',
      MODEL,
      '--input',
      sharedData('oasis_piwind', 'expected_all_outputs', 'input'),
      '--out',
      out,
      '--settings',
      settings(true),
      '--json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json().skipped).toEqual([
      { output: 'ri_output', reason: expect.stringMatching(/no RI_1\/ reinsurance folder/) },
      { output: 'rl_output', reason: expect.stringMatching(/no RI_1\/ reinsurance folder/) },
    ]);
  });
  it("from the OED (--oed-location/--oed-account/--oed-ri-info/--oed-ri-scope) the ri and rl files are the bytes oasislmf's own input files give", async () => {
    const oed = path.join(CASE, 'oed');
    const out = tempDir('catintel-ri-oed-');
    const keys = sharedData('oasis_piwind', 'expected_all_outputs', 'input', 'keys.csv');
    const r = await cli([
      'oasis',
      'run',
      '--model',
      MODEL,
      '--oed-location',
      path.join(oed, 'location.csv'),
      '--oed-account',
      path.join(oed, 'account.csv'),
      '--oed-ri-info',
      path.join(oed, 'ri_info.csv'),
      '--oed-ri-scope',
      path.join(oed, 'ri_scope.csv'),
      '--keys',
      keys,
      '--out',
      out,
      '--settings',
      settings(true),
      '--json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const perspectiveFiles = fs.readdirSync(withRi.out).filter((f) => /^(ri|rl_IP\d)_/.test(f));
    expect(perspectiveFiles.length).toBeGreaterThan(20);
    for (const f of perspectiveFiles)
      expect(fs.readFileSync(path.join(out, f), 'utf8'), f).toBe(fs.readFileSync(path.join(withRi.out, f), 'utf8'));
  });
  it('with site deductibles and limits (a multi-peril programme that level 1 does not reduce), il is the same with and without a treaty and ri/rl', async () => {
    const oed = path.join(CASE, 'oed');
    const dir = tempDir('catintel-ri-site-terms-');
    const [head, ...rows] = fs.readFileSync(path.join(oed, 'location.csv'), 'utf8').trim().split('\n');
    const terms = rows.map((r, i) => `${r},${[5000, 20000, 0, 1000][i % 4]},${i % 2 ? 150000 : 0}`);
    fs.writeFileSync(
      path.join(dir, 'location.csv'),
      [`${head},LocDed1Building,LocLimit1Building`, ...terms].join('\n') + '\n',
    );
    const keys = sharedData('oasis_piwind', 'expected_all_outputs', 'input', 'keys.csv');
    const run = async (reinsurance: boolean) => {
      const out = tempDir('catintel-ri-site-out-');
      // Without the treaty the kernel adds the items into level 1 itself; with it, the engine gets them one by one.
      const treaty = reinsurance
        ? ['--oed-ri-info', path.join(oed, 'ri_info.csv'), '--oed-ri-scope', path.join(oed, 'ri_scope.csv')]
        : [];
      const r = await cli([
        'oasis',
        'run',
        '--model',
        MODEL,
        '--oed-location',
        path.join(dir, 'location.csv'),
        '--oed-account',
        path.join(oed, 'account.csv'),
        ...treaty,
        '--keys',
        keys,
        '--out',
        out,
        '--settings',
        settings(reinsurance),
        '--json',
      ]);
      expect(r.code, r.stderr).toBe(0);
      return out;
    };
    const [withRiOut, withoutRiOut] = [await run(true), await run(false)];
    const ilFiles = fs.readdirSync(withoutRiOut).filter((f) => f.startsWith('il_'));
    expect(ilFiles.length).toBeGreaterThan(5);
    for (const f of ilFiles)
      expect(fs.readFileSync(path.join(withoutRiOut, f), 'utf8'), f).toBe(
        fs.readFileSync(path.join(withRiOut, f), 'utf8'),
      );
  });
});
