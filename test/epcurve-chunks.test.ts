/**
 * A stored book larger than `--max-memory` allows in one pass runs in chunks of locations, and its EP
 * curve is the same, byte for byte, as one pass over the whole book: the JSON answer (every figure, by
 * peril and perspective) and the ORD tables, at the default seed and at another one (whose damage draws
 * shift by the largest group id of the whole book, which no chunk knows alone). The book is seeded and
 * Florida-heavy, so the hurricane package reaches locations of every chunk. The budget is set so that each chunk holds the fewest
 * locations a chunk may hold. Refused: a budget below one such chunk, a size that is not one, a book that
 * repeats a LocNumber (its chunks could not hold each location once). The runs are the compiled CLI's, in
 * processes of their own, so that the kernel's threads carry the sums of the events they take, in shared
 * memory, as a user's run does. A stored book gives the hurricane package no surge keys (it keeps no
 * GroundElevation), so the split by peril over chunks (each peril carried on its own once a chunk holds
 * keys of both) is checked on runBook itself, with an OED book whose coastal homes give their elevation.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { MIN_CHUNK_LOCATIONS, baseBytes, bytesPerLocation } from '../src/epcurve/memory-budget.js';
import { writeUsPortfolio } from '../scripts/make-us-portfolio.js';
import { cli, tempDir } from './helpers/cli.js';
import { MODEL_PACKAGES } from '../src/epcurve/model-packages.js';
import { runBook, type BookChunks, type BookLosses } from '../src/epcurve/run-book.js';
import type { SummaryRecords } from '../src/loss/domain/elt.js';
import { LEE_HOMES } from './helpers/event-loss-books.js';
import { REPO_ROOT, sharedData } from './helpers/paths.js';
import { testModels } from './helpers/model-packages.js';

const LOCATIONS = 2_100;
const CHUNKS = Math.ceil(LOCATIONS / MIN_CHUNK_LOCATIONS);
/** The kernel threads the runs here take (CATINTEL_OASIS_THREADS, set below), whatever the machine's cores. */
const THREADS = 2;
/** A budget whose chunks hold MIN_CHUNK_LOCATIONS locations at `samples` samples. */
const budget = (samples: number) => `${baseBytes(THREADS) + MIN_CHUNK_LOCATIONS * bytesPerLocation(samples, THREADS)}B`;

let dir: string;
let models: string;
let db: string;
let id: string;

/** The compiled CLI in a process of its own: its exit code and output. */
function compiled(argv: string[]): Promise<{ code: number; stdout: string; stderr: string; json: () => any }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [path.join(REPO_ROOT, 'bin', 'catintel'), ...argv],
      { cwd: REPO_ROOT, maxBuffer: 256 * 2 ** 20, env: { ...process.env, CATINTEL_OASIS_THREADS: String(THREADS) } },
      (err, stdout, stderr) =>
        resolve({
          code: err ? Number((err as { code?: number }).code ?? 1) : 0,
          stdout,
          stderr,
          json: () => JSON.parse(stdout),
        }),
    );
  });
}
const epCurve = (argv: string[]) =>
  compiled([
    '--db',
    db,
    'portfolio',
    'ep-curve',
    id,
    '--models',
    models,
    '--perils',
    'hurricane_wind,storm_surge',
    ...argv,
  ]);
const withoutSeconds = (stdout: string) => {
  const body = JSON.parse(stdout);
  delete body.seconds;
  return JSON.stringify(body, null, 2);
};

beforeAll(async () => {
  dir = tempDir('catintel-epcurve-chunks-');
  models = await testModels();
  db = path.join(dir, 'store.duckdb');
  const book = path.join(dir, 'book.csv');
  await writeUsPortfolio(book, {
    rows: LOCATIONS,
    seed: 20260138,
    cenPopPath: path.join(sharedData(), 'exposure', 'CenPop2020_Mean_CO.txt'),
    weight: (c) => (c.fips.startsWith('12') ? 40 : 1),
  });
  const r = await cli(['--db', db, '--json', 'portfolio', 'import', book, '--name', 'chunked book']);
  expect(r.code, r.stderr).toBe(0);
  id = r.json().id;
}, 600_000);

