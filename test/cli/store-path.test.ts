/**
 * `--db` must name a DuckDB store: DuckDB opens an existing CSV/JSON/Parquet file as a throwaway in-memory
 * database (writes "succeed" and are lost), so such paths, in-memory names and files that are not DuckDB
 * databases are refused with exit 2, the path and the fix; a new .duckdb, .db or extensionless path is created.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from '../helpers/cli.js';

const create = (db: string) => cli(['--db', db, 'keys', 'create', '--tier', 'agency', '--name', 'probe']);

describe('store path', () => {
  it('refuses an existing CSV (which DuckDB would open as an in-memory view) and leaves it untouched', async () => {
    const csv = path.join(tempDir(), 'portfolio.csv');
    fs.writeFileSync(csv, 'id,latitude,longitude\n1,25.77,-80.19\n');
    for (const argv of [
      ['keys', 'create', '--tier', 'agency', '--name', 'x'],
      ['db', 'seed'],
      ['events', 'live'],
    ]) {
      const r = await cli(['--db', csv, ...argv]);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain(`--db "${csv}" names a data file`);
      expect(r.stderr).toMatch(/pass --db with a DuckDB file such as \.\/catintel\.duckdb.*\[invalid_parameter\]\n$/);
    }
    expect(fs.readFileSync(csv, 'utf8')).toBe('id,latitude,longitude\n1,25.77,-80.19\n');
  });

  it('refuses a new data-file name, an in-memory name and an existing file that is not a DuckDB database', async () => {
    const dir = tempDir();
    const notes = path.join(dir, 'notes.db');
    fs.writeFileSync(notes, 'not a database at all\n');
    const empty = path.join(dir, 'empty.duckdb');
    fs.writeFileSync(empty, '');
    const cases: [string, RegExp][] = [
      [path.join(dir, 'new.parquet'), /names a data file/],
      [path.join(dir, 'new.json.gz'), /names a data file/],
      [':memory:', /is not a file path/],
      ['', /is not a file path/],
      [notes, /exists but is not a DuckDB database/],
      [empty, /exists but is not a DuckDB database/],
      [dir, /is a directory/],
    ];
    for (const [db, why] of cases) {
      const r = await create(db);
      expect(r.code, db).toBe(2);
      expect(r.stderr, db).toMatch(why);
      expect(r.stderr).toContain(`--db ${JSON.stringify(db)}`);
    }
    expect(fs.existsSync(path.join(dir, 'new.parquet'))).toBe(false);
    expect(fs.readFileSync(notes, 'utf8')).toBe('not a database at all\n');
  });

  it('creates a store at a new .duckdb, .db or extensionless path, and the data is kept', async () => {
    const dir = tempDir();
    for (const name of ['store.duckdb', 'store.db', 'store']) {
      const db = path.join(dir, name);
      expect((await create(db)).code, name).toBe(0);
      const list = await cli(['--db', db, '--json', 'keys', 'list']);
      expect(list.json().keys.map((k: { name: string }) => k.name)).toEqual(['probe']);
    }
  });
});
