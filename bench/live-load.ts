/**
 * The events endpoints under a load generator (autocannon) on loopback, beside bare h3 handlers returning
 * static bodies of the same size, measured in the same run (issue 9 part 2). Each server runs in its own
 * process, one at a time; the load generator in this one.
 *
 * - `events_live.catintel`: one URL, the 2-second response cache on (what repeats cost);
 * - `events_live.catintel_uncached`: the same URL with the cache off (the live index answers);
 * - `events_{live,nearby,show}.varied_uncached`: 300 seeded URLs per endpoint (filters, boxes, limits, cursors;
 *   points and radii; UUIDs, slugs and source ids), cache off, each request a different URL in turn; the
 *   bare handler answers the n-th request of the mix with a static body of the size ours had (our body);
 * - `events_live.varied_uncached_sql`: the live mix read from DuckDB (the index off): the path before;
 * - `events_{live,nearby}.pipeline_floor`: the varied mixes with each URL's handler result given back from the
 *   first time (bench/server.ts `floor`): the rest of the request, what no faster selection or assembly can beat.
 */
import { spawn } from 'node:child_process';
import type { UntypedJson } from '../src/lib/untyped-json.js';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { emit } from './report.js';
import { mulberry32 } from '../src/lib/random.js';

const SERVER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'server.js');
const FIXED = '/api/v1/events/live?limit=100';

interface Running {
  port: number;
  stop: () => void;
  rssMb: () => number;
  cpuMs: () => number;
}

async function startServer(args: string[]): Promise<Running> {
  const child = spawn(process.execPath, [SERVER, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout!.once('data', (d: Buffer) => resolve(Number(d.toString().trim())));
    child.once('exit', (c) => reject(new Error(`bench server exited (${c})`)));
  });
  const rssMb = () => {
    try {
      const status = fs.readFileSync(`/proc/${child.pid}/status`, 'utf8');
      return Math.round(Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) / 102.4) / 10;
    } catch {
      return 0;
    }
  };
  // CPU time the server process has used (user + system, /proc/<pid>/stat fields 14 and 15, in clock ticks of 10 ms).
  const cpuMs = () => {
    try {
      const fields = fs.readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1].split(' ');
      return (Number(fields[11]) + Number(fields[12])) * 10;
    } catch {
      return NaN;
    }
  };
  return { port, stop: () => child.kill('SIGTERM'), rssMb, cpuMs };
}

interface Load {
  rps: number;
  requests: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  cpuMs: number;
}

/** autocannon over `paths` in turn (one request each, round robin across the 32 connections). */
async function load(s: Running, paths: string[], seconds: number): Promise<Load> {
  let i = 0;
  const cpu0 = s.cpuMs();
  const r = await autocannon({
    url: `http://127.0.0.1:${s.port}`,
    connections: 32,
    duration: seconds,
    pipelining: 1,
    requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, path: paths[i++ % paths.length] }) }],
  });
  return {
    rps: r.requests.average,
    requests: r.requests.total,
    p50: r.latency.p50,
    p99: r.latency.p99,
    non2xx: r.non2xx,
    errors: r.errors,
    cpuMs: s.cpuMs() - cpu0,
  };
}

/** Seeded: the same URL mixes every run. */
const rng = mulberry32;

