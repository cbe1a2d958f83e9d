/**
 * The OED files an EP curve's run starts from. A stored portfolio is written out as an OED location file
 * (the fields it stores: LocNumber, coordinates, occupancy and construction, the four TIVs,
 * LocPerilsCovered, currency), all in one account; an `--input` file is used as it is, financial terms
 * included. The Oasis input files carry insured terms only with an account file, so a book given without
 * one gets the plainest account: one policy per (PortNumber, AccNumber) with no terms of its own, so the
 * insured loss is the ground-up loss less the location terms the file holds.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { PortfolioLocation } from '../portfolios/read.js';
import { readCsvColumns } from '../oasis-files/read-csv-columns.js';
import { forgetCsvColumnsIn, rememberCsvColumns } from '../oasis-files/written-csv-columns.js';

const quote = (s: string) => (/[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);

/** OED's codes for an unknown occupancy and construction, used where the portfolio stores none. */
const UNKNOWN_OCCUPANCY = 1000;
const UNKNOWN_CONSTRUCTION = 5000;

/** The columns of a stored portfolio's OED location file. */
export const PORTFOLIO_LOCATION_COLUMNS = [
  'PortNumber',
  'AccNumber',
  'LocNumber',
  'Latitude',
  'Longitude',
  'CountryCode',
  'OccupancyCode',
  'ConstructionCode',
  'LocPerilsCovered',
  'BuildingTIV',
  'OtherTIV',
  'ContentsTIV',
  'BITIV',
  'LocCurrency',
] as const;

/** The fields of PORTFOLIO_LOCATION_COLUMNS that are free text (quoted when they hold a comma or a quote). */
const TEXT_FIELDS: ReadonlySet<string> = new Set(['LocNumber', 'LocPerilsCovered', 'LocCurrency']);

/**
 * A stored portfolio's locations as an OED location file in `dir`; its path. Its columns are kept for the
 * readers that read it next (written-csv-columns.ts): the caller forgets them when it removes `dir`.
 */
export function writePortfolioLocations(dir: string, locations: readonly PortfolioLocation[]): string {
  const file = path.join(dir, 'location.csv');
  const n = locations.length;
  const column = (cell: (l: PortfolioLocation) => string) => {
    const cells = new Array<string>(n);
    for (let i = 0; i < n; i++) cells[i] = cell(locations[i]);
    return cells;
  };
  const ones = new Array<string>(n).fill('1');
  const columns = [
    ones,
    ones,
    column((l) => l.locNumber),
    column((l) => String(l.lat)),
    column((l) => String(l.lng)),
    new Array<string>(n).fill('US'),
    column((l) => String(l.occupancyCode ?? UNKNOWN_OCCUPANCY)),
    column((l) => String(l.constructionCode ?? UNKNOWN_CONSTRUCTION)),
    column((l) => l.perilsCovered),
    column((l) => String(l.tiv.building || 0)),
    column((l) => String(l.tiv.other || 0)),
    column((l) => String(l.tiv.contents || 0)),
    column((l) => String(l.tiv.bi || 0)),
    column((l) => l.currency),
  ];
  // Only the text fields can hold a comma or a quote; numbers and codes are written as they are.
  const quoted = PORTFOLIO_LOCATION_COLUMNS.map((name) => TEXT_FIELDS.has(name));
  const lines = [PORTFOLIO_LOCATION_COLUMNS.join(',')];
  for (let i = 0; i < n; i++) {
    let line = '';
    for (let c = 0; c < columns.length; c++) {
      const cell = columns[c][i];
      line += (c === 0 ? '' : ',') + (quoted[c] ? quote(cell) : cell);
    }
    lines.push(line);
  }
  fs.writeFileSync(file, lines.join('\n') + '\n');
  rememberCsvColumns(file, PORTFOLIO_LOCATION_COLUMNS, columns);
  return file;
}

/** Lets go of the columns writePortfolioLocations kept for a file in `dir`, which the caller is removing. */
export function forgetPortfolioLocations(dir: string): void {
  forgetCsvColumnsIn(dir);
}

/**
 * The account file of a location file given without one: one policy (PolNumber 1) per account of the
 * location file, no terms, in the account's first location currency.
 */
export function writeDefaultAccount(dir: string, locationFile: string): string {
  const t = readCsvColumns(locationFile, ['PortNumber', 'AccNumber', 'LocCurrency'], '--input');
  const col = (f: string) => t.cols.get(f) ?? [];
  const seen = new Map<string, string[]>();
  for (let i = 0; i < t.rows; i++) {
    const port = col('PortNumber')[i] ?? '';
    const acc = col('AccNumber')[i] ?? '';
    const key = JSON.stringify([port, acc]);
    if (!seen.has(key)) seen.set(key, [quote(port), quote(acc), '1', quote(col('LocCurrency')[i] || 'USD')]);
  }
  const file = path.join(dir, 'account.csv');
  fs.writeFileSync(
    file,
    ['PortNumber,AccNumber,PolNumber,AccCurrency', ...[...seen.values()].map((r) => r.join(','))].join('\n') + '\n',
  );
  return file;
}
