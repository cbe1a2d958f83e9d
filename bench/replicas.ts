/**
 * GET /events/live on a cluster store (docs/cluster-store.md) served by one `serve` replica, then by two
 * behind a client-side round robin, in the same run: the seed snapshot loaded into a throwaway PostgreSQL and
 * its DuckLake directory, each replica a process of its own, autocannon in this process with its 32
 * connections on the one replica, then 16 on each of the two. The replicas count no rate limit
 * (`--rate-limit off`): the figure is what the servers answer, not what a client may send. The machine's
 * load average is in every line: all of it shares one machine's cores, the load generator included.
 *
 *   npm run bench -- replicas [--seconds 10]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { startThrowawayPostgres } from '../src/cluster/throwaway-postgres.js';
import { packageRoot } from '../src/lib/package-root.js';
import { mixes } from './live-load.js';
import { emit } from './report.js';

const BIN = path.join(packageRoot(), 'bin', 'catintel');

function seconds(): number {
  const i = process.argv.indexOf('--seconds');
  const v = i >= 0 ? Number(process.argv[i + 1]) : 10;
  if (!(v > 0)) throw new Error(`--seconds ${process.argv[i + 1]}: give a number of seconds above 0`);
  return v;
}

export async function benchReplicas(): Promise<void> {
  const duration = seconds();
  const server = await startThrowawayPostgres();
  const lake = fs.mkdtempSync(path.join(os.tmpdir(), 'catintel-bench-lake-'));
  const replicas: ChildProcess[] = [];
  try {
    const client = new pg.Client({ connectionString: server.url });
    await client.connect();
    await client.query('CREATE DATABASE bench');
    await client.end();
    const store = `postgres://catintel@127.0.0.1:${server.port}/bench?data=${lake}`;
    const asOf = fs.readFileSync(path.join(packageRoot(), 'data', 'seed', 'as-of.txt'), 'utf8').trim();
    const env = { ...process.env, CATINTEL_NOW: asOf };
    await exited(spawn(process.execPath, [BIN, '--store', store, '--quiet', 'db', 'seed'], { env, stdio: 'ignore' }));
    const urls: string[] = [];
    for (let i = 0; i < 2; i++) {
      const child = spawn(
        process.execPath,
        [BIN, '--store', store, 'serve', '--port', '0', '--rate-limit', 'off', '--access-log', 'off'],
        { env, stdio: ['ignore', 'pipe', 'ignore'] },
      );
      replicas.push(child);
      urls.push(await listening(child));
    }
    const paths = (await mixes(async (p) => (await fetch(`${urls[0]}${p}`)).json())).live;
    // Warm both replicas' live index and caches alike before either is timed.
    await Promise.all(urls.map((u) => load([u], paths, 2, 16)));
    const load0 = os.loadavg();
    const one = await load([urls[0]], paths, duration, 32);
    const two = await load(urls, paths, duration, 16);
    const load1 = os.loadavg();
    const common = {
      seconds: duration,
      // The larger replica's peak resident memory (Linux /proc), not the load generator's.
      peak_rss_mb: Math.max(...replicas.map((r) => peakRssMbOf(r.pid!))),
      load_before: load0.map(round),
      load_after: load1.map(round),
      cores: os.cpus().length,
    };
    emit({
      name: 'replicas.events_live.one',
      n: one.requests,
      per_second: Math.round(one.rps),
      p99_ms: one.p99,
      ...common,
    });
    emit({
      name: 'replicas.events_live.two',
      n: two.requests,
      per_second: Math.round(two.rps),
      p99_ms: two.p99,
      ratio_to_one: round(two.rps / one.rps),
      ...common,
    });
  } finally {
    for (const r of replicas) r.kill('SIGTERM');
    await Promise.all(replicas.map((r) => (r.exitCode === null ? exited(r).catch(() => undefined) : undefined)));
    await server.close();
    fs.rmSync(lake, { recursive: true, force: true });
  }
}

/** Requests per second over all `urls` at once, `connections` on each, every one a URL of the mix in turn. */
async function load(urls: string[], paths: string[], duration: number, connections: number) {
  let i = 0;
  const runs = await Promise.all(
    urls.map((url) =>
      autocannon({
        url,
        connections,
        duration,
        requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, path: paths[i++ % paths.length] }) }],
      }),
    ),
  );
  const bad = runs.reduce((n, r) => n + r.non2xx + r.errors, 0);
  if (bad > 0) throw new Error(`replicas: ${bad} requests failed or were not answered 2xx`);
  return {
    rps: runs.reduce((s, r) => s + r.requests.average, 0),
    requests: runs.reduce((s, r) => s + r.requests.total, 0),
    p99: Math.max(...runs.map((r) => r.latency.p99)),
  };
}

function listening(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d;
      const m = / at (http:\/\/\S+)\/api\/v1 /.exec(out);
      if (m) resolve(m[1]);
    });
    child.once('exit', (code) => reject(new Error(`replicas: a serve replica exited (${code}) before listening`)));
  });
}

function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) =>
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`replicas: a step exited ${code}`)))),
  );
}

const round = (x: number) => Math.round(x * 100) / 100;

function peakRssMbOf(pid: number): number {
  const kb = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return kb ? Math.round(Number(kb) / 102.4) / 10 : NaN;
}
