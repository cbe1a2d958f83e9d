/**
 * One ORD table as numbers, before it becomes a file: its columns (name, stored type, how the CSV prints
 * it) and its values row by row. The CSV and the Parquet writer read the same values, so the two formats
 * hold the same rows in the same order; only the printing differs (the CSV rounds each float32 to the
 * digits Oasis prints, the Parquet file keeps the float32 itself, as Oasis's Parquet outputs do).
 */
import { f32 } from './format.js';

export interface OrdColumn {
  name: string;
  /** Oasis's oasis_int (int32) or oasis_float (float32). */
  type: 'int32' | 'float32';
  csv: (v: number) => string;
}

export interface OrdTable {
  columns: readonly OrdColumn[];
  /** Row-major: row r, column c at values[r * columns.length + c]. */
  values: number[];
}

export const intColumn = (name: string): OrdColumn => ({ name, type: 'int32', csv: String });
/** A float32 printed with C's %.<digits>f, as Oasis prints it. */
export const floatColumn = (name: string, digits: number): OrdColumn => ({
  name,
  type: 'float32',
  csv: (v) => f32(v, digits),
});

export function emptyTable(columns: readonly OrdColumn[]): OrdTable {
  return { columns, values: [] };
}

export function rowCount(t: OrdTable): number {
  return t.values.length / t.columns.length;
}

export function headerOf(t: OrdTable): string {
  return t.columns.map((c) => c.name).join(',');
}

/** The table as Oasis's CSV: header, then one line per row. */
export function csvText(t: OrdTable): string {
  const w = t.columns.length;
  const lines = [headerOf(t)];
  const cells = new Array<string>(w);
  for (let i = 0; i < t.values.length; i += w) {
    for (let c = 0; c < w; c++) cells[c] = t.columns[c].csv(t.values[i + c]);
    lines.push(cells.join(','));
  }
  return lines.join('\n') + '\n';
}
