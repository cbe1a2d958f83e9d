/**
 * EP curves on catintel's own model packages at the size the hurricane and earthquake issues ask for
 * (100,000 locations x 10,000 years x 10 samples: under 60 s, peak RSS under 4 GB), one benchmark a model:
 *
 *   npm run bench -- ep-hurricane  [--models DIR] [--years N] [--locations N]
 *   npm run bench -- ep-earthquake [--models DIR] [--years N] [--locations N]
 *
 * --models DIR (or CATINTEL_BENCH_EP_MODELS; --locations: CATINTEL_BENCH_EP_BOOK_LOCATIONS; --years:
 * CATINTEL_BENCH_EP_YEARS): a folder holding the package (DIR/hurricane or
 * DIR/earthquake, as `catintel model build <model> --out DIR/<model>` writes it); the package's own build
 * time is then read from its manifest. Without it the package is built here, into a temporary folder,
 * with --years years (default 10,000; a 10,000-year hurricane package takes over an hour of CPU and
 * about 2 GB, an earthquake one about 6.5 GB), and that build is measured. --years (default: every year
 * of the package) runs the first N years; --locations (default 100,000) sizes the book.
 *
 * The book (bench/ep-book.ts) is seeded: Florida-heavy for the hurricane model, California for the
 * earthquake model, with location and policy terms, so the insured (IL) perspective runs the financial
 * module. Each step runs in a fresh node process (bench/child.ts): `seconds` is its wall time,
 * `cpu_seconds` its user + system CPU over all its threads, `peak_rss_mb` its own peak; the machine's
 * 1-minute load average is recorded before and after (the benchmark machine is shared: a wall time
 * beside a load above the core count says more about the neighbours than about the run).
 *
 * Lines: ep.<model>.build (when built here), ep.<model>.run (`portfolio ep-curve --input ... --json`),
 * and for the earthquake model ep.earthquake.hazard_curve (`hazard curve --peril earthquake`: the first
 * call in a fresh process and the median of the next ones).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { packageRoot } from '../src/lib/package-root.js';
import { child, type ChildResult } from './child.js';
import { command, option, whole } from './child-options.js';
import { writeEpBook, type EpBookRegion } from './ep-book.js';
import { emit } from './report.js';

export type EpModel = 'hurricane' | 'earthquake';

const SAMPLES = 10;
const SEED = 1;
const BOOK_SEED = 20260130;
const TARGET = { locations: 100_000, years: 10_000, samples: SAMPLES, seconds: 60, peak_rss_mb: 4096 };
const SETUP: Record<EpModel, { region: EpBookRegion; perils: string; point: [number, number] }> = {
  hurricane: { region: 'florida', perils: 'hurricane_wind,storm_surge', point: [25.77, -80.19] },
  earthquake: { region: 'california', perils: 'earthquake', point: [34.05, -118.24] },
};

const round = (x: number) => Math.round(x * 1000) / 1000;
const load = () => Math.round(os.loadavg()[0] * 100) / 100;

/** `hazard curve` called `calls` times in one process: the first call's seconds and the later ones'. */
function hazardCurves(point: [number, number], models: string, calls: number): string {
  const href = pathToFileURL(path.join(packageRoot(), 'dist', 'src', 'cli', 'main.js')).href;
  const argv = ['--quiet', '--json', 'hazard', 'curve', '--lat', String(point[0]), '--lng', String(point[1])];
  return `
    import { run } from ${JSON.stringify(href)};
    const times = [];
    let answer;
    for (let i = 0; i < ${calls}; i++) {
      let out = '';
      const t0 = performance.now();
      const code = await run(${JSON.stringify([...argv, '--peril', 'earthquake', '--imt', 'pga'])},
        { stdout: (t) => (out += t), stderr: (t) => process.stderr.write(t), env: { CATINTEL_MODELS: ${JSON.stringify(models)} }, isTTY: false });
      if (code !== 0) process.exit(code);
      times.push((performance.now() - t0) / 1000);
      answer = JSON.parse(out);
    }
    console.log(JSON.stringify({ times, answer }));`;
}

