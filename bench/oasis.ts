/**
 * `catintel oasis run` side by side with oasislmf's `model generate-losses` (issue 12 part 3), in the same
 * run on the same machine, end to end as a user runs them (process start, reading the files, every output of
 * the analysis settings):
 *  - oasis.piwind: PiWind's model and input (../shared/data/oasis_piwind), its all-outputs analysis settings;
 *  - oasis.scaled_10k_10_samples: the seeded input below at 10,000 locations, with 10 samples per event (the
 *    per-sample work, which one sample hides);
 *  - oasis.scaled_100k: a seeded PiWind-like input of 100,000 locations (200,000 items: wind and surge on the
 *    building of each, areaperils and TIVs drawn over PiWind's footprint, PiWind's two-layer programme over
 *    all of them), generated into a temporary directory against PiWind's model files.
 * oasislmf is the one scripts/conformance-oasislmf.sh installs into the project's .venv (OASISLMF_VENV to use
 * another); the bench never installs it: without it, our times are printed and the referee is reported as
 * skipped. Its model files are converted with its csvtobin and correlations.csv given the current 6th
 * column, as in the conformance script. numba compiles oasislmf's kernels on its first run; run
 * `make conformance-oasislmf` once first so that its cache is warm (a cold cache is reported as is).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { mulberry32 } from '../src/lib/random.js';
import { runOasis } from '../src/loss/run.js';
import { emit, peakRssMb } from './report.js';

const OASISLMF_VERSION = '2.5.8';

function maxCol(file: string, col: number): number {
  const lines = fs.readFileSync(file, 'utf8').trim().split('\n').slice(1);
  let m = -Infinity;
  for (const l of lines) m = Math.max(m, Number(l.split(',')[col - 1]));
  return m;
}

function run(
  cmd: string,
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
): { seconds: number; ok: boolean; tail: string } {
  const t0 = performance.now();
  const r = spawnSync(cmd, args, { env, encoding: 'utf8', maxBuffer: 1 << 28 });
  const seconds = (performance.now() - t0) / 1000;
  return { seconds, ok: r.status === 0, tail: `${r.stderr ?? ''}${r.stdout ?? ''}`.slice(-2000) };
}

/** The venv's oasislmf bin directory, or the reason it cannot be used. */
export function referee(): { bin: string } | { skipped: string } {
  const venv = path.resolve(process.env.OASISLMF_VENV ?? '.venv');
  const bin = path.join(venv, 'bin');
  if (!fs.existsSync(path.join(bin, 'oasislmf')))
    return {
      skipped: `no oasislmf in ${path.basename(venv)} (make conformance-oasislmf installs oasislmf ${OASISLMF_VERSION} there)`,
    };
  const v = spawnSync(
    path.join(bin, 'python'),
    ['-c', 'import importlib.metadata as m; print(m.version("oasislmf"))'],
    { encoding: 'utf8' },
  );
  if (v.stdout.trim() !== OASISLMF_VERSION)
    return { skipped: `oasislmf ${v.stdout.trim() || '?'} in the venv, not ${OASISLMF_VERSION}` };
  return { bin };
}

/** Model files in oasislmf's binary forms (csvtobin), as scripts/conformance-oasislmf.sh converts them. */
export function convertModel(bin: string, modelCsv: string, out: string): void {
  fs.mkdirSync(out, { recursive: true });
  const c = (args: string[]) => {
    const r = run(path.join(bin, 'csvtobin'), args);
    if (!r.ok) throw new Error(`csvtobin ${args[0]} failed: ${r.tail}`);
  };
  const m = (f: string) => path.join(modelCsv, f);
  c(['eve', '-i', m('events_p.csv'), '-o', path.join(out, 'events_p.bin')]);
  c([
    'occurrence',
    '-i',
    m('occurrence_lt.csv'),
    '-o',
    path.join(out, 'occurrence_lt.bin'),
    '-P',
    String(maxCol(m('occurrence_lt.csv'), 2)),
  ]);
  c([
    'footprint',
    '-i',
    m('footprint.csv'),
    '-o',
    path.join(out, 'footprint.bin'),
    '-x',
    path.join(out, 'footprint.idx'),
    '-m',
    String(maxCol(m('intensity_bin_dict.csv'), 1)),
  ]);
  c([
    'vulnerability',
    '-i',
    m('vulnerability.csv'),
    '-o',
    path.join(out, 'vulnerability.bin'),
    '-d',
    String(maxCol(m('damage_bin_dict.csv'), 1)),
  ]);
  c(['damagebin', '-i', m('damage_bin_dict.csv'), '-o', path.join(out, 'damage_bin_dict.bin')]);
  c(['returnperiods', '-i', m('returnperiods.csv'), '-o', path.join(out, 'returnperiods.bin')]);
  c(['quantile', '-i', m('quantile.csv'), '-o', path.join(out, 'quantile.bin')]);
}

