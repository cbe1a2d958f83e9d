/**
 * A full disk is named: exit 1 and one line "no space left on device writing PATH; free space and
 * re-run" [disk_full], the failed ingest recorded when the store can still take that small write, and no
 * stray `<db>.lock`. A real full disk: a small tmpfs, which needs mount (root); skipped where it is refused.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, tempDir } from './helpers/cli.js';
import { sharedData } from './helpers/paths.js';
import { Store } from '../src/store/db.js';

const disk = tempDir('catintel-full-');
const mounted = (() => {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=8m', 'tmpfs', disk], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
afterAll(() => {
  // Lazy: detached even while a failed run still holds a file open there.
  if (mounted) execFileSync('umount', ['-l', disk]);
});

let sound: string;
beforeAll(async () => {
  sound = path.join(tempDir(), 'sound.duckdb');
  const r = await cli([
    '--db',
    sound,
    '--quiet',
    'ingest',
    'usgs-earthquakes',
    '--from',
    sharedData('feeds/usgs_earthquakes/all_day.geojson'),
  ]);
  expect(r.code, r.stderr).toBe(0);
}, 60_000);

/** The store copied onto the small disk, then the disk filled until `leave` bytes are free. */
function storeOnFullDisk(leave: number): string {
  for (const f of fs.readdirSync(disk)) fs.rmSync(path.join(disk, f), { force: true });
  const db = path.join(disk, 'store.duckdb');
  fs.copyFileSync(sound, db);
  const fd = fs.openSync(path.join(disk, 'fill'), 'w');
  try {
    const free = fs.statfsSync(disk).bavail * fs.statfsSync(disk).bsize;
    const chunk = Buffer.alloc(64 * 1024);
    for (let left = free - leave; left > 0; left -= chunk.length)
      fs.writeSync(fd, chunk, 0, Math.min(chunk.length, left));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
  } finally {
    fs.closeSync(fd);
  }
  return db;
}

describe.skipIf(!mounted)('a full disk (a real 8 MiB tmpfs)', () => {
  it('no room at all: exit 1 naming the file it could not write, no empty <db>.lock left, the store intact', async () => {
    const db = storeOnFullDisk(0);
    const r = await cli([
      '--db',
      db,
      '--quiet',
      'ingest',
      'usgs-earthquakes',
      '--from',
      sharedData('feeds/usgs_earthquakes/all_week.geojson'),
    ]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`catintel: no space left on device writing ${db}.lock; free space and re-run [disk_full]\n`);
    expect(fs.readdirSync(disk).sort()).toEqual(['fill', 'store.duckdb']);
    fs.rmSync(path.join(disk, 'fill'));
    expect((await cli(['--db', db, 'db', 'check'])).code).toBe(0);
  });

  it('room to open but not for the run: exit 1 naming the file, the failed run recorded with that reason, no <db>.lock', async () => {
    const db = storeOnFullDisk(200 * 1024);
    const r = await cli([
      '--db',
      db,
      '--quiet',
      'ingest',
      'usgs-earthquakes',
      '--from',
      sharedData('feeds/usgs_earthquakes/all_week.geojson'),
    ]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      new RegExp(
        `^catintel: no space left on device writing ${db}(\\.wal)?; free space and re-run \\[disk_full\\]\\n$`,
      ),
    );
    expect(fs.existsSync(`${db}.lock`)).toBe(false);
    fs.rmSync(path.join(disk, 'fill'));
    const store = await Store.open(db, { readOnly: true });
    try {
      const runs = await store.all<{ status: string; error: string | null }>(
        'SELECT status, error FROM ingest_runs ORDER BY started_at DESC LIMIT 1',
      );
      expect(runs[0]).toEqual({
        status: 'failed',
        error: expect.stringMatching(/^no space left on device writing .*; free space and re-run$/),
      });
    } finally {
      await store.close();
    }
  });
});
