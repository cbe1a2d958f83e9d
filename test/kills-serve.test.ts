/**
 * A `catintel serve` killed with SIGKILL leaves its `<db>.lock` sidecar and serve.json (with that run's
 * admin token) behind; the next command that opens the store finds their pid gone and removes them, and
 * cron work goes on. Also: a live server reports its schedule in /health/sources.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, tempDir } from './helpers/cli.js';
import { BIN } from './helpers/kill.js';
import { sharedData } from './helpers/paths.js';

const NOW = '2022-09-29T04:00:00Z';
const env = { CATINTEL_NOW: NOW };
const FEED = sharedData('feeds/usgs_earthquakes/all_day.geojson');
const children: ChildProcess[] = [];
afterAll(() => children.forEach((c) => c.exitCode === null && c.kill('SIGKILL')));

async function serve(db: string, ...extra: string[]): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [BIN, '--db', db, 'serve', '--port', '0', '--access-log', 'off', ...extra], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  let err = '';
  child.stderr!.on('data', (d) => (err += d));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (d) => {
      out += d;
      const m = / at (http:\/\/\S+)\/api\/v1 /.exec(out);
      if (m) resolve(m[1]);
    });
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${err}`)));
  });
  return { child, url };
}

describe('a killed server', () => {
  it('reports its ingest schedule while it runs; once killed, the next command clears its lock and serve.json', async () => {
    const db = path.join(tempDir('catintel-kill-serve-'), 'store.duckdb');
    expect((await cli(['--db', db, 'ingest', 'usgs-earthquakes', '--from', FEED], env)).code).toBe(0);
    const started = Date.now();
    const { child, url } = await serve(db, '--ingest-every', '3600');

    const sources = await (await fetch(`${url}/api/v1/health/sources`)).json();
    expect(sources.ingest_every_seconds).toBe(3600);
    const quakes = sources.sources.find((s: any) => s.source === 'usgs-earthquakes');
    expect(quakes).toMatchObject({ status: 'ok', last_success_at: expect.any(String), lag_seconds: 0 });
    const next = Date.parse(quakes.next_run_at);
    expect(next).toBeGreaterThanOrEqual(started + 3_600_000 - 1000);
    expect(next).toBeLessThanOrEqual(Date.now() + 3_600_000 + 1000);
    const health = await fetch(`${url}/api/v1/health`);
    expect(await health.json()).toMatchObject({
      status: 'ok',
      clock: '2022-09-29T04:00:00.000Z',
      store: { status: 'open' },
    });

    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await exited;
    expect(fs.existsSync(`${db}.lock`)).toBe(true);
    expect(fs.existsSync(`${db}.serve.json`)).toBe(true);

    // A read-only command opens the store (no server owns it) and clears what the dead one left.
    const info = await cli(['--db', db, '--json', 'db', 'info'], env);
    expect(info.code, info.stderr).toBe(0);
    expect(fs.existsSync(`${db}.lock`)).toBe(false);
    expect(fs.existsSync(`${db}.serve.json`)).toBe(false);

    // Cron goes on: the next ingest runs in its own process, and a new server starts.
    const again = await cli(['--db', db, '--json', 'ingest', 'usgs-earthquakes', '--from', FEED], env);
    expect(again.code, again.stderr).toBe(0);
    const second = await serve(db);
    const noSchedule = await (await fetch(`${second.url}/api/v1/health/sources`)).json();
    expect(noSchedule.ingest_every_seconds).toBeNull();
    expect(noSchedule.sources[0].next_run_at).toBeNull();
    const stopped = new Promise((r) => second.child.once('exit', r));
    second.child.kill('SIGTERM');
    expect(await stopped).toBe(0);
  }, 60_000);

  it("a sidecar torn by a kill mid-write (empty) and a killed writer's half-written draft are cleared by the next command", async () => {
    const db = path.join(tempDir('catintel-kill-torn-'), 'store.duckdb');
    expect((await cli(['--db', db, 'locations', 'add', '--name', 'x', '--lat', '30', '--lng', '-90'], env)).code).toBe(
      0,
    );
    // What a writer killed between creating and filling its files leaves: a pid that has exited.
    const dead = spawn(process.execPath, ['-e', '0']);
    await new Promise((r) => dead.once('exit', r));
    fs.writeFileSync(`${db}.lock`, '');
    fs.writeFileSync(`${db}.lock.${dead.pid}.tmp`, '{"pid":');

    const info = await cli(['--db', db, '--json', 'db', 'info'], env);
    expect(info.code, info.stderr).toBe(0);
    expect(fs.readdirSync(path.dirname(db)).filter((f) => f.includes('.lock'))).toEqual([]);
  }, 30_000);
});
