/**
 * /events/live throughput under a load generator (autocannon) on loopback, beside a bare h3 handler
 * returning a static body of the same size, measured in the same run. Each server runs in its own
 * process; the load generator in this one. Reported as requests/s and the ratio to the bare figure.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { emit } from './report.js';

const SERVER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'server.js');
const URL_PATH = '/api/v1/events/live?limit=100';

async function startServer(args: string[]): Promise<{ port: number; stop: () => void; rssMb: () => number }> {
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
  return { port, stop: () => child.kill('SIGTERM'), rssMb };
}

async function load(port: number, seconds: number): Promise<{ rps: number; requests: number; p99: number; non2xx: number }> {
  const r = await autocannon({ url: `http://127.0.0.1:${port}${URL_PATH}`, connections: 32, duration: seconds, pipelining: 1 });
  return { rps: r.requests.average, requests: r.requests.total, p99: r.latency.p99, non2xx: r.non2xx };
}

export async function benchLiveLoad(sharedData: string, seconds = 8): Promise<void> {
  const results: Record<string, { rps: number; requests: number; p99: number; non2xx: number; rss: number }> = {};
  let bodyBytes = 0;
  for (const [name, cacheMs] of [['catintel', '2000'], ['catintel_uncached', '0']] as const) {
    const s = await startServer(['catintel', sharedData, '', cacheMs]);
    try {
      const res = await fetch(`http://127.0.0.1:${s.port}${URL_PATH}`);
      const body = Buffer.from(await res.arrayBuffer());
      bodyBytes = body.length;
      const file = path.join(os.tmpdir(), 'catintel-bench-body.json');
      fs.writeFileSync(file, body);
      await load(s.port, 1); // warm-up
      results[name] = { ...(await load(s.port, seconds)), rss: s.rssMb() };
    } finally {
      s.stop();
    }
  }
  const bare = await startServer(['bare', sharedData, path.join(os.tmpdir(), 'catintel-bench-body.json'), '0']);
  try {
    await load(bare.port, 1);
    results.bare_h3 = { ...(await load(bare.port, seconds)), rss: bare.rssMb() };
  } finally {
    bare.stop();
  }
  for (const [name, r] of Object.entries(results)) {
    emit({
      name: `http.events_live.${name}`,
      n: r.requests,
      seconds,
      per_second: Math.round(r.rps),
      peak_rss_mb: r.rss,
      body_bytes: bodyBytes,
      p99_ms: r.p99,
      non_2xx: r.non2xx,
      ratio_to_bare: Math.round((r.rps / results.bare_h3.rps) * 100) / 100,
    });
  }
}