/** correlations.csv in the current 6-column layout (source_item_id 0), which oasislmf 2.5.8 expects and we read too. */
function sixColumnCorrelations(inputDir: string): void {
  const f = path.join(inputDir, 'correlations.csv');
  const lines = fs.readFileSync(f, 'utf8').trim().split('\n');
  if (lines[0].split(',').length === 6) return;
  fs.writeFileSync(f, [`${lines[0]},source_item_id`, ...lines.slice(1).map((l) => `${l},0`)].join('\n') + '\n');
}

/**
 * A PiWind-like Oasis input of n locations: per location one building coverage (TIV 50,000-1,000,000), a
 * wind item (areaperil 1-100, vulnerability 2) and a surge item (one of PiWind's surge areaperils,
 * vulnerability 8), each its own correlation group; all items under PiWind's two account layers.
 */
export function writeScaledInput(dir: string, n: number, seed: number): void {
  const rand = mulberry32(seed);
  const surgeAreas = [101, 112, 123, 134, 145, 154, 167, 178, 189, 200];
  fs.mkdirSync(dir, { recursive: true });
  const items = ['item_id,coverage_id,areaperil_id,vulnerability_id,group_id'];
  const coverages = ['coverage_id,tiv'];
  const corr = [
    'item_id,peril_correlation_group,damage_correlation_value,hazard_group_id,hazard_correlation_value,source_item_id',
  ];
  // The OED files oasislmf reads beside the Oasis files (PiWind's columns; PiWind's two-layer account).
  const location = [
    'PortNumber,AccNumber,LocNumber,IsTenant,BuildingID,CountryCode,Latitude,Longitude,StreetAddress,PostalCode,OccupancyCode,ConstructionCode,LocPerilsCovered,BuildingTIV,OtherTIV,ContentsTIV,BITIV,LocCurrency,OEDVersion,loc_id,loc_idx',
  ];
  const gulMap = [
    'loc_id,PortNumber,AccNumber,LocNumber,loc_idx,peril_id,coverage_type_id,tiv,coverage_id,item_id,building_id,layer_id,agg_id',
  ];
  const programme = ['from_agg_id,level_id,to_agg_id'];
  const xref = ['output,agg_id,layer_id'];
  const fmMap = [
    'loc_id,PortNumber,AccNumber,LocNumber,loc_idx,peril_id,coverage_type_id,tiv,coverage_id,agg_id,building_id,risk_id,PolNumber,layer_id,output_id,acc_idx',
  ];
  let item = 0;
  let output = 0;
  for (let loc = 1; loc <= n; loc++) {
    const tiv = `${Math.round(50_000 + rand() * 950_000)}.0`;
    coverages.push(`${loc},${tiv}`);
    location.push(
      `1,A11111,${10_000_000_000 + loc},1,1,GB,${(52.7 + rand() * 0.2).toFixed(8)},${(-0.99 + rand() * 0.2).toFixed(8)},${loc} HIGH STREET,LE13 0HL,1050,5000,WW1,${tiv},0.0,0.0,0.0,GBP,latest version,${loc},${loc - 1}`,
    );
    for (const [peril, area, vuln] of [
      ['WTC', 1 + Math.floor(rand() * 100), 2],
      ['WSS', surgeAreas[Math.floor(rand() * surgeAreas.length)], 8],
    ] as const) {
      item++;
      const group = 1 + Math.floor(rand() * 2_147_483_646);
      items.push(`${item},${loc},${area},${vuln},${group}`);
      corr.push(`${item},1,0.7,${group},0.0,0`);
      gulMap.push(`${loc},1,A11111,${10_000_000_000 + loc},${loc - 1},${peril},1,${tiv},${loc},${item},1,1,${item}`);
      programme.push(`${item},1,1`);
      for (const layer of [1, 2]) {
        output++;
        xref.push(`${output},${item},${layer}`);
        fmMap.push(
          `${loc},1,A11111,${10_000_000_000 + loc},${loc - 1},${peril},1,${tiv},${loc},${item},1,1,Layer${layer},${layer},${output},${layer - 1}`,
        );
      }
    }
  }
  const w = (name: string, rows: string[]) => fs.writeFileSync(path.join(dir, name), rows.join('\n') + '\n');
  w('location.csv', location);
  w('account.csv', [
    'PortNumber,AccNumber,PolNumber,LayerNumber,AccCurrency,PolPerilsCovered,PolInceptionDate,PolExpiryDate,PolPeril,LayerParticipation,LayerLimit,LayerAttachment,OEDVersion,acc_idx,layer_id',
    '1,A11111,Layer1,1,GBP,WW1,2018-01-01,2018-12-31,WW1,0.3,5000000.0,500000.0,latest version,0,1',
    '1,A11111,Layer2,2,GBP,WW1,2018-01-01,2018-12-31,WW1,0.3,100000000.0,5500000.0,latest version,1,2',
  ]);
  w('items.csv', items);
  w('coverages.csv', coverages);
  w('correlations.csv', corr);
  w('gul_summary_map.csv', gulMap);
  w('fm_programme.csv', programme);
  w('fm_xref.csv', xref);
  w('fm_summary_map.csv', fmMap);
  w('fm_policytc.csv', ['level_id,agg_id,layer_id,profile_id', '1,1,1,2', '1,1,2,3']);
  w('fm_profile.csv', [
    'profile_id,calcrule_id,deductible1,deductible2,deductible3,attachment1,limit1,share1,share2,share3',
    '1,100,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0',
    '2,2,0.0,0.0,0.0,500000.0,5000000.0,0.3,0.0,0.0',
    '3,2,0.0,0.0,0.0,5500000.0,100000000.0,0.3,0.0,0.0',
  ]);
}

