/**
 * A 100,000-row portfolio as it arrives from a spreadsheet: inch marks in unquoted fields (`12" Oak Ave`),
 * quoted fields with commas, doubled quotes and line breaks, a few rows outside coverage, and a few truly
 * broken rows (a short row, an unreadable latitude, stray opening quotes, a quote left open at the end).
 * Every good row is scored, every other row is in errors.csv with its row and line number, and
 * rows = scored + errors + outside_coverage. Seeded: the same file every run.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadBaselineGrid } from '../src/reference-data/load-baseline.js';
import { cellAt } from '../src/domain/scoring/grid.js';
import { cli, tempDir } from './helpers/cli.js';
import { mulberry32 } from '../src/lib/random.js';

const ROWS = 100_000;
const HEADER = [
  'PortNumber',
  'AccNumber',
  'LocNumber',
  'LocName',
  'StreetAddress',
  'Latitude',
  'Longitude',
  'BuildingTIV',
];
/** Inland places (a jitter of +-0.2 degrees keeps them on land). */
const PLACES: [number, number][] = [
  [39.74, -104.99],
  [32.78, -96.8],
  [33.75, -84.39],
  [39.1, -94.58],
  [35.47, -97.52],
  [36.16, -86.78],
  [40.76, -111.89],
  [43.62, -116.2],
];

const rng = mulberry32;

type Fate =
  | { kind: 'scored'; name: string; address: string }
  | { kind: 'outside_coverage' | 'malformed_row' | 'invalid_coordinates' };

interface Portfolio {
  text: string;
  /** Per data row (index row - 1): what must become of it, and the line it starts on. */
  fates: Fate[];
  lines: number[];
}

function makePortfolio(): Portfolio {
  const random = rng(20261125);
  const grid = loadBaselineGrid();
  const out: string[] = [HEADER.join(',') + '\n'];
  const fates: Fate[] = [];
  const lines: number[] = [];
  let line = 2;
  const q = (s: string) => `"${s.replaceAll('"', '""')}"`;
  for (let row = 1; row <= ROWS; row++) {
    const [lat0, lng0] = PLACES[Math.floor(random() * PLACES.length)];
    let lat = (lat0 + (random() - 0.5) * 0.4).toFixed(5);
    let lng = (lng0 + (random() - 0.5) * 0.4).toFixed(5);
    let name = `Site ${row}`;
    let address = `${row} Main St`;
    let nameField = name;
    let addressField = address;
    const r = random();
    if (r < 0.05)
      addressField = address = `${row % 90}" Oak Ave`; // an inch mark: a literal quote in an unquoted field
    else if (r < 0.1) addressField = q((address = `Suite ${row % 7}, Floor 2`));
    else if (r < 0.13) addressField = q((address = `${row} Main St\nSuite 200`));
    else if (r < 0.15) nameField = q((name = `The "Big" Barn ${row}`));
    let fate: Fate = { kind: 'scored', name, address };
    let text = [`P${row % 3}`, `A${row % 50}`, `L${row}`, nameField, addressField, lat, lng, '250000'].join(',');
    if (row % 25_000 === 777) {
      text = `P1,A1,L${row},Short row,${lat}`;
      fate = { kind: 'malformed_row' };
    } else if (row % 25_000 === 5000) {
      text = `P1,A1,L${row},No latitude,x,N/A,${lng},1`;
      fate = { kind: 'invalid_coordinates' };
    } else if (row % 25_000 === 12_345) {
      [lat, lng] = ['48.85660', '2.35220']; // Paris
      text = `P1,A1,L${row},Abroad,x,${lat},${lng},1`;
      fate = { kind: 'outside_coverage' };
    } else if (row % 25_000 === 20_000 || row === ROWS) {
      // A quote opened and never closed on its line: the last row's runs to the end of the file.
      text = `P1,A1,L${row},"Stray quote,${row} Main St,${lat},${lng},1`;
      fate = { kind: 'malformed_row' };
    } else if (fate.kind === 'scored' && cellAt(grid, Number(lat), Number(lng)) < 0)
      fate = { kind: 'outside_coverage' };
    out.push(text + (row === ROWS ? '' : '\n'));
    fates.push(fate);
    lines.push(line);
    line += 1 + (text.match(/\n/g)?.length ?? 0);
  }
  return { text: out.join(''), fates, lines };
}

