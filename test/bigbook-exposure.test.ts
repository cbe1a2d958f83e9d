/**
 * Exposure of a large book costs what is exposed, not the book (issue 38, item 1). A seeded 400,000-location
 * US book in a store with no live event: `catintel portfolio exposure` answers "0 exposed" without reading
 * the locations, so its peak RSS is that of a command that reads one portfolio row (`portfolio show`), not
 * hundreds of MB more (reading the book costs about 0.8 KB a location). Then Hurricane Ian's rings at
 * landfall over the same book: the ingest (which raises the portfolio's alerts) holds what it holds in a
 * store without the book, and the answer counts the Florida locations inside the rings, the process
 * holding only those. Each command runs in a fresh node process (the compiled CLI), which reports
 * its own peak RSS (DuckDB's native memory included).
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { child } from '../bench/child.js';
import { writeUsPortfolio } from '../scripts/make-us-portfolio.js';
import { cli, tempDir } from './helpers/cli.js';
import { REPO_ROOT, sharedData } from './helpers/paths.js';

const ROWS = 400_000;
const LANDFALL = '2022-09-28T19:30:00Z';
const IAN = sharedData('hazard_history/hurricanes/bal092022.dat');
/** What reading the whole book would add (0.8 KB a location) is far above this; reading nothing adds nothing. */
const MARGIN_MB = 80;

/** Runs the compiled CLI in a fresh node; answers its JSON output and peak RSS. */
async function measured(argv: string[], now: string): Promise<{ json: any; peakRssMb: number }> {
  const main = JSON.stringify(path.join(REPO_ROOT, 'dist', 'src', 'cli', 'main.js'));
  const r = await child(`
    import { run } from ${main};
    let out = '';
    const code = await run(${JSON.stringify(['--quiet', '--json', ...argv])},
      { stdout: (t) => (out += t), stderr: (t) => process.stderr.write(t), env: { CATINTEL_NOW: ${JSON.stringify(now)} }, isTTY: false });
    if (code !== 0) process.exit(code);
    console.log(out);`);
  return { json: JSON.parse(r.output), peakRssMb: r.peakRssMb };
}

describe(`exposure of a ${ROWS.toLocaleString('en-US')}-location book`, () => {
  let dir: string;
  let book: string;
  /** The book imported once into a store without events; each test works on its own copy of the file. */
  let imported: Awaited<ReturnType<typeof cli>>;
  let withBook: string;

  beforeAll(async () => {
    dir = tempDir('catintel-bigbook-');
    book = path.join(dir, 'book.csv');
    await writeUsPortfolio(book, { rows: ROWS, seed: 38 });
    // Importing 400,000 locations is most of the file's CPU: once, not once a test (a closed store is its one file).
    withBook = path.join(dir, 'with-book.duckdb');
    imported = await cli(['--db', withBook, '--json', 'portfolio', 'import', book, '--name', 'book'], {
      CATINTEL_NOW: LANDFALL,
    });
  }, 120_000);

  it('no live event reaches it: 0 exposed, and the command holds no more than one that reads the portfolio row', async () => {
    // Each command on its own copy of the same store, side by side: each process reports its own peak RSS.
    const db = path.join(dir, 'quiet.duckdb');
    const showDb = path.join(dir, 'quiet-show.duckdb');
    fs.copyFileSync(withBook, db);
    fs.copyFileSync(withBook, showDb);
    expect(imported.code, imported.stderr).toBe(0);
    const id = imported.json().id;
    const [show, exposure] = await Promise.all([
      measured(['--db', showDb, 'portfolio', 'show', id], LANDFALL),
      measured(['--db', db, 'portfolio', 'exposure', id], LANDFALL),
    ]);
    expect(show.json.NumLocations).toBe(ROWS);
    expect(exposure.json).toMatchObject({ PortfolioId: id, NumLocations: ROWS, NumLocationsExposed: 0, events: [] });
    expect(exposure.peakRssMb, `exposure ${exposure.peakRssMb} MB, portfolio show ${show.peakRssMb} MB`).toBeLessThan(
      show.peakRssMb + MARGIN_MB,
    );
  }, 120_000);

  it("Ian's rings at landfall: the Florida locations inside them are counted, and only they are held", async () => {
    const db = path.join(dir, 'ian.duckdb');
    fs.copyFileSync(withBook, db);
    expect(imported.code, imported.stderr).toBe(0);
    const id = imported.json().id;
    // The ingest raises the portfolio's alerts: it too reads only the locations inside Ian's rings' boxes,
    // so it holds what the same ingest holds in a store without the book.
    // The two ingests are processes on stores of their own: side by side, each with its own peak RSS.
    const [ingest, bare] = await Promise.all([
      measured(['--db', db, 'ingest', 'nhc', '--from', IAN], LANDFALL),
      measured(['--db', path.join(dir, 'bare.duckdb'), 'ingest', 'nhc', '--from', IAN], LANDFALL),
    ]);
    expect(
      ingest.peakRssMb,
      `ingest ${ingest.peakRssMb} MB beside the book, ${bare.peakRssMb} MB without it`,
    ).toBeLessThan(bare.peakRssMb + MARGIN_MB);
    const showDb = path.join(dir, 'ian-show.duckdb');
    fs.copyFileSync(db, showDb);
    const [show, exposure] = await Promise.all([
      measured(['--db', showDb, 'portfolio', 'show', id], LANDFALL),
      measured(['--db', db, 'portfolio', 'exposure', id, '--locations-limit', '5'], LANDFALL),
    ]);
    const x = exposure.json;
    expect(x.NumLocations).toBe(ROWS);
    const ian = x.events.find((e: any) => e.title === 'Hurricane Ian (AL09 2022)');
    expect(ian).toBeDefined();
    // A book spread like the US population has a few per cent of its locations in Florida's southwest.
    expect(x.NumLocationsExposed).toBeGreaterThan(100);
    expect(x.NumLocationsExposed).toBeLessThan(ROWS / 10);
    for (const r of ian.rings) for (const l of r.Locations) expect(l.Latitude).toBeGreaterThan(24);
    expect(exposure.peakRssMb, `exposure ${exposure.peakRssMb} MB, portfolio show ${show.peakRssMb} MB`).toBeLessThan(
      show.peakRssMb + MARGIN_MB,
    );
  }, 180_000);
});