/** 300 URLs per endpoint from the live events themselves, read through `getJson` (a server's port, or an app in-process). */
export async function mixes(
  getJson: (p: string) => Promise<UntypedJson>,
): Promise<Record<'live' | 'nearby' | 'show', string[]>> {
  const r = rng(20260101);
  const pick = <T>(xs: T[]): T => xs[Math.floor(r() * xs.length)];
  const events: UntypedJson[] = [];
  for (let next: string | undefined = '/api/v1/events/live?limit=1000'; next;) {
    const body = await getJson(next);
    events.push(...body.features);
    next = body.links.find((l: UntypedJson) => l.rel === 'next')?.href;
  }
  const live: string[] = [];
  while (live.length < 300) {
    const q = new URLSearchParams();
    q.set('limit', String(pick([10, 25, 50, 100, 100, 200])));
    if (r() < 0.3) q.set('event_type', pick(['earthquake', 'earthquake,flood', 'earthquake,wildfire,tornado']));
    if (r() < 0.3) q.set('status', pick(['active', 'monitoring']));
    if (r() < 0.5) {
      const [lng, lat] = pick(events).geometry.coordinates as [number, number];
      const w = pick([2, 5, 10, 20, 40]);
      const c = (x: number, m: number) => Math.max(-m, Math.min(m, Math.round(x * 100) / 100));
      q.set('bbox', [c(lng - w, 180), c(lat - w / 2, 90), c(lng + w, 180), c(lat + w / 2, 90)].join(','));
    }
    if (r() < 0.2)
      q.set(
        'since',
        new Date(Date.parse('2020-07-01T21:00:00Z') + r() * 7 * 86_400_000).toISOString().slice(0, 19) + 'Z',
      );
    let url = `/api/v1/events/live?${q}`;
    if (r() < 0.25) url = (await getJson(url)).links.find((l: UntypedJson) => l.rel === 'next')?.href ?? url; // a second page
    live.push(url);
  }
  const nearby = Array.from({ length: 300 }, () => {
    const [lng, lat] = pick(events).geometry.coordinates as [number, number];
    const j = () => Math.round((r() - 0.5) * 200) / 100;
    const status = r() < 0.3 ? `&status=${pick(['active', 'monitoring'])}` : '';
    return `/api/v1/events/nearby?lat=${Math.max(-90, Math.min(90, lat + j()))}&lng=${Math.max(-180, Math.min(180, lng + j()))}&radius_km=${pick([25, 100, 250, 500, 1000])}&limit=${pick([10, 50, 100])}${status}`;
  });
  const show: string[] = [];
  while (show.length < 300) {
    const e = pick(events);
    const kind = pick(['id', 'slug', 'source']);
    if (kind === 'source')
      show.push(`/api/v1/events/${encodeURIComponent((await getJson(`/api/v1/events/${e.id}`)).properties.source_id)}`);
    else show.push(`/api/v1/events/${kind === 'id' ? e.id : e.properties.slug}`);
  }
  return { live, nearby, show };
}

/** Our body for each URL of a mix, saved as <dir>/<n>.json for the bare handler; returns the mean size. */
async function saveBodies(port: number, paths: readonly string[], dir: string): Promise<number> {
  fs.mkdirSync(dir, { recursive: true });
  let total = 0;
  for (const [n, p] of paths.entries()) {
    const body = Buffer.from(await (await fetch(`http://127.0.0.1:${port}${p}`)).arrayBuffer());
    fs.writeFileSync(path.join(dir, `${n}.json`), body);
    total += body.length;
  }
  return Math.round(total / paths.length);
}

/** Alternating slices of the two servers under the same mix, so a busy neighbour weighs on both alike. */
async function interleaved(
  ours: Running,
  paths: string[],
  bare: Running,
  barePaths: string[],
  seconds: number,
): Promise<{ ours: Load; bare: Load }> {
  await load(ours, paths, 1); // warm-up
  await load(bare, barePaths, 1);
  const slices = Math.max(1, Math.round(seconds / 2));
  const a: Load[] = [];
  const b: Load[] = [];
  for (let k = 0; k < slices; k++) {
    a.push(await load(ours, paths, seconds / slices));
    b.push(await load(bare, barePaths, seconds / slices));
  }
  return { ours: merged(a), bare: merged(b) };
}

/** Slices summed; latency percentiles as the median of the slices' (autocannon keeps no raw samples). */
function merged(xs: Load[]): Load {
  const med = (v: number[]) => [...v].sort((p, q) => p - q)[Math.floor(v.length / 2)];
  const requests = xs.reduce((s, x) => s + x.requests, 0);
  return {
    rps: xs.reduce((s, x) => s + x.rps, 0) / xs.length,
    requests,
    p50: med(xs.map((x) => x.p50)),
    p99: med(xs.map((x) => x.p99)),
    non2xx: xs.reduce((s, x) => s + x.non2xx, 0),
    errors: xs.reduce((s, x) => s + x.errors, 0),
    cpuMs: xs.reduce((s, x) => s + x.cpuMs, 0),
  };
}

