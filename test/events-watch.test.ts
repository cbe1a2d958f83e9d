/**
 * `catintel events watch` as an operator runs it: a real `catintel serve` on a store, a watcher beside it,
 * and a cron-style `catintel ingest` on the same store (run inside the server through the local channel).
 * The watcher prints each new event as it happens, one NDJSON line each with --json, and ends with exit 0
 * on SIGTERM. Without a server it says what to start (exit 1); a bad filter is exit 2 before anything else.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, tempDir } from './helpers/cli.js';
import { REPO_ROOT, sharedData } from './helpers/paths.js';

const BIN = path.join(REPO_ROOT, 'bin/catintel');
const built = fs.existsSync(path.join(REPO_ROOT, 'dist/src/cli/main.js'));
const NOW = '2022-09-29T03:32:09Z'; // all_day.geojson holds earthquakes up to this instant
const env = { ...process.env, CATINTEL_NOW: NOW };
const children: ChildProcess[] = [];
afterAll(() => children.forEach((c) => c.exitCode === null && c.kill('SIGKILL')));

function start(argv: string[]): {
  child: ChildProcess;
  out: () => string;
  err: () => string;
  exited: Promise<number | null>;
} {
  const child = spawn(process.execPath, [BIN, ...argv], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let out = '';
  let err = '';
  child.stdout!.on('data', (d: Buffer) => (out += d));
  child.stderr!.on('data', (d: Buffer) => (err += d));
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  return { child, out: () => out, err: () => err, exited };
}

async function until(what: () => boolean, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!what()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('catintel events watch', () => {
  it('refuses a bad filter with exit 2, and without a running server says what to start (exit 1)', async () => {
    const db = path.join(tempDir(), 'none.duckdb');
    const bad = await cli(['--db', db, 'events', 'watch', '--event-type', 'meteor']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/event_type: "meteor" is not one of earthquake/);
    const alone = await cli(['--db', db, 'events', 'watch']);
    expect(alone.code).toBe(1);
    expect(alone.stderr).toMatch(/events watch needs `catintel serve` running on .*none\.duckdb/);
  });

  it.skipIf(!built)(
    'prints the events a cron ingest brings, as they happen, and stops on SIGTERM with exit 0 (needs `make build`)',
    async () => {
      const db = path.join(tempDir('catintel-watch-'), 'served.duckdb');
      const server = start(['--db', db, 'serve', '--port', '0', '--access-log', 'off']);
      await until(() => /serving/.test(server.out()));
      const watcher = start(['--db', db, '--json', 'events', 'watch', '--event-type', 'earthquake']);
      await until(() => /watching|stream\.open/.test(watcher.out() + watcher.err()));

      const ingest = await cli(
        [
          '--db',
          db,
          '--quiet',
          'ingest',
          'usgs-earthquakes',
          '--from',
          sharedData('feeds/usgs_earthquakes/all_day.geojson'),
        ],
        { CATINTEL_NOW: NOW },
      );
      expect(ingest.code).toBe(0);
      const live = (
        await cli(['--db', db, '--json', 'events', 'live', '--limit', '1000'], { CATINTEL_NOW: NOW })
      ).json();
      await until(
        () =>
          watcher
            .out()
            .split('\n')
            .filter((l) => l.includes('"event.new"')).length >= live.numberMatched,
      );

      const lines = watcher
        .out()
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      expect(lines[0]).toMatchObject({ type: 'stream.open' });
      const added = lines.filter((l) => l.type === 'event.new');
      expect(new Set(added.map((l) => l.event.properties.id))).toEqual(
        new Set(live.features.map((f: any) => f.properties.id)),
      );
      expect(added.every((l) => /^[0-9a-z]+-\d+$/.test(l.id))).toBe(true);

      watcher.child.kill('SIGTERM');
      expect(await watcher.exited).toBe(0);
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
    },
  );
});
