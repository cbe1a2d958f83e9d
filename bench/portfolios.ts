/**
 * Portfolios (issue 11 "Done when"), two measurements, each in a fresh child process so its peak RSS
 * (process.resourceUsage().maxRSS, DuckDB's native memory included) is its own:
 *  - portfolios.import: `catintel portfolio import` of a seeded 200,000-row OED location file
 *    (scripts/make-us-portfolio.ts, seed 20260101) into a new store: one transaction, streamed. Baseline in
 *    the same run: DuckDB alone loading the same CSV into a table of a new database file
 *    (CREATE TABLE ... AS SELECT * FROM read_csv), the floor for "CSV into a DuckDB file".
 *  - portfolios.exposure: the exposure (src/portfolios/exposure.ts) of a 100,000-location portfolio (seed
 *    20260102) against the live events of the embedded seed at its instant (data/seed/as-of.txt): cold (the
 *    location index read from the store and built) and warm (median of `runs`, the server's case: portfolios
 *    never change, so the index is kept), and the ring tests alone (bands, per-peril sums, listed locations).
 *    Baseline in the same run: the ring tests without the flatbush index (every location against every
 *    ring's bbox, then point-in-polygon); ratio = ring tests / baseline.
 *
 *   npm run bench -- portfolios        CATINTEL_BENCH_PORTFOLIO_ROWS=50000 to try smaller files
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { writeUsPortfolio } from '../scripts/make-us-portfolio.js';
import { packageRoot } from '../src/lib/package-root.js';
import { child, type ChildResult } from './child.js';
import { emit, median } from './report.js';

const round = (x: number) => Math.round(x * 1000) / 1000;

export async function benchPortfolios(sharedData: string, runs = 3): Promise<void> {
  const importRows = Number(process.env.CATINTEL_BENCH_PORTFOLIO_ROWS ?? 200_000);
  const exposureRows = Math.round(importRows / 2);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'catintel-bench-portfolios-'));
  try {
    const cenPopPath = path.join(sharedData, 'exposure', 'CenPop2020_Mean_CO.txt');
    const input = path.join(dir, 'import.csv');
    await writeUsPortfolio(input, { rows: importRows, seed: 20260101, cenPopPath });
    const exposureInput = path.join(dir, 'exposure.csv');
    await writeUsPortfolio(exposureInput, { rows: exposureRows, seed: 20260102, cenPopPath });
    const root = packageRoot();
    const href = (...p: string[]) => pathToFileURL(path.join(root, ...p)).href;
    const duckdb = href('node_modules', '@duckdb', 'node-api', 'lib', 'index.js');
    const q = (s: string) => JSON.stringify(s);

    // --- import: the CLI end to end, against DuckDB loading the same file
    const importScript = (db: string) => `
      import { run } from ${q(href('dist', 'src', 'cli', 'main.js'))};
      let out = '';
      const t0 = performance.now();
      const code = await run(['--quiet', '--json', '--db', ${q(db)}, 'portfolio', 'import', ${q(input)}, '--name', 'bench'],
        { stdout: (t) => (out += t), stderr: (t) => process.stderr.write(t), env: { CATINTEL_NOW: '2026-01-01T00:00:00Z' }, isTTY: false });
      if (code !== 0) process.exit(code);
      console.log(JSON.stringify({ rows: JSON.parse(out).NumLocations, seconds: (performance.now() - t0) / 1000 }));`;
    const baselineScript = (db: string) => `
      import { DuckDBInstance } from ${q(duckdb)};
      const inst = await DuckDBInstance.create(${q(db)});
      const c = await inst.connect();
      const t0 = performance.now();
      await c.run(${q(`CREATE TABLE locations AS SELECT * FROM read_csv('${input}')`)});
      const n = (await c.runAndReadAll('SELECT count(*) FROM locations')).getRows()[0][0];
      console.log(JSON.stringify({ rows: Number(n), seconds: (performance.now() - t0) / 1000 }));
      c.closeSync(); inst.closeSync();`;
    const imports: ChildResult[] = [];
    const bases: ChildResult[] = [];
    for (let i = 0; i < runs; i++) {
      bases.push(await child(baselineScript(path.join(dir, `baseline-${i}.duckdb`))));
      imports.push(await child(importScript(path.join(dir, `import-${i}.duckdb`))));
    }
    const rows = JSON.parse(imports[0].output).rows as number;
    if (rows !== importRows) throw new Error(`portfolio import stored ${rows} of ${importRows} rows`);
    const seconds = median(imports.map((r) => r.seconds));
    const baseSeconds = median(bases.map((r) => r.seconds));
    emit({
      name: 'portfolios.import',
      n: rows,
      seconds: round(seconds),
      per_second: Math.round(rows / seconds),
      peak_rss_mb: Math.max(...imports.map((r) => r.peakRssMb)),
      work_seconds: round(median(imports.map((r) => JSON.parse(r.output).seconds))),
      baseline: 'duckdb CREATE TABLE AS read_csv (same file, child process)',
      baseline_seconds: round(baseSeconds),
      baseline_work_seconds: round(median(bases.map((r) => JSON.parse(r.output).seconds))),
      baseline_peak_rss_mb: Math.max(...bases.map((r) => r.peakRssMb)),
      ratio: round(seconds / baseSeconds),
      file_mb: Math.round(fs.statSync(input).size / 1e5) / 10,
    });

    // --- exposure: a 100,000-location portfolio against the seed's live events
    const asOf = fs.readFileSync(path.join(root, 'data', 'seed', 'as-of.txt'), 'utf8').trim();
    const exposureScript = `
      import { run } from ${q(href('dist', 'src', 'cli', 'main.js'))};
      import { Store } from ${q(href('dist', 'src', 'store', 'db.js'))};
      import { getPortfolio } from ${q(href('dist', 'src', 'portfolios', 'read.js'))};
      import { portfolioExposure, eventExposure } from ${q(href('dist', 'src', 'portfolios', 'exposure.js'))};
      import { locationIndex, forgetIndex } from ${q(href('dist', 'src', 'portfolios', 'location-index.js'))};
      import { liveEventsWithRings } from ${q(href('dist', 'src', 'portfolios', 'live-rings.js'))};
      import { pointInPrepared } from ${q(href('dist', 'src', 'portfolios', 'domain', 'geometry.js'))};
      import { eventTypeBit } from ${q(href('dist', 'src', 'portfolios', 'domain', 'perils.js'))};
      const db = ${q(path.join(dir, 'exposure.duckdb'))};
      const io = { stdout: () => {}, stderr: (t) => process.stderr.write(t), env: { CATINTEL_NOW: ${q(asOf)} }, isTTY: false };
      if (await run(['--quiet', '--db', db, 'db', 'seed'], io) !== 0) process.exit(1);
      let out = '';
      if (await run(['--quiet', '--json', '--db', db, 'portfolio', 'import', ${q(exposureInput)}, '--name', 'exposure'], { ...io, stdout: (t) => (out += t) }) !== 0) process.exit(1);
      const id = JSON.parse(out).id;
      const store = await Store.open(db);
      const p = await getPortfolio(store, 'local', id);
      const now = ${q(asOf)};
      let t0 = performance.now();
      const cold = await portfolioExposure(store, p, now, 100);
      const coldSeconds = (performance.now() - t0) / 1000;
      const warm = [];
      for (let i = 0; i < ${runs + 2}; i++) { t0 = performance.now(); await portfolioExposure(store, p, now, 100); warm.push((performance.now() - t0) / 1000); }
      // The ring tests alone, through the index, then the baseline: the same without the index, every location
      // against every ring (both on the live rings already read).
      const ix = await locationIndex(store, id, p.currency);
      const live = await liveEventsWithRings(store, now, ix.bbox);
      const indexRuns = [];
      for (let i = 0; i < ${runs + 2}; i++) { t0 = performance.now(); for (const l of live) eventExposure(ix, l, 100); indexRuns.push((performance.now() - t0) / 1000); }
      indexRuns.sort((a, b) => a - b);
      const indexSeconds = indexRuns[Math.floor(indexRuns.length / 2)];
      t0 = performance.now();
      let exposed = 0;
      for (const { event, rings } of live) {
        const bit = eventTypeBit(event.event_type);
        const seen = new Set();
        for (const r of rings) for (let i = 0; i < ix.count; i++) {
          if ((ix.typeMask[i] & bit) && !seen.has(i) && pointInPrepared(ix.lng[i], ix.lat[i], r.area)) seen.add(i);
        }
        exposed += seen.size;
      }
      const bruteSeconds = (performance.now() - t0) / 1000;
      const indexed = cold.events.reduce((s, e) => s + e.NumLocations, 0);
      if (indexed !== exposed) { console.error('index and brute force disagree', indexed, exposed); process.exit(1); }
      const rings = live.reduce((s, l) => s + l.rings.length, 0);
      console.log(JSON.stringify({ locations: cold.NumLocations, live_events_with_rings: live.length, rings, events_reaching: cold.events.length, location_event_pairs: indexed, locations_exposed: cold.NumLocationsExposed, coldSeconds, warm, indexSeconds, bruteSeconds }));
      await store.close();`;
    const x = await child(exposureScript);
    const r = JSON.parse(x.output);
    const warmSeconds = median(r.warm as number[]);
    emit({
      name: 'portfolios.exposure',
      n: r.locations,
      seconds: round(warmSeconds),
      per_second: Math.round(r.locations / warmSeconds),
      peak_rss_mb: x.peakRssMb,
      cold_seconds: round(r.coldSeconds),
      as_of: asOf,
      live_events_with_rings: r.live_events_with_rings,
      rings: r.rings,
      events_reaching: r.events_reaching,
      location_event_pairs: r.location_event_pairs,
      locations_exposed: r.locations_exposed,
      ring_tests_seconds: round(r.indexSeconds),
      baseline: 'the ring tests without the flatbush index (every location against every ring)',
      baseline_seconds: round(r.bruteSeconds),
      ratio: round(r.indexSeconds / r.bruteSeconds),
    });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
