/**
 * A server process for the load benchmark: `catintel` = our /api/v1 app on a store holding the USGS
 * week feed; `bare` = a bare h3 handler returning a static body of the same size. Prints its port.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { H3, serve } from 'h3';
import { defaultConfig } from '../src/config/defaults.js';
import type { Context } from '../src/context.js';
import { createApp } from '../src/http/app.js';
import { ingestSource } from '../src/ingest/run.js';
import { usgsEarthquakes } from '../src/sources/usgs-earthquakes.js';
import { Store } from '../src/store/db.js';

const [mode, sharedData, bodyFile, cacheMs] = process.argv.slice(2);
const NOW = '2020-07-08T21:00:00Z';

async function start(): Promise<void> {
  let app: H3;
  if (mode === 'bare') {
    const body = fs.readFileSync(bodyFile);
    app = new H3().get('/api/v1/events/live', () => new Response(body, { headers: { 'content-type': 'application/geo+json' } }));
  } else {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'catintel-bench-'));
    const db = await Store.open(path.join(dir, 'bench.duckdb'));
    const ctx: Context = { config: defaultConfig(), db, clock: () => new Date(NOW), log: () => {}, progress: () => {} };
    await ingestSource(ctx, usgsEarthquakes, path.join(sharedData, 'feeds/usgs_earthquakes/all_week.geojson'));
    // Rate limiting off: this measures the handler path, not the limiter (serve --rate-limit off).
    app = createApp({ ctx, cacheTtlMs: Number(cacheMs), rateLimit: 'off' }).h3;
  }
  const server = serve(app, { port: 0, hostname: '127.0.0.1', silent: true });
  await server.ready();
  process.stdout.write(`${new URL(server.url!).port}\n`);
}

await start();
