import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  forgetPortfolioLocations,
  PORTFOLIO_LOCATION_COLUMNS,
  writePortfolioLocations,
} from '../epcurve/book-files.js';
import type { PortfolioLocation } from '../portfolios/read.js';
import { readCsvColumns } from './read-csv-columns.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'catintel-written-csv-columns-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const location = (locNumber: string, lat: number, tiv: number): PortfolioLocation => ({
  locNumber,
  lat,
  lng: -81.9,
  occupancyCode: null,
  constructionCode: 5101,
  perils: ['hurricane_wind'],
  perilsCovered: 'WW1;WSS',
  tiv: { building: tiv, contents: tiv / 2, bi: 0, other: 0 },
  currency: 'USD',
});
const book = [location(' L1 ', 26.6, 250000), location('L,2 "two"', 26.55, 1e6), location('L3', 26.4, 0)];
const WANTED = [...PORTFOLIO_LOCATION_COLUMNS.map((c) => c.toLowerCase()), 'LocDed6All'];

describe('a written portfolio location file read back', () => {
  it('gives from memory what a parse of the file gives, and the file again once edited', () => {
    const dir = fs.mkdtempSync(path.join(tmp, 'book-'));
    const file = writePortfolioLocations(dir, book);
    const kept = readCsvColumns(file, WANTED, 'test');
    forgetPortfolioLocations(dir);
    const parsed = readCsvColumns(file, WANTED, 'test');
    expect(kept).toEqual(parsed);
    expect(parsed.cols.get('locnumber')).toEqual(['L1', 'L,2 "two"', 'L3']);
    expect(parsed.cols.has('LocDed6All')).toBe(false);
    // Each read owns its arrays: a reader's edit is not the next reader's input.
    kept.cols.get('latitude')![0] = 'changed';

    const again = writePortfolioLocations(dir, book);
    expect(readCsvColumns(again, ['Latitude'], 'test').cols.get('Latitude')).toEqual(['26.6', '26.55', '26.4']);
    fs.appendFileSync(again, '1,1,L4,27,-82,US,1000,5000,WW1,1,0,0,0,USD\n');
    const edited = readCsvColumns(again, ['LocNumber'], 'test');
    expect(edited.rows).toBe(4);
    expect(edited.cols.get('LocNumber')).toEqual(['L1', 'L,2 "two"', 'L3', 'L4']);
  });
});
