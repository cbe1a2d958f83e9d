/**
 * EP curve of a seeded synthetic book through the loss engine, as `catintel portfolio ep-curve --input`
 * runs it (src/epcurve/run-book.ts): the book as an OED location file with the default account, the
 * hurricane package's keys, the Oasis input files, the kernel (ground-up and insured, 10 samples) and the
 * EP tables of both perspectives. Run in a child process so that its peak RSS is the EP curve's own.
 *
 * The package is the one `catintel portfolio ep-curve` uses (models/hurricane under the project, or the
 * folder CATINTEL_MODELS names); without one the bench says so and measures nothing. Sizes:
 * CATINTEL_BENCH_EP_LOCATIONS (default 10000); the years are the package's.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadBaselineGrid } from '../src/reference-data/load-baseline.js';
import { writeDefaultAccount, writePortfolioLocations } from '../src/epcurve/book-files.js';
import { perspectiveEp } from '../src/epcurve/ep-output.js';
import { MODEL_PACKAGES } from '../src/epcurve/model-packages.js';
import { runBook } from '../src/epcurve/run-book.js';
import { packageRoot } from '../src/lib/package-root.js';
import { syntheticPortfolio } from './epcurve-portfolio.js';
import { emit, peakRssMb } from './report.js';

const SAMPLES = 10;
const SEED = 1;
const BOOK_SEED = 2026;

async function child(): Promise<void> {
  const locations = Number(process.env.CATINTEL_BENCH_EP_LOCATIONS ?? 10_000);
  const modelsDir = process.env.CATINTEL_MODELS ?? path.join(packageRoot(), 'models');
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'catintel-bench-ep-'));
  try {
    const book = syntheticPortfolio(loadBaselineGrid(), locations, BOOK_SEED);
    const location = writePortfolioLocations(work, book);
    const account = writeDefaultAccount(work, location);
    const t0 = performance.now();
    const packages = MODEL_PACKAGES.map((pkg) => ({ pkg, perils: [...pkg.perils] }));
    const dataDir = process.env.CATINTEL_SHARED_DATA ?? path.join(packageRoot(), '..', 'shared', 'data');
    const r = await runBook({
      location,
      account,
      modelsDir,
      dataDir,
      packages,
      samples: SAMPLES,
      seed: SEED,
      workDir: work,
    });
    const gul = perspectiveEp(r.gul, r.occurrence);
    const il = perspectiveEp(r.il, r.occurrence);
    const seconds = (performance.now() - t0) / 1000;
    const years = r.occurrence.periods;
    const at = (rp: number) => il.curve.find((p) => p.return_period === rp);
    emit({
      name: 'epcurve.engine',
      n: locations,
      seconds: Math.round(seconds * 1000) / 1000,
      per_second: Math.round(locations / seconds),
      peak_rss_mb: peakRssMb(),
      locations,
      locations_modelled: r.locationsKeyed,
      years,
      samples: SAMPLES,
      models: r.packages.map((p) => `${p.model} ${p.years} years seed ${p.seed}`),
      gul_aal: Math.round(gul.aal),
      il_aal: Math.round(il.aal),
      il_oep_100: Math.round(at(100)?.oep ?? 0),
      target: '100,000 locations x 10,000 years x 10 samples: seconds < 60, peak_rss_mb < 4096',
    });
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

export async function benchEpCurve(): Promise<void> {
  const modelsDir = process.env.CATINTEL_MODELS ?? path.join(packageRoot(), 'models');
  const missing = MODEL_PACKAGES.filter((p) => !fs.existsSync(path.join(modelsDir, p.folder, 'manifest.json')));
  if (missing.length) {
    process.stderr.write(
      `epcurve: skipped, no ${missing.map((p) => p.folder).join(', ')} model package in ${modelsDir} (${missing.map((p) => `${p.build.command} --out ${path.join(modelsDir, p.folder)}`).join('; ')})\n`,
    );
    return;
  }
  const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--child'], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (r.status !== 0) throw new Error(`EP curve bench child failed (exit ${r.status})`);
  process.stdout.write(r.stdout);
}

if (process.argv[2] === '--child') await child();