describe('portfolio ep-curve --max-memory: a stored book in chunks', () => {
  it(`${LOCATIONS} locations in ${CHUNKS} chunks: the JSON answer the same bytes as one pass`, async () => {
    const one = await epCurve(['--json']);
    expect(one.code, one.stderr).toBe(0);
    expect(one.stderr).not.toMatch(/chunk/);
    const chunked = await epCurve(['--json', '--max-memory', budget(10)]);
    expect(chunked.code, chunked.stderr).toBe(0);
    expect(chunked.stderr).toContain(`chunk ${CHUNKS} of ${CHUNKS}`);
    expect(withoutSeconds(chunked.stdout)).toBe(withoutSeconds(one.stdout));
    const body = one.json();
    expect(body.NumLocations).toBe(LOCATIONS);
    expect(body.AALAmtByPeril.hurricane_wind).toBeGreaterThan(0);
    // Florida's locations (most of the book) are in every chunk: the figures would differ if a chunk's sums were dropped.
    expect(body.models[0].NumLocationsModelled).toBeGreaterThan(LOCATIONS / 2);
  }, 300_000);

  it('another seed, the ORD psept of the ground-up losses and analytical means: the same bytes as one pass', async () => {
    for (const argv of [
      ['--seed', '7', '--format', 'csv', '--psept', '--perspective', 'gul'],
      ['--samples', '0', '--format', 'csv'],
    ]) {
      const samples = argv.includes('--samples') ? 0 : 10;
      const one = await epCurve(argv);
      const chunked = await epCurve([...argv, '--max-memory', budget(samples)]);
      expect(one.code, one.stderr).toBe(0);
      expect(chunked.code, chunked.stderr).toBe(0);
      expect(chunked.stderr).toContain(`chunk ${CHUNKS} of ${CHUNKS}`);
      expect(chunked.stdout.split('\n').length).toBeGreaterThan(10);
      expect(chunked.stdout, argv.join(' ')).toBe(one.stdout);
    }
  }, 300_000);

  it('refused in one line with exit 2: a budget below one chunk, a size that is not one, a repeated LocNumber', async () => {
    const small = await epCurve(['--max-memory', '100MB']);
    expect(small.code).toBe(2);
    expect(small.stderr).toMatch(/100 MB is below what a loss run needs .* give --max-memory [\d.]+GB or more/);
    const bad = await epCurve(['--max-memory', 'lots']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/"lots" is not a size: give a number with a unit, e\.g\. 4GB/);

    const repeated = path.join(dir, 'repeated.csv');
    const lines = fs.readFileSync(path.join(dir, 'book.csv'), 'utf8').trimEnd().split('\n');
    const header = lines[0].split(',');
    const loc = header.indexOf('LocNumber');
    const last = lines[lines.length - 1].split(',');
    last[loc] = lines[1].split(',')[loc];
    lines[lines.length - 1] = last.join(',');
    fs.writeFileSync(repeated, lines.join('\n') + '\n');
    const imported = await cli(['--db', db, '--json', 'portfolio', 'import', repeated, '--name', 'repeats']);
    expect(imported.code, imported.stderr).toBe(0);
    const r = await compiled([
      '--db',
      db,
      'portfolio',
      'ep-curve',
      imported.json().id,
      '--models',
      models,
      '--max-memory',
      budget(10),
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/run in chunks only when each LocNumber is given once \(LocNumber \S+ is repeated\)/);
  }, 300_000);
});

describe('runBook in chunks: a package of two perils, split by peril', () => {
  const HEADER =
    'PortNumber,AccNumber,LocNumber,Latitude,Longitude,CountryCode,OccupancyCode,ConstructionCode,LocPerilsCovered,BuildingTIV,ContentsTIV,BITIV,LocCurrency,GroundElevation,GroundElevationUnit';
  /** 30 homes around Orlando (no elevation given: wind keys only), then 30 on Lee County's coast at 1 m (wind and surge). */
  const rows = [
    ...Array.from(
      { length: 30 },
      (_, i) =>
        `1,1,IN${i + 1},${(28.4 + (i % 6) * 0.03).toFixed(3)},${(-81.5 + Math.floor(i / 6) * 0.03).toFixed(3)},US,1050,5100,WW1,400000,100000,0,USD,,`,
    ),
    ...Array.from({ length: 30 }, (_, i) => {
      const [lat, lng] = LEE_HOMES[i % LEE_HOMES.length];
      return `1,1,CO${i + 1},${(lat + Math.floor(i / LEE_HOMES.length) * 0.002).toFixed(4)},${lng},US,1050,5100,WW1,400000,100000,0,USD,1,2`;
    }),
  ];
  const PER_CHUNK = 20;
  const pkg = MODEL_PACKAGES.find((m) => m.folder === 'hurricane')!;
  const run = async (seed: number, chunked: boolean): Promise<BookLosses> => {
    const work = fs.mkdtempSync(path.join(dir, 'book-'));
    const location = path.join(work, 'location.csv');
    fs.writeFileSync(location, [HEADER, ...rows].join('\n') + '\n');
    const chunks: BookChunks = {
      count: Math.ceil(rows.length / PER_CHUNK),
      async write(index, at) {
        const file = path.join(at, 'location.csv');
        const part = rows.slice(index * PER_CHUNK, (index + 1) * PER_CHUNK);
        fs.writeFileSync(file, [HEADER, ...part].join('\n') + '\n');
        return file;
      },
    };
    return runBook({
      location,
      modelsDir: models,
      dataDir: sharedData(),
      packages: [{ pkg, perils: ['hurricane_wind', 'storm_surge'] }],
      samples: 10,
      seed,
      workDir: work,
      ...(chunked ? { chunks } : {}),
    });
  };
  const same = (a: SummaryRecords, b: SummaryRecords) => {
    expect(b.length).toBe(a.length);
    for (const k of ['eventId', 'mean', 'max', 'exposure', 'affected'] as const)
      expect(Buffer.from(b[k].buffer, 0, b.length * b[k].BYTES_PER_ELEMENT)).toEqual(
        Buffer.from(a[k].buffer, 0, a.length * a[k].BYTES_PER_ELEMENT),
      );
    expect(Buffer.from(b.sampled.buffer, 0, b.length * b.samples * 8)).toEqual(
      Buffer.from(a.sampled.buffer, 0, a.length * a.samples * 8),
    );
  };

  for (const seed of [1, 5]) {
    it(`seed ${seed}: 3 chunks give one pass's records to the bit, together and per peril; both perils carry loss`, async () => {
      const one = await run(seed, false);
      const chunked = await run(seed, true);
      same(one.gul, chunked.gul);
      for (const peril of ['hurricane_wind', 'storm_surge']) {
        expect(one.packages[0].aalByPeril[peril].gul, peril).toBeGreaterThan(0);
        same(one.packages[0].recordsByPeril[peril].gul, chunked.packages[0].recordsByPeril[peril].gul);
      }
      expect(chunked.packages[0].aalByPeril).toEqual(one.packages[0].aalByPeril);
      expect(chunked.packages[0].locationsKeyed).toBe(one.packages[0].locationsKeyed);
      expect(chunked.locationsKeyed).toBe(one.locationsKeyed);
      expect(chunked.packages[0].locationsNotReached).toBe(one.packages[0].locationsNotReached);
      expect(chunked.packages[0].notReachedReason).toBe(one.packages[0].notReachedReason);
    }, 300_000);
  }
});
