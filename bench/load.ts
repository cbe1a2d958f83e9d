/**
 * `npm run load`: a realistic mix against a real `catintel serve` on loopback (issue 9 part 7), bounded in time.
 *
 * The store: the embedded default (`catintel db seed`) plus a synthetic week of earthquakes in the USGS
 * GeoJSON wire format (bench/synthetic-week.ts) through the normal `catintel ingest`, read at the seed's
 * instant. The server runs with the contract's rate limits and --trust-proxy: anonymous traffic comes
 * from a pool of client addresses (X-Forwarded-For) and authenticated traffic from a pool of enterprise
 * keys, each kept under its limit, so a 429 in the mix is a limiter fault. Two probes run beside the mix
 * with known limits (one address: 60/min; one agency key: 300/min) and must get exactly that many answers.
 *
 * Phases: the mix (--seconds, default 30) for throughput and p50/p99; a soak (--soak, default 120 s) of the
 * same mix with RSS printed at its start and end; readers beside writers (--writers, default 20 s each half,
 * bench/readers-writers.ts): the mix's /events/live, /events/nearby and /risk/score requests alone, then with
 * 4 CLI writer loops handed to the server over its local channel. JSON lines on stdout, a summary on stderr.
 *
 *   npm run load                      npm run load -- --seconds 10 --soak 20 --writers 10 --events 3000
 *   npm run load -- --seconds 0 --soak 0 --writers 20     readers beside writers only (the mix and soak left out)
 *   LOAD_SERVER_NODE_ARGS="--cpu-prof --cpu-prof-dir=DIR" npm run load ...   the server profiled
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { UntypedJson } from '../src/lib/untyped-json.js';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { run } from '../src/cli/main.js';
import { packageRoot } from '../src/lib/package-root.js';
import { emit } from './report.js';
import { seeded, writeSyntheticWeek } from './synthetic-week.js';
import { readersBesideWriters } from './readers-writers.js';
import type { Phase, Req } from './load-types.js';

interface Options {
  seconds: number;
  soak: number;
  writers: number;
  events: number;
  connections: number;
}

function options(argv: string[]): Options {
  const o: Options = { seconds: 30, soak: 120, writers: 20, events: 3000, connections: 32 };
  for (let i = 0; i < argv.length; i += 2) {
    const key = argv[i].replace(/^--/, '') as keyof Options;
    const v = Number(argv[i + 1]);
    if (!(key in o) || !Number.isFinite(v) || v < 0)
      throw new Error(
        `usage: npm run load -- [--seconds N] [--soak N] [--writers N] [--events N] [--connections N] (got ${argv[i]} ${argv[i + 1]})`,
      );
    o[key] = v;
  }
  return o;
}

async function cli(argv: string[], env: Record<string, string>): Promise<string> {
  let out = '';
  let err = '';
  const code = await run(argv, { stdout: (t) => (out += t), stderr: (t) => (err += t), env, isTTY: false });
  if (code !== 0) throw new Error(`catintel ${argv.join(' ')} failed (${code}): ${err}`);
  return out;
}

interface Served {
  child: ChildProcess;
  url: string;
  rssMb: () => number;
  stop: () => Promise<void>;
}

/**
 * Node options for the server alone, from LOAD_SERVER_NODE_ARGS (node refuses --cpu-prof in NODE_OPTIONS):
 * `LOAD_SERVER_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" npm run load` profiles the server.
 */
function serverNodeArgs(): string[] {
  return (process.env.LOAD_SERVER_NODE_ARGS ?? '').split(/\s+/).filter(Boolean);
}

async function serve(db: string, env: Record<string, string>): Promise<Served> {
  const bin = path.join(packageRoot(), 'bin', 'catintel');
  const child = spawn(
    process.execPath,
    [
      ...serverNodeArgs(),
      bin,
      '--db',
      db,
      'serve',
      '--host',
      '127.0.0.1',
      '--port',
      '0',
      '--trust-proxy',
      '--access-log',
      'off',
    ],
    {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d));
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d;
      const m = / at (http:\/\/\S+)\/api\/v1 /.exec(out);
      if (m) resolve(m[1]);
    });
    child.once('exit', (code) => reject(new Error(`catintel serve exited (${code}): ${err}`)));
  });
  const rssMb = () =>
    Math.round(Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0) / 102.4) /
    10;
  const stop = () =>
    new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  return { child, url, rssMb, stop };
}