export async function benchLiveLoad(
  sharedData: string,
  seconds = Number(process.env.CATINTEL_BENCH_HTTP_SECONDS ?? 8),
): Promise<void> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'catintel-bench-http-'));
  const rows: {
    name: string;
    ours: Load;
    bare: Load;
    rss: number;
    bodyBytes: number;
    urls: number;
    target?: number;
  }[] = [];
  const bareRoutes: Record<string, string> = {};
  const sizes: Record<string, number> = {};
  const indexed = await startServer(['catintel', sharedData, '', '0', 'index']);
  let mix: Awaited<ReturnType<typeof mixes>>;
  try {
    mix = await mixes(async (p) => (await fetch(`http://127.0.0.1:${indexed.port}${p}`)).json());
    for (const [name, paths] of [
      ['fixed', [FIXED]],
      ['live', mix.live],
      ['nearby', mix.nearby],
      ['show', mix.show],
    ] as const) {
      bareRoutes[name] = path.join(tmp, name);
      sizes[name] = await saveBodies(indexed.port, paths, bareRoutes[name]);
    }
  } catch (err) {
    indexed.stop();
    throw err;
  }
  const bare = await startServer(['bare', '-', JSON.stringify(bareRoutes)]);
  const measure = async (s: Running, name: string, paths: string[], bareName: string, target?: number) => {
    const r = await interleaved(
      s,
      paths,
      bare,
      paths.map((_, n) => `/bare/${bareName}/${n}`),
      seconds,
    );
    rows.push({ name, ...r, rss: s.rssMb(), bodyBytes: sizes[bareName], urls: paths.length, target });
  };
  try {
    try {
      await measure(indexed, 'events_live.catintel_uncached', [FIXED], 'fixed', 0.5);
      await measure(indexed, 'events_live.varied_uncached', mix.live, 'live', 0.5);
      await measure(indexed, 'events_nearby.varied_uncached', mix.nearby, 'nearby', 0.5);
      await measure(indexed, 'events_show.varied_uncached', mix.show, 'show', 0.5);
    } finally {
      indexed.stop();
    }
    const cached = await startServer(['catintel', sharedData, '', '2000', 'index']);
    try {
      await measure(cached, 'events_live.catintel', [FIXED], 'fixed', 0.5);
    } finally {
      cached.stop();
    }
    const floor = await startServer(['floor', sharedData, '', '0', 'index']);
    try {
      await measure(floor, 'events_live.pipeline_floor', mix.live, 'live');
      await measure(floor, 'events_nearby.pipeline_floor', mix.nearby, 'nearby');
    } finally {
      floor.stop();
    }
    const sql = await startServer(['catintel', sharedData, '', '0', 'sql']);
    try {
      await measure(sql, 'events_live.varied_uncached_sql', mix.live, 'live');
    } finally {
      sql.stop();
    }
  } finally {
    bare.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  for (const r of rows) {
    emit({
      name: `http.${r.name}`,
      n: r.ours.requests,
      seconds,
      per_second: Math.round(r.ours.rps),
      peak_rss_mb: r.rss,
      body_bytes: r.bodyBytes,
      urls: r.urls,
      p50_ms: r.ours.p50,
      p99_ms: r.ours.p99,
      non_2xx: r.ours.non2xx,
      errors: r.ours.errors,
      bare_per_second: Math.round(r.bare.rps),
      bare_p99_ms: r.bare.p99,
      ratio_to_bare: Math.round((r.ours.rps / r.bare.rps) * 100) / 100,
      // The servers' own CPU per request: steadier than throughput when neighbours (and the load generator) share the cores.
      cpu_us_per_request: Math.round((r.ours.cpuMs * 1000) / r.ours.requests),
      bare_cpu_us_per_request: Math.round((r.bare.cpuMs * 1000) / r.bare.requests),
      cpu_ratio_to_bare: Math.round((r.bare.cpuMs / r.bare.requests / (r.ours.cpuMs / r.ours.requests)) * 100) / 100,
      target_ratio: r.target,
    });
  }
}