export function settingsWithoutRi(piwind: string, out: string, samples?: number): void {
  const s = JSON.parse(
    fs.readFileSync(path.join(piwind, 'expected_all_outputs/output/analysis_settings.json'), 'utf8'),
  );
  s.ri_output = false;
  s.rl_output = false;
  if (samples !== undefined) s.number_of_samples = samples;
  fs.writeFileSync(out, JSON.stringify(s, null, 1));
}

function countRows(dir: string): number {
  if (!fs.existsSync(dir)) return 0;
  let rows = 0;
  for (const f of fs.readdirSync(dir))
    if (f.endsWith('.csv') && /^(gul|il)_/.test(f))
      rows += fs.readFileSync(path.join(dir, f), 'utf8').trim().split('\n').length - 1;
  return rows;
}

export async function benchOasis(sharedData: string): Promise<void> {
  const piwind = path.join(sharedData, 'oasis_piwind');
  const modelCsv = path.join(piwind, 'model_data');
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'catintel-bench-oasis-'));
  const ref = referee();
  try {
    const settings = path.join(tmp, 'settings.json');
    settingsWithoutRi(piwind, settings);
    let modelBin: string | undefined;
    if ('bin' in ref) {
      modelBin = path.join(tmp, 'model-bin');
      convertModel(ref.bin, modelCsv, modelBin);
    }
    const cases: { name: string; input: string; locations: number; settings: string; prepare?: () => void }[] = [];
    const piwindInput = path.join(tmp, 'piwind-input');
    fs.mkdirSync(piwindInput);
    for (const f of fs.readdirSync(path.join(piwind, 'expected_all_outputs/input'))) {
      if (f.endsWith('.csv'))
        fs.copyFileSync(path.join(piwind, 'expected_all_outputs/input', f), path.join(piwindInput, f));
    }
    sixColumnCorrelations(piwindInput);
    cases.push({ name: 'oasis.piwind', input: piwindInput, locations: 10, settings });
    // Ten samples per event on a smaller input: the per-sample work, which one sample hides.
    const tenSamples = path.join(tmp, 'settings-10-samples.json');
    settingsWithoutRi(piwind, tenSamples, 10);
    const scaled10k = path.join(tmp, 'scaled-input-10k');
    cases.push({
      name: 'oasis.scaled_10k_10_samples',
      input: scaled10k,
      locations: 10_000,
      settings: tenSamples,
      prepare: () => writeScaledInput(scaled10k, 10_000, 12),
    });
    const scaled = path.join(tmp, 'scaled-input');
    cases.push({
      name: 'oasis.scaled_100k',
      input: scaled,
      locations: 100_000,
      settings,
      prepare: () => writeScaledInput(scaled, 100_000, 12),
    });

    for (const c of cases) {
      c.prepare?.();
      const ours = path.join(tmp, `${c.name}-ours`);
      const cat = run(process.execPath, [
        'bin/catintel',
        '--quiet',
        'oasis',
        'run',
        '--model',
        modelCsv,
        '--input',
        c.input,
        '--out',
        ours,
        '--settings',
        c.settings,
      ]);
      if (!cat.ok) throw new Error(`catintel oasis run failed on ${c.name}: ${cat.tail}`);
      // The kernel alone, in this process (reading the files, computing, writing every output): what the
      // command costs beyond starting Node and loading the CLI.
      const t0 = performance.now();
      await runOasis({
        modelDir: modelCsv,
        inputDir: c.input,
        outDir: `${ours}-inprocess`,
        settingsFile: c.settings,
        allocRule: 1,
      });
      const kernelSeconds = (performance.now() - t0) / 1000;
      const m: Record<string, unknown> = {
        name: c.name,
        n: c.locations,
        seconds: Math.round(cat.seconds * 1000) / 1000,
        per_second: Math.round(c.locations / cat.seconds),
        // The bench process's peak, reached by the in-process kernel run (the largest input is the last).
        peak_rss_mb: peakRssMb(),
        rows_written: countRows(ours),
        kernel_seconds: Math.round(kernelSeconds * 1000) / 1000,
      };
      if ('bin' in ref && modelBin) {
        const runDir = path.join(tmp, `${c.name}-oasislmf`);
        const env = { ...process.env, PATH: `${ref.bin}:${process.env.PATH}` };
        const o = run(
          path.join(ref.bin, 'oasislmf'),
          [
            'model',
            'generate-losses',
            '-o',
            c.input,
            '-d',
            modelBin,
            '-a',
            c.settings,
            '-r',
            runDir,
            '--check-oed',
            'false',
            '--kernel-alloc-rule-gul',
            '1',
          ],
          env,
        );
        if (!o.ok) {
          m.referee = `oasislmf ${OASISLMF_VERSION} failed: ${o.tail.split('\n').filter(Boolean).slice(-2).join(' | ')}`;
        } else {
          m.referee = `oasislmf ${OASISLMF_VERSION} model generate-losses`;
          m.referee_seconds = Math.round(o.seconds * 1000) / 1000;
          m.referee_rows_written = countRows(path.join(runDir, 'output'));
          m.ratio = Math.round((o.seconds / cat.seconds) * 10) / 10;
          m.ratio_kernel = Math.round((o.seconds / kernelSeconds) * 10) / 10;
        }
      } else {
        m.referee = `skipped: ${'skipped' in ref ? ref.skipped : ''}`;
      }
      emit(m as never);
    }
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}
