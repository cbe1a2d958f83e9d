/**
 * The store's everyday queries on DuckDB's default threads (every core) against one thread
 * (CATINTEL_DUCKDB_THREADS=1, src/store/duckdb-threads.ts): two copies of the USGS week store, one opened
 * each way in this process, answering the same queries (a page of the live listing, a count, a lookup of a
 * source id among the events' ids) in alternating rounds, so the machine's load falls on both alike. Each
 * row: the CPU (user + system) and wall seconds of its rounds, and `cpu_ratio` against the default.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { run } from '../src/cli/main.js';
import { Store } from '../src/store/db.js';
import { DUCKDB_THREADS_ENV } from '../src/store/duckdb-threads.js';
import { emit, peakRssMb } from './report.js';

const QUERIES = [
  `SELECT * FROM events WHERE severity > 2 ORDER BY started_at DESC LIMIT 50`,
  `SELECT count(*) FROM events`,
  `SELECT id, title FROM events WHERE list_contains(CAST(json_extract(details, '$.ids') AS VARCHAR[]), 'ci39493944')`,
];

async function openWith(file: string, threads: string | undefined): Promise<Store> {
  const before = process.env[DUCKDB_THREADS_ENV];
  if (threads === undefined) delete process.env[DUCKDB_THREADS_ENV];
  else process.env[DUCKDB_THREADS_ENV] = threads;
  try {
    return await Store.open(file, { readOnly: true });
  } finally {
    if (before === undefined) delete process.env[DUCKDB_THREADS_ENV];
    else process.env[DUCKDB_THREADS_ENV] = before;
  }
}

export async function benchDuckdbThreads(sharedData: string, rounds = 6, perRound = 200): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'catintel-bench-threads-'));
  try {
    const week = path.join(dir, 'week.duckdb');
    const feed = path.join(sharedData, 'feeds/usgs_earthquakes/all_week.geojson');
    const io = { stdout: () => {}, stderr: () => {}, env: { CATINTEL_NOW: '2020-07-08T21:00:00Z' }, isTTY: false };
    if ((await run(['--db', week, '--quiet', 'ingest', 'usgs-earthquakes', '--from', feed], io)) !== 0)
      throw new Error('the week store could not be built');
    fs.copyFileSync(week, path.join(dir, 'one.duckdb'));
    const stores = {
      default: await openWith(week, undefined),
      one: await openWith(path.join(dir, 'one.duckdb'), '1'),
    };
    const totals = { default: { cpu: 0, wall: 0 }, one: { cpu: 0, wall: 0 } };
    try {
      // Round 0 warms both (DuckDB's caches, this process's code) and is not counted.
      for (let r = 0; r <= rounds; r++)
        for (const key of ['default', 'one'] as const) {
          const cpu0 = process.cpuUsage();
          const t0 = performance.now();
          for (let i = 0; i < perRound; i++) for (const sql of QUERIES) await stores[key].all(sql);
          const cpu = process.cpuUsage(cpu0);
          if (r === 0) continue;
          totals[key].cpu += (cpu.user + cpu.system) / 1e6;
          totals[key].wall += (performance.now() - t0) / 1000;
        }
    } finally {
      await stores.default.close();
      await stores.one.close();
    }
    const n = rounds * perRound * QUERIES.length;
    for (const key of ['default', 'one'] as const)
      emit({
        name: `duckdb_threads.${key}`,
        n,
        seconds: Math.round(totals[key].wall * 1000) / 1000,
        per_second: Math.round(n / totals[key].wall),
        peak_rss_mb: peakRssMb(),
        cpu_seconds: Math.round(totals[key].cpu * 1000) / 1000,
        cpu_ratio: Math.round((totals[key].cpu / totals.default.cpu) * 1000) / 1000,
        threads: key === 'one' ? 1 : os.availableParallelism(),
        load_average: os.loadavg().slice(0, 2),
      });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
