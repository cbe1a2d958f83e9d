/**
 * An insured-loss run from OED side by side with oasislmf, in the same run: the seeded synthetic book
 * (bench/synthetic-oed.ts) with its keys on PiWind's model, PiWind's analysis settings with the ground-up
 * and reinsurance outputs off (insured losses only, every ORD output PiWind asks for) and 10 samples.
 *  - ours: `catintel oasis run --oed-location --oed-account --keys` (Oasis files and the run, one command);
 *  - oasislmf 2.5.8: `model generate-oasis-files`, then `model generate-losses` on its files, each timed.
 * Ratios: oasislmf's generate-losses alone over ours (our time includes building the files), and its two
 * commands together over ours, in wall time and in CPU time. Each side's peak RSS read by /usr/bin/time
 * (generate-losses runs its kernel as child processes: the largest one's). The outputs are compared
 * where the run writes period losses (il_S1_palt.csv, within 0.01 %, as the conformance script does).
 *
 * Sizes: CATINTEL_BENCH_OED_RUN_SIZES (default "10000").
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { emit } from './report.js';
import { writeSyntheticOed } from './synthetic-oed.js';
import { convertModel, referee, settingsWithoutRi } from './oasis.js';
import { timed } from './oasis-files.js';

const OASISLMF_VERSION = '2.5.8';
const SAMPLES = 10;
const SEED = 20261128;

function insuredOnlySettings(piwind: string, out: string): void {
  settingsWithoutRi(piwind, out, SAMPLES);
  const s = JSON.parse(fs.readFileSync(out, 'utf8'));
  s.gul_output = false;
  s.gul_summaries = [];
  fs.writeFileSync(out, JSON.stringify(s, null, 1));
}

const round = (x: number) => Math.round(x * 1000) / 1000;

/**
 * The first difference between two ALT files (rows keyed by their first two columns, values within 0.01 %
 * or 0.01 absolute, as the conformance script compares them), or undefined.
 */
function paltDifference(ours: string, theirs: string): string | undefined {
  if (!fs.existsSync(ours) || !fs.existsSync(theirs))
    return `${fs.existsSync(ours) ? 'oasislmf' : 'catintel'} wrote no ${path.basename(ours)}`;
  const read = (f: string) =>
    fs
      .readFileSync(f, 'utf8')
      .trimEnd()
      .split('\n')
      .map((l) => l.split(','));
  const [ha, ...a] = read(ours);
  const [hb, ...b] = read(theirs);
  if (ha.join() !== hb.join()) return `header ${ha.join()} vs ${hb.join()}`;
  if (a.length !== b.length) return `${a.length} rows vs ${b.length}`;
  const byKey = new Map(a.map((r) => [`${r[0]},${r[1]}`, r]));
  for (const r of b) {
    const o = byKey.get(`${r[0]},${r[1]}`);
    const close = (x: string, y: string) =>
      x === y ||
      Math.abs(Number(x) - Number(y)) <= Math.max(1e-4 * Math.max(Math.abs(Number(x)), Math.abs(Number(y))), 0.01);
    if (!o || !r.every((v, k) => close(o[k], v))) return `${o ? o.join() : 'no row'} vs ${r.join()}`;
  }
  return undefined;
}

export async function benchOasisRunFromOed(sharedData: string): Promise<void> {
  const sizes = (process.env.CATINTEL_BENCH_OED_RUN_SIZES ?? '10000').split(',').map(Number);
  const piwind = path.join(sharedData, 'oasis_piwind');
  const modelCsv = path.join(piwind, 'model_data');
  const ref = referee();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'catintel-bench-oed-run-'));
  try {
    const settings = path.join(tmp, 'settings.json');
    insuredOnlySettings(piwind, settings);
    let modelBin: string | undefined;
    if ('bin' in ref) {
      modelBin = path.join(tmp, 'model-bin');
      convertModel(ref.bin, modelCsv, modelBin);
    }
    for (const n of sizes) {
      const dir = path.join(tmp, String(n));
      const book = writeSyntheticOed(dir, n, SEED, { keysOnto: 'piwind' });
      const ours = path.join(dir, 'ours');
      const cat = timed(process.execPath, [
        'bin/catintel',
        '--quiet',
        'oasis',
        'run',
        '--model',
        modelCsv,
        '--oed-location',
        book.location,
        '--oed-account',
        book.account,
        '--keys',
        book.keys,
        '--settings',
        settings,
        '--out',
        ours,
      ]);
      if (!cat.ok) throw new Error(`catintel oasis run failed on ${n} locations: ${cat.tail}`);
      const m: Record<string, unknown> = {
        name: 'oasis_run.synthetic_oed_il',
        n,
        samples: SAMPLES,
        seconds: round(cat.seconds),
        cpu_seconds: cat.cpuSeconds,
        per_second: Math.round(n / cat.seconds),
        peak_rss_mb: cat.peakRssMb,
        load_average: Math.round(os.loadavg()[0] * 10) / 10,
      };
      if ('bin' in ref && modelBin) {
        const env = { ...process.env, PATH: `${ref.bin}:${process.env.PATH}` };
        const input = path.join(dir, 'oasislmf-input');
        const files = timed(
          path.join(ref.bin, 'oasislmf'),
          [
            'model',
            'generate-oasis-files',
            '-x',
            book.location,
            '-y',
            book.account,
            '-z',
            book.keys,
            '-o',
            input,
            '--check-oed',
            'false',
          ],
          env,
        );
        const runDir = path.join(dir, 'oasislmf-run');
        const losses = files.ok
          ? timed(
              path.join(ref.bin, 'oasislmf'),
              [
                'model',
                'generate-losses',
                '-o',
                input,
                '-d',
                modelBin,
                '-a',
                settings,
                '-r',
                runDir,
                '--check-oed',
                'false',
                '--kernel-alloc-rule-gul',
                '1',
              ],
              env,
            )
          : undefined;
        if (!files.ok || !losses?.ok) {
          m.referee = `oasislmf ${OASISLMF_VERSION} failed: ${(losses ?? files).tail.split('\n').filter(Boolean).slice(-2).join(' | ')}`;
        } else {
          m.referee = `oasislmf ${OASISLMF_VERSION} model generate-oasis-files + generate-losses`;
          m.referee_files_seconds = round(files.seconds);
          m.referee_losses_seconds = round(losses.seconds);
          m.referee_files_cpu_seconds = files.cpuSeconds;
          m.referee_losses_cpu_seconds = losses.cpuSeconds;
          m.referee_files_peak_rss_mb = files.peakRssMb;
          m.referee_losses_peak_rss_mb = losses.peakRssMb;
          const palt = 'il_S1_palt.csv';
          const difference = paltDifference(path.join(ours, palt), path.join(runDir, 'output', palt));
          m.palt_agrees = difference === undefined;
          if (difference !== undefined) m.palt_difference = difference;
          m.ratio_losses = Math.round((losses.seconds / cat.seconds) * 10) / 10;
          m.ratio_files_and_losses = Math.round(((files.seconds + losses.seconds) / cat.seconds) * 10) / 10;
          m.ratio_losses_cpu = Math.round((losses.cpuSeconds / cat.cpuSeconds) * 10) / 10;
          m.ratio_files_and_losses_cpu =
            Math.round(((files.cpuSeconds + losses.cpuSeconds) / cat.cpuSeconds) * 10) / 10;
        }
      } else {
        m.referee = `skipped: ${'skipped' in ref ? ref.skipped : ''}`;
      }
      emit(m as never);
      fs.rmSync(dir, { recursive: true, force: true });
    }
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}
