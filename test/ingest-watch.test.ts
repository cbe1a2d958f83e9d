/**
 * `catintel ingest <source> --watch N` as an operator runs it, against a local server standing in for
 * api.weather.gov that fails its first requests and then answers with a real recorded response: the watch
 * logs each failure (one line, or one JSON line with --json), retries with backoff, ingests once the feed
 * is back, keeps going at its interval, and ends with exit 0 on SIGTERM or SIGINT. A usage error is still
 * exit 2 at once.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, tempDir } from './helpers/cli.js';
import { REPO_ROOT, sharedData } from './helpers/paths.js';

const BIN = path.join(REPO_ROOT, 'bin/catintel');
const built = fs.existsSync(path.join(REPO_ROOT, 'dist/src/cli/main.js'));
const NOW = '2026-01-01T00:00:00Z';
const body = fs.readFileSync(sharedData('feeds/nws_alerts/alerts_active_national_templated-times.json'));
const FAILURES = 3;
const failuresLeft = new Map<string, number>();
const served = new Map<string, number>();
let server: http.Server;
let base: string;
const children: ChildProcess[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const left = failuresLeft.get(req.url!) ?? FAILURES;
    failuresLeft.set(req.url!, left - 1);
    if (left > 0) return res.writeHead(503).end('busy');
    served.set(req.url!, (served.get(req.url!) ?? 0) + 1);
    res.writeHead(200, { 'content-type': 'application/geo+json' }).end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  children.forEach((c) => c.exitCode === null && c.kill('SIGKILL'));
  await new Promise((r) => server.close(r));
});

function watch(argv: string[], feedPath: string) {
  const env = {
    ...process.env,
    CATINTEL_NOW: NOW,
    CATINTEL_FEED_URL_NWS_ALERTS: `${base}${feedPath}`,
    CATINTEL_FETCH_ATTEMPTS: '1',
    CATINTEL_FETCH_TIMEOUT_MS: '2000',
  };
  const child = spawn(process.execPath, [BIN, ...argv], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let out = '';
  let err = '';
  child.stdout!.on('data', (d: Buffer) => (out += d));
  child.stderr!.on('data', (d: Buffer) => (err += d));
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  return { child, out: () => out, err: () => err, exited };
}

/** Waits for `what` while the watch runs; a watch that ends first fails the test with what it said. */
async function until(w: ReturnType<typeof watch>, what: () => boolean, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!what()) {
    if (w.child.exitCode !== null) throw new Error(`the watch ended with exit ${w.child.exitCode}: ${w.err()}`);
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 25));
  }
}

// The three watches are processes of their own on feed paths of their own, mostly waiting out their retries:
// run side by side, not one after another.
describe.skipIf(!built)('ingest --watch survives a failing feed (needs `make build`)', { concurrent: true }, () => {
  it('logs each failure on one line, ingests when the feed is back, keeps going, and exits 0 on SIGTERM', async () => {
    const db = path.join(tempDir('catintel-watch-'), 'store.duckdb');
    const w = watch(['--db', db, 'ingest', 'nws-alerts', '--watch', '1'], '/alerts');
    await until(w, () => (served.get('/alerts') ?? 0) >= 2 && (w.out().match(/^nws-alerts: /gm) ?? []).length >= 2);
    expect(w.child.exitCode).toBeNull(); // alive after three failures and two rounds

    const failures = w
      .err()
      .split('\n')
      .filter((l) => l.startsWith('catintel: '));
    expect(failures).toHaveLength(FAILURES);
    for (const [i, line] of failures.entries()) {
      expect(line).toMatch(
        /could not read http:\/\/127\.0\.0\.1:\d+\/alerts \(HTTP 503\) after 1 attempt\(s\).* \[upstream_failed\]; --watch retries in 1 s \((\d) failures? in a row\)$/,
      );
      expect(line).toContain(`(${i + 1} failure`);
    }
    expect(w.out()).toMatch(/^nws-alerts: \d+ read, [1-9]\d* new/m); // the first good round stored the alerts
    expect(w.out()).toMatch(/^nws-alerts: \d+ read, 0 new, 0 updated, [1-9]\d* unchanged/m); // the next one found them

    w.child.kill('SIGTERM');
    expect(await w.exited).toBe(0);
    const info = (await cli(['--db', db, '--json', 'db', 'info'], { CATINTEL_NOW: NOW })).json();
    expect(info.events).toBeGreaterThan(0);
    const runs = info.recent_ingest_runs.filter((r: { source: string }) => r.source === 'nws-alerts');
    expect(runs.filter((r: { status: string }) => r.status === 'failed')).toHaveLength(FAILURES);
  });

  it('with --json, logs each failure as one JSON line, and exits 0 on SIGINT', async () => {
    const db = path.join(tempDir('catintel-watch-'), 'store.duckdb');
    const w = watch(['--db', db, '--json', 'ingest', 'nws-alerts', '--watch', '1'], '/alerts-json');
    await until(w, () => (served.get('/alerts-json') ?? 0) >= 1 && /"inserted"/.test(w.out()));
    const lines = w
      .err()
      .split('\n')
      .filter((l) => l.startsWith('{"watch"'))
      .map((l) => JSON.parse(l));
    expect(lines).toHaveLength(FAILURES);
    lines.forEach((l, i) =>
      expect(l).toMatchObject({ watch: 'failed', code: 'upstream_failed', failures: i + 1, retry_in_s: 1 }),
    );
    expect(lines[0].error).toMatch(/HTTP 503/);
    w.child.kill('SIGINT');
    expect(await w.exited).toBe(0);
  });

  it('still ends at once with exit 2 on a usage error', async () => {
    const db = path.join(tempDir('catintel-watch-'), 'store.duckdb');
    const missing = path.join(tempDir(), 'nowhere.json');
    const w = watch(['--db', db, 'ingest', 'nws-alerts', '--from', missing, '--watch', '1'], '/unused');
    expect(await w.exited).toBe(2);
    expect(w.err().trim().split('\n')).toHaveLength(1);
    expect(w.err()).toMatch(/cannot read --from .*nowhere\.json: no such file/);
  });
});
