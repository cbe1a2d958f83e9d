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

/** A stored portfolio's locations as an OED location file in `dir`; its path. */
export function writePortfolioLocations(dir: string, locations: readonly PortfolioLocation[]): string {
  const file = path.join(dir, 'location.csv');
  const lines = [PORTFOLIO_LOCATION_COLUMNS.join(',')];
  for (const l of locations) {
    lines.push(
      [
        '1',
        '1',
        quote(l.locNumber),
        String(l.lat),
        String(l.lng),
        'US',
        String(l.occupancyCode ?? UNKNOWN_OCCUPANCY),
        String(l.constructionCode ?? UNKNOWN_CONSTRUCTION),
        quote(l.perilsCovered),
        String(l.tiv.building || 0),
        String(l.tiv.other || 0),
        String(l.tiv.contents || 0),
        String(l.tiv.bi || 0),
        l.currency,
      ].join(','),
    );
  }
  fs.writeFileSync(file, lines.join('\n') + '\n');
  return file;
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