let dir: string;
let input: string;
let p: Portfolio;
beforeAll(() => {
  dir = tempDir('catintel-score-dirty-');
  input = path.join(dir, 'dirty.csv');
  p = makePortfolio();
  fs.writeFileSync(input, p.text);
});

const count = (kind: Fate['kind']) => p.fates.filter((f) => f.kind === kind).length;

describe('catintel score: a 100,000-row CSV with inch marks, embedded commas, quoted newlines and broken rows', () => {
  it('scores every good row, lists every other row with its number and line, and accounts for every row', async () => {
    expect(count('malformed_row')).toBe(9); // 4 short rows, 4 stray quotes and the last row's quote left open
    const out = path.join(dir, 'csv');
    const r = await cli(['--quiet', '--json', 'score', '--input', input, '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    const summary = r.json();
    expect(summary).toMatchObject({
      rows: ROWS,
      scored: count('scored'),
      errors: count('malformed_row') + count('invalid_coordinates'),
      outside_coverage: count('outside_coverage'),
      errors_by_kind: { malformed_row: count('malformed_row'), invalid_coordinates: count('invalid_coordinates') },
    });
    expect(summary.rows).toBe(summary.scored + summary.errors + summary.outside_coverage);

    const errors = parse(fs.readFileSync(path.join(out, 'errors.csv')), { columns: true }) as Record<string, string>[];
    const expectedErrors = p.fates.flatMap((f, i) =>
      f.kind === 'scored' ? [] : [{ row: String(i + 1), line: String(p.lines[i]), kind: f.kind }],
    );
    expect(errors.map((e) => ({ row: e.row, line: e.line, kind: e.kind }))).toEqual(expectedErrors);
    expect(errors.filter((e) => e.kind === 'malformed_row').every((e) => e.LocNumber === `L${e.row}`)).toBe(true);

    const scored = parse(fs.readFileSync(path.join(out, 'scores.csv')), { columns: true }) as Record<string, string>[];
    expect(scored).toHaveLength(count('scored'));
    const expectedScored = p.fates.flatMap((f, i) =>
      f.kind === 'scored' ? [{ row: String(i + 1), LocName: f.name, StreetAddress: f.address }] : [],
    );
    expect(scored.map((s) => ({ row: s.row, LocName: s.LocName, StreetAddress: s.StreetAddress }))).toEqual(
      expectedScored,
    );
  });

  it('--format oasis finds the same rows in both passes: location.csv and keys.csv hold every scored row', async () => {
    const out = path.join(dir, 'oasis');
    const r = await cli([
      '--quiet',
      '--json',
      'score',
      '--input',
      input,
      '--out',
      out,
      '--format',
      'oasis',
      '--perils',
      'tornado',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json()).toMatchObject({ rows: ROWS, scored: count('scored') });
    const location = parse(fs.readFileSync(path.join(out, 'location.csv')), { columns: true }) as Record<
      string,
      string
    >[];
    const good = p.fates.flatMap((f, i) => (f.kind === 'scored' ? [`L${i + 1}`] : []));
    expect(location.map((l) => l.LocNumber)).toEqual(good); // no CountryCode column: a point outside coverage is left out
    expect(location.find((l) => l.StreetAddress.includes('" Oak Ave'))).toBeDefined();
    const keys = fs.readFileSync(path.join(out, 'keys.csv'), 'utf8').trim().split('\n').slice(1);
    expect(new Set(keys.map((k) => k.split(',')[0])).size).toBe(good.length);
  });
});
