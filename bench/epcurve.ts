/**
 * EP curve of a seeded 100,000-location portfolio (bench/epcurve-portfolio.ts) over 50,000 simulated years,
 * every modelled peril (issue 12 part 4; target < 10 s, peak RSS < 2 GB). Run in a child process so that its
 * peak RSS is the EP curve's own, not the bench runner's. Reported: the model run (exposure, catalog, year
 * loss table, EP), and the catalog and years it made. Baseline in the same child: the same portfolio's
 * exposure aggregation alone (the part that scales with locations, not years).
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { loadBaselineGrid } from '../src/databuild/load-baseline.js';
import { MODELLED_PERILS } from '../src/epcurve/domain/catalog.js';
import { buildExposure } from '../src/epcurve/domain/exposure.js';
import { runEpModel } from '../src/epcurve/domain/model.js';
import { syntheticPortfolio } from './epcurve-portfolio.js';
import { emit, peakRssMb } from './report.js';

const LOCATIONS = 100_000;
const YEARS = 50_000;

function child(): void {
  const grid = loadBaselineGrid();
  const locations = syntheticPortfolio(grid, LOCATIONS, 2026);
  let t0 = performance.now();
  buildExposure(grid, locations, MODELLED_PERILS);
  const exposureSeconds = (performance.now() - t0) / 1000;
  t0 = performance.now();
  const r = runEpModel(grid, locations, { years: YEARS, seed: 1, perils: MODELLED_PERILS, scenario: 'baseline', horizon: null });
  const seconds = (performance.now() - t0) / 1000;
  const at = (rp: number) => r.curve.find((p) => p.return_period === rp);
  emit({
    name: 'epcurve.100k_locations_50k_years',
    n: YEARS,
    seconds: Math.round(seconds * 1000) / 1000,
    per_second: Math.round(YEARS / seconds),
    peak_rss_mb: peakRssMb(),
    locations: LOCATIONS,
    exposure_seconds: Math.round(exposureSeconds * 1000) / 1000,
    events_with_loss: r.catalog.events_with_loss,
    events_simulated: r.catalog.events_simulated,
    aal: Math.round(r.aal),
    oep_250: Math.round(at(250)?.oep ?? 0),
    aep_250: Math.round(at(250)?.aep ?? 0),
    target: 'seconds < 10, peak_rss_mb < 2048',
  });
}

export async function benchEpCurve(): Promise<void> {
  const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--child'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  if (r.status !== 0) throw new Error(`EP curve bench child failed (exit ${r.status})`);
  process.stdout.write(r.stdout);
}

if (process.argv[2] === '--child') child();
