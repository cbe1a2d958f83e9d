import { describe, expect, it } from 'vitest';
import { isClusterAddress, parseClusterAddress, sqlText } from './store-url.js';

describe('a cluster store address', () => {
  it('is told apart from a DuckDB file', () => {
    expect(isClusterAddress('postgres://h/db?data=/d')).toBe(true);
    expect(isClusterAddress('postgresql://h/db?data=/d')).toBe(true);
    expect(isClusterAddress('./catintel.duckdb')).toBe(false);
    expect(isClusterAddress('postgres.duckdb')).toBe(false);
  });

  it('becomes a libpq connection string, a data directory and a URL without its password', () => {
    const a = parseClusterAddress("postgres://ana:s3cr'et@db.internal:6543/cat%20intel?data=/mnt/lake");
    expect(a.conninfo).toBe("host='db.internal' port='6543' dbname='cat intel' user='ana' password='s3cr\\'et'");
    expect(a.dataPath).toBe('/mnt/lake/');
    expect(a.shown).toBe('postgres://ana:***@db.internal:6543/cat%20intel?data=/mnt/lake');
    expect(a.client).toEqual({
      host: 'db.internal',
      port: 6543,
      database: 'cat intel',
      user: 'ana',
      password: "s3cr'et",
    });
    expect(parseClusterAddress('postgres://h/db?data=/d').conninfo).toBe("host='h' port='5432' dbname='db'");
  });

  it('is refused, naming the fix, without a data directory, a database, or with a parameter it does not read', () => {
    const refusal = (v: string) => {
      try {
        parseClusterAddress(v);
      } catch (err) {
        return (err as Error).message;
      }
      return 'accepted';
    };
    expect(refusal('postgres://u:pw@h/db')).toBe(
      'store address "postgres://u:***@h/db" names no data directory (data=): the shared directory for the store’s data files; write it as postgres://USER@HOST:PORT/DATABASE?data=/shared/dir',
    );
    expect(refusal('postgres://h/?data=/d')).toMatch(/names no database;/);
    expect(refusal('postgres://h/db?data=lake')).toMatch(
      /has a relative data directory "lake": give an absolute path;/,
    );
    expect(refusal('postgres://h/db?data=/d&sslmode=require')).toMatch(/has the unknown parameter sslmode/);
  });

  it('quotes SQL text for ATTACH, which takes no bound parameters', () => {
    expect(sqlText("it's")).toBe("'it''s'");
  });
});
