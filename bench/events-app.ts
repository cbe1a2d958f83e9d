/**
 * The events benchmarks' store: the USGS week feed ingested into a fresh store, read at BENCH_NOW, with the
 * live-event index built as `catintel serve` builds it (or not: the SQL path).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defaultConfig } from '../src/config/defaults.js';
import type { Context } from '../src/context.js';
import { ingestSource } from '../src/ingest/run.js';
import { LiveEventIndex } from '../src/live-index/live-index.js';
import { usgsEarthquakes } from '../src/sources/usgs-earthquakes.js';
import { Store } from '../src/store/db.js';

export const BENCH_NOW = '2020-07-08T21:00:00Z';

export async function eventsContext(sharedData: string, index: boolean): Promise<Context> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'catintel-bench-'));
  // The bench servers end by SIGTERM (process.exit): remove the store with the process.
  process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
  const db = await Store.open(path.join(dir, 'bench.duckdb'));
  // Parsed once, as the server's pinned clock is (src/cli/clock.ts): not a date string parsed per call.
  const nowMs = Date.parse(BENCH_NOW);
  const ctx: Context = { config: defaultConfig(), db, clock: () => new Date(nowMs), log: () => {}, progress: () => {} };
  await ingestSource(ctx, usgsEarthquakes, path.join(sharedData, 'feeds/usgs_earthquakes/all_week.geojson'));
  if (index) {
    // As catintel serve does: the index answers events once built.
    const liveIndex = (ctx.liveIndex = new LiveEventIndex(db, ctx.clock));
    void liveIndex.invalidate();
    await liveIndex.ready();
  }
  return ctx;
}
