/**
 * A large import killed halfway leaves nothing (issue 38, item 2): a seeded US book of 300,000 locations
 * (about 33 MB, several of the import's 4 MiB chunks), `catintel portfolio import` SIGKILLed once its own
 * progress lines on stderr say half the file was read, so the kill falls inside the streaming append of
 * the one transaction: the store then holds no portfolio and no location.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { writeUsPortfolio } from '../scripts/make-us-portfolio.js';
import { Store } from '../src/store/db.js';
import { tempDir } from './helpers/cli.js';
import { BIN } from './helpers/kill.js';

const ROWS = 300_000;
const NOW = '2026-01-01T00:00:00Z';

/** Runs the import and SIGKILLs it once its progress lines say `fraction` of the file was read. */
function importKilledAt(
  db: string,
  book: string,
  fraction: number,
): Promise<{ killedAt: number | null; code: number | null }> {
  const p = spawn(process.execPath, [BIN, '--db', db, 'portfolio', 'import', book, '--name', 'book'], {
    env: { ...process.env, CATINTEL_NOW: NOW },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let buffered = '';
  let killedAt: number | null = null;
  p.stderr!.on('data', (d) => {
    buffered += d;
    const lines = buffered.split('\n');
    buffered = lines.pop()!;
    for (const line of lines) {
      const e = line.startsWith('{') ? JSON.parse(line) : null;
      if (killedAt === null && e?.progress === 'portfolio import' && e.total && e.done / e.total >= fraction) {
        killedAt = e.done / e.total;
        p.kill('SIGKILL');
      }
    }
  });
  return new Promise((resolve, reject) => {
    p.on('error', reject);
    p.on('exit', (code) => resolve({ killedAt, code }));
  });
}

describe('a large import killed halfway', () => {
  let dir: string;
  let book: string;

  beforeAll(async () => {
    dir = tempDir('catintel-bigbook-import-');
    book = path.join(dir, 'book.csv');
    await writeUsPortfolio(book, { rows: ROWS, seed: 38 });
  }, 120_000);

  it('killed halfway through the file, it leaves no portfolio and no location', async () => {
    const db = path.join(dir, 'killed.duckdb');
    const { killedAt, code } = await importKilledAt(db, book, 0.5);
    expect(killedAt, `the import ended (exit ${code}) before reading half its file`).not.toBeNull();
    const store = await Store.open(db, { readOnly: true });
    try {
      const n = async (sql: string) => Number((await store.one<{ n: bigint }>(sql))!.n);
      expect({
        portfolios: await n('SELECT count(*) AS n FROM portfolios'),
        locations: await n('SELECT count(*) AS n FROM portfolio_locations'),
      }).toEqual({ portfolios: 0, locations: 0 });
    } finally {
      await store.close();
    }
  }, 300_000);
});
