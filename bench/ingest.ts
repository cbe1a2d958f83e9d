/** Ingest of the 3,236-event USGS week feed into a fresh store file: read, parse, normalise, rings, write. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defaultConfig } from '../src/config/defaults.js';
import type { Context } from '../src/context.js';
import { ingestSource } from '../src/ingest/run.js';
import { usgsEarthquakes } from '../src/sources/usgs-earthquakes.js';
import { Store } from '../src/store/db.js';
import { emit, median, peakRssMb } from './report.js';

export async function benchIngest(sharedData: string, runs = 5): Promise<void> {
  const feed = path.join(sharedData, 'feeds/usgs_earthquakes/all_week.geojson');
  const seconds: number[] = [];
  let n = 0;
  for (let i = 0; i < runs; i++) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'catintel-bench-'));
    const db = await Store.open(path.join(dir, 'bench.duckdb'));
    const ctx: Context = {
      config: defaultConfig(),
      db,
      clock: () => new Date('2020-07-08T21:00:00Z'),
      log: () => {},
      progress: () => {},
    };
    const t0 = performance.now();
    const s = await ingestSource(ctx, usgsEarthquakes, feed);
    seconds.push((performance.now() - t0) / 1000);
    n = s.fetched;
    await db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const sec = median(seconds);
  emit({
    name: 'ingest.usgs_week_feed',
    n,
    seconds: round(sec),
    per_second: Math.round(n / sec),
    peak_rss_mb: peakRssMb(),
    runs,
    target_seconds: 1,
  });
}

const round = (x: number) => Math.round(x * 1000) / 1000;
