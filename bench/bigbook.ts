/**
 * Big books (issue 38): a seeded OED location file of N locations (default 10,000,000), heavy in Florida
 * (its counties weigh eight times their population in the draw of scripts/make-us-portfolio.ts, seed
 * 20260138), and each step in a fresh node process so its peak RSS (process.resourceUsage().maxRSS,
 * DuckDB's native memory included) is its own:
 *  - bigbook.duckdb_load: DuckDB alone loading the same file into a table of a new database file
 *    (CREATE TABLE ... AS SELECT * FROM read_csv), the floor for "CSV into a DuckDB file";
 *  - bigbook.import: `catintel portfolio import` of the file into a new store (checked, one transaction);
 *  - bigbook.exposure_none: `catintel portfolio exposure` with no live event (nothing reaches the book);
 *  - bigbook.exposure_elsewhere: the same with a live event whose rings do not meet the book's box (Ian
 *    ingested and read at 2022-09-24 12Z, a tropical storm south of Hispaniola): one portfolio row read;
 *  - bigbook.exposure_ian: the same book with Hurricane Ian's best track ingested, read at landfall
 *    (2022-09-28 19:30Z): its rings now and its swath so far over southwest Florida;
 *  - bigbook.ep: `catintel portfolio ep-curve` of the imported book, hurricane wind and storm surge, on
 *    the first --ep-years years (default 10; CATINTEL_BENCH_BIGBOOK_EP_YEARS) of a hurricane package,
 *    under --ep-max-memory (default 3GB; CATINTEL_BENCH_BIGBOOK_EP_MAX_MEMORY): the loss path's peak RSS
 *    beside the budget it was given. The package: --models DIR (or CATINTEL_BENCH_EP_MODELS), a folder
 *    holding hurricane/manifest.json as `catintel model build hurricane --out DIR/hurricane` writes it;
 *    without it a 100-year package is built into the bench folder first (a few minutes of CPU, or a copy
 *    from catintel's package cache), said so on stderr.
 * Last, `bigbook`: the import (and its ratio to DuckDB alone), the two exposures and the EP beside each
 * other, with each one's peak RSS: the README's row (record that line alone: the steps' lines are the detail).
 * `seconds` is the child's wall time (node start included); `work_seconds` the step alone. The two quick
 * exposure steps run QUICK_RUNS times, each in a fresh process: their `seconds` and `work_seconds` are the
 * medians, `seconds_min` and `seconds_max` the range (one run of half a second on a shared machine varies
 * by half its time either way).
 *
 *   npm run bench -- bigbook                   10,000,000 locations (minutes; about 1.1 GB of CSV)
 *   npm run bench -- bigbook --rows 200000     a quick run
 *   npm run bench -- bigbook --models DIR --ep-years 100 --ep-max-memory 2GB
 */
import fs from 'node:fs';
import type { UntypedJson } from '../src/lib/untyped-json.js';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { writeUsPortfolio } from '../scripts/make-us-portfolio.js';
import { packageRoot } from '../src/lib/package-root.js';
import { child, type ChildResult } from './child.js';
import { option, whole } from './child-options.js';
import { emit, median } from './report.js';
import { chunkLocations, parseMaxMemory } from '../src/epcurve/memory-budget.js';

const round = (x: number) => Math.round(x * 1000) / 1000;
const LANDFALL = '2022-09-28T19:30:00Z';
const FLORIDA = '12';
/** Ian a tropical storm at 14.5N 74.4W, its rings and swath south of the book's box (Puerto Rico's 17.9N). */
const BEFORE_THE_BOOK = '2022-09-24T12:00:00Z';

/** Runs of each quick exposure step (exposure_none, exposure_elsewhere). */
const QUICK_RUNS = 5;

/** The EP step's defaults: the years it runs, its memory budget, the years of the package built when none is given. */
const EP_YEARS = 10;
const EP_MAX_MEMORY = '3GB';
const EP_BUILD_YEARS = 100;

/** --rows N on the command line, else CATINTEL_BENCH_BIGBOOK_ROWS, else ten million. */
function rowsWanted(): number {
  const i = process.argv.indexOf('--rows');
  const raw = i >= 0 ? process.argv[i + 1] : (process.env.CATINTEL_BENCH_BIGBOOK_ROWS ?? '10000000');
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1)
    throw new Error(`--rows ${raw}: give a whole number of locations, e.g. --rows 2000000`);
  return n;
}