/** The mix: weights per endpoint kind, seeded parameters from the live events themselves. */
async function mixOf(url: string, keys: string[], hasTriggers: boolean): Promise<Req[]> {
  const r = seeded(20260102);
  const pick = <T>(xs: T[]): T => xs[Math.floor(r() * xs.length)];
  const live = (await (
    await fetch(`${url}/api/v1/events/live?limit=1000`, { headers: { authorization: `Bearer ${keys[0]}` } })
  ).json()) as UntypedJson;
  const points: [number, number][] = live.features.map((f: UntypedJson) => f.geometry.coordinates as [number, number]);
  const ids = live.features.map((f: UntypedJson) => f.id as string);
  const types = [
    'earthquake',
    'hurricane',
    'flood',
    'wildfire',
    'severe_storm',
    'earthquake,flood',
    'extreme_heat,winter_storm',
  ];
  const reqs: Req[] = [];
  const kinds: [string, number][] = [
    ['live', 40],
    ['nearby', 20],
    ['show', 10],
    ['score', 20],
    ['triggers', hasTriggers ? 10 : 0],
  ];
  const total = kinds.reduce((s, [, w]) => s + w, 0);
  for (let i = 0; i < 2000; i++) {
    let w = r() * total;
    const kind = (kinds.find(([, weight]) => (w -= weight) < 0) ?? kinds[0])[0];
    const [lng0, lat0] = pick(points);
    // Moved inward a little so that a jitter of half a degree stays within [-180, 180] and [-90, 90].
    const lng = Math.max(-179.5, Math.min(179.5, lng0));
    const lat = Math.max(-89.5, Math.min(89.5, lat0));
    const j = () => Math.round((r() - 0.5) * 100) / 100;
    let p: string;
    if (kind === 'live') {
      const q = new URLSearchParams({ limit: String(pick([10, 25, 50, 100])) });
      if (r() < 0.4) q.set('event_type', pick(types));
      if (r() < 0.4)
        q.set(
          'bbox',
          [lng - 5, lat - 3, lng + 5, lat + 3]
            .map((x, k) => Math.max(k % 2 ? -90 : -180, Math.min(k % 2 ? 90 : 180, Math.round(x * 100) / 100)))
            .join(','),
        );
      if (r() < 0.2) q.set('status', pick(['active', 'monitoring']));
      p = `/api/v1/events/live?${q}`;
    } else if (kind === 'nearby') {
      p = `/api/v1/events/nearby?lat=${lat + j()}&lng=${lng + j()}&radius_km=${pick([25, 100, 250, 500])}&limit=${pick([10, 50])}`;
    } else if (kind === 'show') {
      p = `/api/v1/events/${pick(ids)}`;
    } else if (kind === 'score') {
      // Scored points on land: near the events' own places (the covered area is the US).
      p = `/api/v1/risk/score?lat=${Math.round((lat + j()) * 1000) / 1000}&lng=${Math.round((lng + j()) * 1000) / 1000}`;
    } else {
      p = '/api/v1/triggers';
    }
    // Anonymous callers from 10,000 addresses; authenticated ones (triggers, half the scores) by key.
    const authed = kind === 'triggers' || (kind === 'score' && r() < 0.5);
    reqs.push(
      authed
        ? { kind, path: p, auth: pick(keys) }
        : { kind, path: p, ip: `10.${Math.floor(r() * 40)}.${Math.floor(r() * 250)}.${1 + Math.floor(r() * 250)}` },
    );
  }
  return reqs;
}

export async function drive(url: string, reqs: Req[], seconds: number, connections: number): Promise<Phase> {
  let i = 0;
  const byKind: Record<string, Record<string, number>> = {};
  const r = await autocannon({
    url,
    connections,
    duration: seconds,
    requests: [
      {
        method: 'GET',
        setupRequest: (req: UntypedJson, context: UntypedJson) => {
          const q = reqs[i++ % reqs.length];
          context.kind = q.kind;
          const headers: Record<string, string> = { ...req.headers, 'accept-encoding': 'gzip' };
          if (q.auth) headers.authorization = `Bearer ${q.auth}`;
          if (q.ip) headers['x-forwarded-for'] = q.ip;
          return { ...req, path: q.path, headers };
        },
        onResponse: (status: number, _body: string, context: UntypedJson) => {
          const k = (byKind[context.kind] ??= {});
          k[status] = (k[status] ?? 0) + 1;
        },
      },
    ],
  } as autocannon.Options);
  return {
    rps: r.requests.average,
    requests: r.requests.total,
    p50: r.latency.p50,
    p99: r.latency.p99,
    max: r.latency.max,
    errors: r.errors,
    timeouts: r.timeouts,
    byKind,
  };
}

/** `count` requests from one caller with a known limit, 8 at a time, beside the mix: statuses counted. */
async function probe(url: string, count: number, headers: Record<string, string>): Promise<Record<string, number>> {
  const statuses: Record<string, number> = {};
  let sent = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (sent < count) {
        sent++;
        const res = await fetch(`${url}/api/v1/events/live?limit=5`, { headers });
        await res.arrayBuffer();
        statuses[res.status] = (statuses[res.status] ?? 0) + 1;
      }
    }),
  );
  return statuses;
}