export async function benchEpModel(model: EpModel, sharedData: string): Promise<void> {
  const setup = SETUP[model];
  const locations = whole('locations', option('locations', 'CATINTEL_BENCH_EP_BOOK_LOCATIONS')) ?? TARGET.locations;
  const years = whole('years', option('years', 'CATINTEL_BENCH_EP_YEARS'));
  const given = option('models', 'CATINTEL_BENCH_EP_MODELS');
  const dir = fs.mkdtempSync(path.join(process.env.CATINTEL_BENCH_DIR ?? os.tmpdir(), `catintel-bench-ep-${model}-`));
  try {
    let models: string;
    if (given) {
      models = path.resolve(given);
      if (!fs.existsSync(path.join(models, model, 'manifest.json')))
        throw new Error(
          `--models ${given}: no ${model} package in ${path.join(models, model)}; build one with \`catintel model build ${model} --years 10000 --out ${path.join(models, model)}\``,
        );
    } else {
      models = path.join(dir, 'models');
      const buildYears = years ?? TARGET.years;
      const loadBefore = load();
      process.stderr.write(`ep-${model}: building a ${buildYears}-year package (load ${loadBefore}) ...\n`);
      const r: ChildResult = await child(
        command([
          'model',
          'build',
          model,
          '--years',
          String(buildYears),
          '--seed',
          '1',
          '--out',
          path.join(models, model),
          // The build is what is measured: never a copy of the last run's package from the cache.
          '--no-cache',
        ]),
      );
      const built = JSON.parse(fs.readFileSync(path.join(models, model, 'manifest.json'), 'utf8'));
      emit({
        name: `ep.${model}.build`,
        n: buildYears,
        seconds: round(r.seconds),
        per_second: Math.round(buildYears / r.seconds),
        peak_rss_mb: r.peakRssMb,
        cpu_seconds: r.cpuSeconds,
        years: buildYears,
        events: built.events,
        package_mb: packageMb(path.join(models, model)),
        load_average: [loadBefore, load()],
        cores: os.availableParallelism(),
      });
    }
    const manifest = JSON.parse(fs.readFileSync(path.join(models, model, 'manifest.json'), 'utf8'));

    const book = writeEpBook(dir, {
      rows: locations,
      seed: BOOK_SEED,
      region: setup.region,
      cenPopPath: path.join(sharedData, 'exposure', 'CenPop2020_Mean_CO.txt'),
    });
    // `portfolio ep-curve` opens the store even for an --input book: an empty seeded one.
    const store = path.join(dir, 'store.duckdb');
    await child(command(['--db', store, 'db', 'seed']));

    const loadBefore = load();
    process.stderr.write(`ep-${model}: EP curve of ${locations} locations (load ${loadBefore}) ...\n`);
    const argv = [
      '--db',
      store,
      'portfolio',
      'ep-curve',
      '--input',
      book.location,
      '--oed-account',
      book.account,
      '--models',
      models,
      '--perils',
      setup.perils,
      '--samples',
      String(SAMPLES),
      '--seed',
      String(SEED),
      ...(years ? ['--years', String(years)] : []),
    ];
    const r: ChildResult = await child(command(argv));
    const { seconds: work, answer } = JSON.parse(r.output);
    const at = (rp: number) => answer.curve.find((p: { ReturnPeriod: number }) => p.ReturnPeriod === rp);
    const ranYears = answer.years as number;
    emit({
      name: `ep.${model}.run`,
      n: locations,
      seconds: round(r.seconds),
      per_second: Math.round(locations / r.seconds),
      peak_rss_mb: r.peakRssMb,
      cpu_seconds: r.cpuSeconds,
      work_seconds: round(work),
      locations,
      locations_modelled: answer.NumLocationsModelled,
      years: ranYears,
      samples: SAMPLES,
      model: `${manifest.model} ${manifest.years} years seed ${manifest.seed}`,
      package_build_seconds: manifest.build_seconds ?? null,
      perspective: answer.perspective,
      il_aal: Math.round(answer.AALAmt),
      il_oep_100: at(100) ? Math.round(at(100).OEPLossAmt) : null,
      load_average: [loadBefore, load()],
      cores: os.availableParallelism(),
      target: TARGET,
    });

    if (model === 'earthquake') {
      const calls = 20;
      const h = await child(hazardCurves(setup.point, models, calls));
      const { times } = JSON.parse(h.output) as { times: number[] };
      const later = times.slice(1).sort((a, b) => a - b);
      emit({
        name: 'ep.earthquake.hazard_curve',
        n: calls,
        seconds: round(later[Math.floor(later.length / 2)]),
        per_second: Math.round(1 / later[Math.floor(later.length / 2)]),
        peak_rss_mb: h.peakRssMb,
        first_call_seconds: round(times[0]),
        process_seconds: round(h.seconds),
        point: setup.point,
        model: `${manifest.model} ${manifest.years} years seed ${manifest.seed}`,
        load_average: load(),
      });
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function packageMb(dir: string): number {
  let bytes = 0;
  for (const f of fs.readdirSync(dir)) bytes += fs.statSync(path.join(dir, f)).size;
  return Math.round(bytes / 1e5) / 10;
}