export async function benchBigBook(sharedData: string): Promise<void> {
  const rows = rowsWanted();
  const epYears = whole('ep-years', option('ep-years', 'CATINTEL_BENCH_BIGBOOK_EP_YEARS')) ?? EP_YEARS;
  const epMaxMemory = option('ep-max-memory', 'CATINTEL_BENCH_BIGBOOK_EP_MAX_MEMORY') ?? EP_MAX_MEMORY;
  const givenModels = option('models', 'CATINTEL_BENCH_EP_MODELS');
  if (givenModels && !fs.existsSync(path.join(givenModels, 'hurricane', 'manifest.json')))
    throw new Error(
      `--models ${givenModels}: no hurricane package in ${path.join(givenModels, 'hurricane')}; build one with \`catintel model build hurricane --years ${EP_BUILD_YEARS} --out ${path.join(givenModels, 'hurricane')}\``,
    );
  const dir = fs.mkdtempSync(path.join(process.env.CATINTEL_BENCH_DIR ?? os.tmpdir(), 'catintel-bench-bigbook-'));
  try {
    const input = path.join(dir, 'book.csv');
    let t0 = performance.now();
    await writeUsPortfolio(input, {
      rows,
      seed: 20260138,
      cenPopPath: path.join(sharedData, 'exposure', 'CenPop2020_Mean_CO.txt'),
      weight: (c) => (c.fips.startsWith(FLORIDA) ? 8 : 1),
    });
    const fileMb = Math.round(fs.statSync(input).size / 1e5) / 10;
    process.stderr.write(
      `bigbook: wrote ${rows} locations (${fileMb} MB) in ${round((performance.now() - t0) / 1000)} s\n`,
    );

    const root = packageRoot();
    const href = (...p: string[]) => pathToFileURL(path.join(root, ...p)).href;
    const q = (s: string) => JSON.stringify(s);
    /** A catintel command in the child: its JSON answer and the seconds it took. */
    const command = (argv: string[], now: string) => `
      import { run } from ${q(href('dist', 'src', 'cli', 'main.js'))};
      let out = '';
      const t0 = performance.now();
      const code = await run(${JSON.stringify(['--quiet', '--json', ...argv])},
        { stdout: (t) => (out += t), stderr: (t) => process.stderr.write(t), env: { CATINTEL_NOW: ${q(now)} }, isTTY: false });
      if (code !== 0) process.exit(code);
      console.log(JSON.stringify({ seconds: (performance.now() - t0) / 1000, answer: JSON.parse(out) }));`;
    const step = async (
      name: string,
      script: string,
      extra: (answer: UntypedJson, r: ChildResult, work: number) => Record<string, unknown>,
      runs = 1,
    ) => {
      process.stderr.write(`bigbook: ${name} ...\n`);
      const results: ChildResult[] = [];
      for (let i = 0; i < runs; i++) results.push(await child(script));
      const walls = results.map((r) => r.seconds);
      const works = results.map((r) => JSON.parse(r.output).seconds as number);
      const r: ChildResult = { ...results[0], seconds: median(walls) };
      const seconds = median(works);
      const { answer } = JSON.parse(results[0].output);
      emit({
        name,
        n: rows,
        seconds: round(r.seconds),
        per_second: Math.round(rows / r.seconds),
        peak_rss_mb: Math.max(...results.map((x) => x.peakRssMb)),
        work_seconds: round(seconds),
        ...(runs > 1 && {
          runs,
          seconds_min: round(Math.min(...walls)),
          seconds_max: round(Math.max(...walls)),
        }),
        ...extra(answer, r, seconds),
      });
      return { ...r, work: seconds, answer };
    };

    const baseline = await step(
      'bigbook.duckdb_load',
      `
      import { DuckDBInstance } from ${q(href('node_modules', '@duckdb', 'node-api', 'lib', 'index.js'))};
      const inst = await DuckDBInstance.create(${q(path.join(dir, 'duckdb-alone.duckdb'))});
      const c = await inst.connect();
      const t0 = performance.now();
      await c.run(${q(`CREATE TABLE locations AS SELECT * FROM read_csv('${input}')`)});
      const n = (await c.runAndReadAll('SELECT count(*) FROM locations')).getRows()[0][0];
      const seconds = (performance.now() - t0) / 1000;
      c.closeSync(); inst.closeSync();
      console.log(JSON.stringify({ seconds, answer: { rows: Number(n) } }));`,
      (a) => ({ rows: a.rows, file_mb: fileMb }),
    );
    fs.rmSync(path.join(dir, 'duckdb-alone.duckdb'), { force: true });

    const store = path.join(dir, 'store.duckdb');
    const imported = await step(
      'bigbook.import',
      command(['--db', store, 'portfolio', 'import', input, '--name', 'big book'], LANDFALL),
      (a, r, work) => ({
        rows: a.NumLocations,
        file_mb: fileMb,
        baseline: 'bigbook.duckdb_load',
        baseline_seconds: round(baseline.seconds),
        baseline_peak_rss_mb: baseline.peakRssMb,
        ratio: round(r.seconds / baseline.seconds),
        work_ratio: round(work / baseline.work),
      }),
    );
    if (imported.answer.NumLocations !== rows)
      throw new Error(`portfolio import stored ${imported.answer.NumLocations} of ${rows} locations`);
    const id = imported.answer.id as string;

    const none = await step(
      'bigbook.exposure_none',
      command(['--db', store, 'portfolio', 'exposure', id, '--locations-limit', '10'], LANDFALL),
      (a) => ({
        locations_exposed: a.NumLocationsExposed,
        events: a.events.length,
      }),
      QUICK_RUNS,
    );

    // The same store with Ian ingested at `now`: the import is not repeated.
    const ian = path.join(sharedData, 'hazard_history', 'hurricanes', 'bal092022.dat');
    const storeWithIan = async (file: string, now: string) => {
      const copy = path.join(dir, file);
      fs.copyFileSync(store, copy);
      if (fs.existsSync(`${store}.wal`)) fs.copyFileSync(`${store}.wal`, `${copy}.wal`);
      t0 = performance.now();
      await child(command(['--db', copy, 'ingest', 'nhc', '--from', ian], now));
      process.stderr.write(`bigbook: Ian ingested at ${now} in ${round((performance.now() - t0) / 1000)} s\n`);
      return copy;
    };

    // A live event the book's box does not meet: Ian as a tropical storm south of Hispaniola.
    const early = await storeWithIan('ian-early.duckdb', BEFORE_THE_BOOK);
    await step(
      'bigbook.exposure_elsewhere',
      command(['--db', early, 'portfolio', 'exposure', id, '--locations-limit', '10'], BEFORE_THE_BOOK),
      (a) => ({
        locations_exposed: a.NumLocationsExposed,
        events: a.events.length,
      }),
      QUICK_RUNS,
    );
    fs.rmSync(early, { force: true });

    const withIan = await storeWithIan('ian.duckdb', LANDFALL);
    const exposedIan = await step(
      'bigbook.exposure_ian',
      command(['--db', withIan, 'portfolio', 'exposure', id, '--locations-limit', '10'], LANDFALL),
      (a) => ({
        locations_exposed: a.NumLocationsExposed,
        locations_exposed_so_far: a.so_far.NumLocationsExposed,
        events: a.events.length,
        exposed_tiv: a.events.reduce((s: number, e: UntypedJson) => s + e.TotalInsuranceAmt, 0),
      }),
    );
    fs.rmSync(withIan, { force: true });

    // Losses of the whole book on the package given (its folder checked before the book was written), else one built here.
    let models: string;
    if (givenModels) models = path.resolve(givenModels);
    else {
      models = path.join(dir, 'models');
      process.stderr.write(
        `bigbook: no --models: building a ${EP_BUILD_YEARS}-year hurricane package in ${models} ...\n`,
      );
      t0 = performance.now();
      await child(
        command(
          ['model', 'build', 'hurricane', '--years', String(EP_BUILD_YEARS), '--out', path.join(models, 'hurricane')],
          LANDFALL,
        ),
      );
      process.stderr.write(`bigbook: package built in ${round((performance.now() - t0) / 1000)} s\n`);
    }
    const chunks = Math.ceil(rows / chunkLocations(parseMaxMemory(epMaxMemory), 10));
    const ep = await step(
      'bigbook.ep',
      command(
        [
          '--db',
          store,
          'portfolio',
          'ep-curve',
          id,
          '--perils',
          'hurricane_wind,storm_surge',
          '--years',
          String(epYears),
          '--max-memory',
          epMaxMemory,
          '--models',
          models,
        ],
        LANDFALL,
      ),
      (a) => ({
        years: a.years,
        samples: a.samples,
        model: a.model_version,
        max_memory: epMaxMemory,
        chunks,
        locations_modelled: a.NumLocationsModelled,
        aal: a.AALAmt,
        perspective: a.perspective,
      }),
    );

    // The README's row: the issue's four figures beside each other.
    const steps = { import: imported, exposure_none: none, exposure_ian: exposedIan, ep };
    emit({
      name: 'bigbook',
      n: rows,
      seconds: round(imported.seconds + none.seconds + exposedIan.seconds + ep.seconds),
      per_second: Math.round(rows / imported.seconds),
      import_seconds: round(imported.seconds),
      import_ratio: round(imported.seconds / baseline.seconds),
      exposure_none_seconds: round(none.seconds),
      exposure_ian_seconds: round(exposedIan.seconds),
      locations_exposed_ian: exposedIan.answer.NumLocationsExposed,
      ep_seconds: round(ep.seconds),
      ep_years: epYears,
      ep_max_memory: epMaxMemory,
      ep_chunks: chunks,
      peak_rss_mb: Math.max(...Object.values(steps).map((x) => x.peakRssMb)),
      ...Object.fromEntries(Object.entries(steps).map(([k, x]) => [`${k}_peak_rss_mb`, x.peakRssMb])),
      load_average: os.loadavg()[0],
      cores: os.cpus().length,
    });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