/** The mix with its two limiter probes, then the soak; exit code 1 when the limiter is not exact or the mix fails. */
async function mixAndSoak(server: Served, reqs: Req[], probeKey: string, o: Options): Promise<void> {
  const say = (t: string) => process.stderr.write(`${t}\n`);
  // The mix, with the two probes at known limits running beside it.
  const [mix, ipProbe, keyProbe] = await Promise.all([
    drive(server.url, reqs, o.seconds, o.connections),
    probe(server.url, 90, { 'x-forwarded-for': '192.0.2.77' }),
    probe(server.url, 350, { authorization: `Bearer ${probeKey}` }),
  ]);
  const limiterExact =
    ipProbe['200'] === 60 && ipProbe['429'] === 30 && keyProbe['200'] === 300 && keyProbe['429'] === 50;
  const n429 = Object.values(mix.byKind).reduce((s, k) => s + (k['429'] ?? 0), 0);
  emit({
    name: 'load.mix',
    n: mix.requests,
    seconds: o.seconds,
    per_second: Math.round(mix.rps),
    peak_rss_mb: server.rssMb(),
    p50_ms: mix.p50,
    p99_ms: mix.p99,
    errors: mix.errors,
    timeouts: mix.timeouts,
    rate_limited_in_mix: n429,
    by_endpoint: mix.byKind,
    connections: o.connections,
  });
  emit({
    name: 'load.rate_limit_probes',
    n: 440,
    seconds: o.seconds,
    per_second: 0,
    peak_rss_mb: server.rssMb(),
    free_ip_60_per_min: ipProbe,
    agency_key_300_per_min: keyProbe,
    exact: limiterExact,
  });
  let soak: Phase | undefined;
  if (o.soak > 0) {
    const rssStart = server.rssMb();
    soak = await drive(server.url, reqs, o.soak, o.connections);
    const rssEnd = server.rssMb();
    emit({
      name: 'load.soak',
      n: soak.requests,
      seconds: o.soak,
      per_second: Math.round(soak.rps),
      peak_rss_mb: rssEnd,
      rss_start_mb: rssStart,
      rss_end_mb: rssEnd,
      p50_ms: soak.p50,
      p99_ms: soak.p99,
      errors: soak.errors,
    });
    say(`soak ${o.soak} s: RSS ${rssStart} MB at start, ${rssEnd} MB at end`);
  }
  say(
    `mix ${o.seconds} s: ${Math.round(mix.rps)} req/s, p50 ${mix.p50} ms, p99 ${mix.p99} ms, ${mix.errors} errors, ${n429} rate-limited; limiter exact: ${limiterExact}`,
  );
  if (!limiterExact || n429 > 0 || mix.errors > 0) process.exitCode = 1;
}

async function main(): Promise<void> {
  const o = options(process.argv.slice(2));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'catintel-load-'));
  const now = fs.readFileSync(path.join(packageRoot(), 'data', 'seed', 'as-of.txt'), 'utf8').trim();
  const env = { CATINTEL_NOW: now };
  const db = path.join(dir, 'load.duckdb');
  const say = (t: string) => process.stderr.write(`${t}\n`);
  await cli(['--db', db, '--quiet', 'db', 'seed'], env);
  const week = path.join(dir, 'synthetic_week.geojson');
  writeSyntheticWeek(week, { now, events: o.events, seed: 20260101 });
  await cli(['--db', db, '--quiet', 'ingest', 'usgs-earthquakes', '--from', week], env);
  const key = async (tier: string, name: string) =>
    JSON.parse(await cli(['--db', db, '--json', 'keys', 'create', '--tier', tier, '--name', name], env)).key as string;
  const keys: string[] = [];
  for (let k = 0; k < 20; k++) keys.push(await key('enterprise', `load-${k}`));
  const probeKey = await key('agency', 'load-probe');
  const server = await serve(db, env);
  try {
    const triggers = await fetch(`${server.url}/api/v1/triggers`, { headers: { authorization: `Bearer ${keys[0]}` } });
    const hasTriggers = triggers.status === 200;
    if (!hasTriggers) say(`note: GET /triggers answers ${triggers.status}: left out of the mix`);
    const reqs = await mixOf(server.url, keys, hasTriggers);
    const info = JSON.parse(await cli(['--db', db, '--json', 'db', 'info'], env)) as Record<string, unknown>;
    say(`store: embedded default + ${o.events} synthetic quakes; ${JSON.stringify(info.events ?? info)}`);
    await drive(server.url, reqs, 3, o.connections); // warm-up
    // --seconds 0 leaves the mix and its probes out (and so the soak): only the readers beside writers run.
    if (o.seconds > 0) await mixAndSoak(server, reqs, probeKey, o);
    if (o.writers > 0) {
      const readers = reqs.filter((q) => q.kind === 'live' || q.kind === 'nearby' || q.kind === 'score');
      const rw = await readersBesideWriters({
        url: server.url,
        db,
        dir,
        env,
        now,
        seconds: o.writers,
        readers,
        cli,
        drive,
      });
      emit({
        name: 'load.readers_beside_writers',
        n: rw.beside.requests,
        seconds: o.writers,
        per_second: Math.round(rw.beside.rps),
        peak_rss_mb: server.rssMb(),
        ...rw.line,
      });
      say(rw.summary);
      if (rw.failed) process.exitCode = 1;
    }
  } finally {
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

await main();
