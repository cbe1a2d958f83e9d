/**
 * A corrupt store is told apart from a locked one: a block that fails its checksum, a truncated file or
 * a broken header gives exit 5 (`store_corrupt`) with a message saying to restore the store, never exit 4
 * "locked" (cron would retry that forever). `catintel db check` reads every block and says which. An I/O
 * error is neither: exit 1 with DuckDB's own line.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli, tempDir } from './helpers/cli.js';
import { sharedData } from './helpers/paths.js';

/** DuckDB's file: a 4 KiB main header and two 4 KiB database headers, then 256 KiB blocks, each led by its 8-byte checksum. */
const HEADERS = 3 * 4096;
const BLOCK = 256 * 1024;

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

/** A copy of the sound store, damaged by `damage(fd, size)`. */
function damagedCopy(name: string, damage: (fd: number, size: number) => void): string {
  const file = path.join(tempDir(), name);
  fs.copyFileSync(sound, file);
  const fd = fs.openSync(file, 'r+');
  try {
    damage(fd, fs.fstatSync(fd).size);
  } finally {
    fs.closeSync(fd);
  }
  return file;
}

const CORRUPT_LINE =
  /^catintel: store .+ is corrupt \(.+\); retrying will not help: restore it from a backup.* \[store_corrupt\]\n$/;

function expectCorrupt(r: Awaited<ReturnType<typeof cli>>): void {
  expect(r.code, r.stderr).toBe(5);
  expect(r.stderr).toMatch(CORRUPT_LINE);
  expect(r.stderr).not.toMatch(/locked|store_locked/);
}

describe('a corrupt store', () => {
  it('a block whose bytes were overwritten: exit 5 and "corrupt" from every command that meets it, never "locked"', async () => {
    const blocks = Math.floor((fs.statSync(sound).size - HEADERS) / BLOCK);
    let failedAtOpen = 0;
    let failedInCheckOnly = 0;
    for (let k = 0; k < blocks; k++) {
      const db = damagedCopy(`block-${k}.duckdb`, (fd) => {
        const at = HEADERS + k * BLOCK;
        fs.writeSync(fd, Buffer.alloc(8, 0xff), 0, 8, at); // the stored checksum
        fs.writeSync(fd, Buffer.alloc(64, 0xa5), 0, 64, at + 1000); // and some of the data it covers
      });
      const info = await cli(['--db', db, 'db', 'info']);
      const check = await cli(['--db', db, 'db', 'check']);
      const ingest = await cli([
        '--db',
        db,
        '--quiet',
        'ingest',
        'usgs-earthquakes',
        '--from',
        sharedData('feeds/usgs_earthquakes/all_day.geojson'),
      ]);
      for (const r of [info, ingest]) if (r.code !== 0) expectCorrupt(r);
      if (check.code === 0) expect(check.stdout).toMatch(/: ok, every block of/);
      else expectCorrupt(check);
      // db check reads every data block: whatever a reader met, it meets too (index blocks are met by writes).
      if (info.code !== 0) expect(check.code).toBe(5);
      if (info.code === 5) failedAtOpen++;
      if (check.code === 5 && info.code === 0) failedInCheckOnly++;
    }
    // Some blocks hold the catalog or what `db info` reads, some hold data only `db check` reads.
    expect(failedAtOpen).toBeGreaterThan(0);
    expect(failedInCheckOnly).toBeGreaterThan(0);
  }, 120_000);

  it('a data block that fails its checksum: db check names the table, exit 5', async () => {
    const blocks = Math.floor((fs.statSync(sound).size - HEADERS) / BLOCK);
    const named: string[] = [];
    for (let k = 0; k < blocks; k++) {
      const db = damagedCopy(`data-${k}.duckdb`, (fd) =>
        fs.writeSync(fd, Buffer.alloc(8, 0xff), 0, 8, HEADERS + k * BLOCK),
      );
      const check = await cli(['--db', db, 'db', 'check']);
      const table = /is corrupt \(table (\w+): a block fails its checksum\)/.exec(check.stderr)?.[1];
      if (table) named.push(table);
    }
    expect(named).toContain('events');
  }, 120_000);

  it('a truncated store: exit 5, corrupt and truncated, for readers and writers', async () => {
    const db = damagedCopy('truncated.duckdb', (fd, size) => fs.ftruncateSync(fd, Math.floor(size / 2)));
    for (const argv of [
      ['events', 'live'],
      ['db', 'check'],
      ['keys', 'create', '--tier', 'agency', '--name', 'x'],
    ]) {
      const r = await cli(['--db', db, ...argv]);
      expectCorrupt(r);
      expect(r.stderr).toMatch(/truncated/);
    }
  });

  it('garbage over the header after DuckDB\'s magic number: exit 5, not "locked"', async () => {
    const db = damagedCopy('header.duckdb', (fd) => fs.writeSync(fd, Buffer.from('garbage!'.repeat(400)), 0, 3200, 12));
    expectCorrupt(await cli(['--db', db, 'events', 'live']));
    expectCorrupt(await cli(['--db', db, 'db', 'check']));
    const json = await cli(['--db', db, '--json', 'db', 'info']);
    expect(json.code).toBe(5);
    expect(JSON.parse(json.stderr)).toMatchObject({ code: 'store_corrupt', status: 500, title: 'Store corrupt' });
  });

  it('an I/O error (its write-ahead log cannot be read) is neither corrupt nor locked: exit 1 naming the error', async () => {
    const db = damagedCopy('unreadable-wal.duckdb', () => undefined);
    fs.mkdirSync(`${db}.wal`); // DuckDB replays a WAL it finds beside the store: reading a directory fails
    for (const argv of [
      ['events', 'live'],
      ['keys', 'create', '--tier', 'agency', '--name', 'x'],
    ]) {
      const r = await cli(['--db', db, ...argv]);
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toMatch(/^catintel: cannot open store .+: IO Error: .*Is a directory \[unavailable\]\n$/);
      expect(r.stderr).not.toMatch(/corrupt|locked/);
    }
  });

  it('db check on a sound store: ok, every table read, nothing written', async () => {
    const before = fs.readFileSync(sound);
    const r = await cli(['--db', sound, '--json', 'db', 'check']);
    expect(r.code, r.stderr).toBe(0);
    const body = r.json();
    expect(body.status).toBe('ok');
    expect(body.tables.map((t: { table: string }) => t.table)).toEqual(
      expect.arrayContaining(['events', 'rings', 'observations', 'ingest_runs', 'schema_migrations']),
    );
    expect(body.tables.find((t: { table: string }) => t.table === 'events').rows).toBeGreaterThan(200);
    expect(fs.readFileSync(sound).equals(before)).toBe(true);
    const text = await cli(['--db', sound, 'db', 'check']);
    expect(text.stdout).toMatch(/^store .*sound\.duckdb: ok, every block of \d+ tables read \(\d+ rows, .+\)\n$/);
  });
});
