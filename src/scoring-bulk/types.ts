/** Shared shapes of a bulk-scoring run (src/scoring-bulk/run.ts). */
import type { Horizon, Scenario } from '../domain/climate.js';
import type { HazardGrid } from '../domain/scoring/grid.js';
import type { Peril } from '../domain/scoring/perils.js';
import type { ScannedRow } from './csv-scan.js';
import type { InputHeader } from './input.js';
import type { CellScores } from './row-text.js';

export const BULK_FORMATS = ['oasis', 'csv', 'json', 'parquet'] as const;
export type BulkFormat = (typeof BULK_FORMATS)[number];

export type ErrorKind = 'malformed_row' | 'invalid_coordinates' | 'outside_coverage';

export interface OutputEntry {
  file: string;
  rows: number;
}

export interface BulkSummary {
  input: string;
  format: BulkFormat;
  scenario: Scenario;
  horizon: Horizon | null;
  perils: Peril[];
  /** Data rows read (blank lines are not rows). rows = scored + errors. */
  rows: number;
  scored: number;
  errors: number;
  errors_by_kind: Record<ErrorKind, number>;
  outputs: OutputEntry[];
  seconds: number;
}

/** What a format needs to know about the run. */
export interface RunSetup {
  header: InputHeader;
  grid: HazardGrid;
  /** Per-cell scores of `perils`, then overall. */
  scores: CellScores;
  perils: Peril[];
  scenarioLabel: string;
  modelVersion: string;
  /** Input columns that identify a row: the OED (PortNumber, AccNumber, LocNumber) or one id column. */
  idIndexes: number[];
  outDir: string;
  token: string;
}

/** A row whose coordinates parsed and are in range; cell is -1 outside the covered area. */
export interface RowInfo {
  r: ScannedRow;
  row: number;
  lat: number;
  lng: number;
  cell: number;
}

export interface FormatSink {
  /** Temporary outputs, committed (renamed) together when the run succeeds. */
  readonly files: { commit(): Promise<void> }[];
  header(): void;
  row(x: RowInfo): void;
  /** A row left out for malformed or unusable coordinates (row = its 1-based data-row number). */
  skip?(row: number): void;
  /** Hands the bytes of the rows so far to the OS (between input chunks). */
  drain(): Promise<void>;
  /** After the last row: flush, then any post-processing (Oasis keys, Parquet conversion). */
  finish(): Promise<void>;
  /** A failed run: remove every temporary file, side files included. */
  discard(): Promise<void>;
  outputs(): OutputEntry[];
}
