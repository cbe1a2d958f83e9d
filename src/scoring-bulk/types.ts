/** Shared shapes of a bulk-scoring run (src/scoring-bulk/run.ts). */
import type { Horizon, Scenario } from '../domain/climate.js';
import type { HazardGrid } from '../domain/scoring/grid.js';
import type { Peril } from '../domain/scoring/perils.js';
import type { ScannedRow } from '../csv/scanner.js';
import type { InputHeader } from '../csv/header.js';
import type { KeptColumn } from './keep-columns.js';
import type { CellScores } from './format-cells.js';

export const BULK_FORMATS = ['oasis', 'csv', 'json', 'parquet', 'arrow'] as const;
export type BulkFormat = (typeof BULK_FORMATS)[number];

export type ErrorKind = 'malformed_row' | 'invalid_coordinates' | 'outside_coverage';

export interface OutputEntry {
  file: string;
  rows: number;
}

/** An output's SHA-256 and size, as manifest.json lists them. */
export interface FileDigest {
  sha256: string;
  bytes: number;
}

export interface BulkSummary {
  input: string;
  format: BulkFormat;
  scenario: Scenario;
  horizon: Horizon | null;
  perils: Peril[];
  /**
   * Data rows read (blank lines are not rows). rows = scored + errors + outside_coverage, checked at the
   * end of every run. errors.csv lists the errors and the rows outside coverage (its kind column says which).
   */
  rows: number;
  scored: number;
  /** Rows that could not be used: malformed, or unusable coordinates (errors_by_kind). */
  errors: number;
  /** Rows with usable coordinates outside the covered area (US states, DC and territories). */
  outside_coverage: number;
  errors_by_kind: Record<'malformed_row' | 'invalid_coordinates', number>;
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
  /** Input columns the csv / json / parquet tables carry (keep-columns.ts). */
  kept: KeptColumn[];
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
  /** Digests of outputs the sink already hashed while it waited on other work, by final path. */
  digests?(): Map<string, FileDigest>;
}
