/**
 * The CSV files the reinsurance generator reads: OED ri_info, ri_scope, location and account files,
 * and the direct Oasis files' fm_summary_map and fm_xref. Rows come back as text by column name; OED
 * column names are matched without regard to case and given their OED spelling.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { CatintelError } from '../../errors.js';
import type { CsvRecord } from './domain/treaties.js';

/** OED names the generator reads, so 'reinsnumber' or 'REINSNUMBER' reads as ReinsNumber. */
const OED_NAMES = [
  'ReinsNumber',
  'ReinsName',
  'ReinsLayerNumber',
  'ReinsPeril',
  'ReinsInceptionDate',
  'ReinsExpiryDate',
  'CededPercent',
  'RiskLimit',
  'RiskAttachment',
  'OccLimit',
  'OccAttachment',
  'OccFranchiseDed',
  'OccReverseFranchise',
  'AggLimit',
  'AggAttachment',
  'AggPeriod',
  'PlacedPercent',
  'ReinsCurrency',
  'InuringPriority',
  'ReinsType',
  'AttachmentBasis',
  'Reinstatement',
  'ReinstatementCharge',
  'ReinsPremium',
  'DeemedPercentPlaced',
  'ReinsFXrate',
  'TreatyShare',
  'UseReinsDates',
  'RiskLevel',
  'OEDVersion',
  'OriginalCurrency',
  'RateOfExchange',
  'PortNumber',
  'AccNumber',
  'PolNumber',
  'LocGroup',
  'LocNumber',
  'CedantName',
  'ProducerName',
  'LOB',
  'CountryCode',
  'ReinsTag',
  'LocCurrency',
  'AccCurrency',
  'PolInceptionDate',
];
const CANONICAL = new Map(OED_NAMES.map((n) => [n.toLowerCase(), n]));

export function readCsvRecords(file: string, what: string): CsvRecord[] {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    throw new CatintelError(
      'invalid_input',
      `${what} ${path.basename(file)} cannot be read in ${path.dirname(file)}; check the path`,
    );
  }
  try {
    return parse(text, {
      bom: true,
      columns: (header: string[]) => header.map((h) => CANONICAL.get(h.trim().toLowerCase()) ?? h.trim()),
      skip_empty_lines: true,
      relax_column_count: false,
    }) as CsvRecord[];
  } catch (e) {
    throw new CatintelError(
      'invalid_input',
      `${what} ${path.basename(file)} is not valid CSV (${(e as Error).message}); fix the file`,
    );
  }
}
