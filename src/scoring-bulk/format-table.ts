/**
 * `--format csv` (scores.csv) and `--format parquet` (scores.parquet): one row per scored location with
 * the columns row, the input's columns (keep-columns.ts: all of them, or the id column(s), latitude and
 * longitude), one score per peril (snake_case peril names) and overall. Parquet is the same table converted
 * by DuckDB (typed: row BIGINT, input columns VARCHAR, coordinates and scores DOUBLE), streamed from the
 * CSV written first. In scores.csv a text cell that a spreadsheet would run as a formula is written as
 * `'=...` (src/lib/csv-cell.ts); Parquet keeps the values as read.
 */
import fs from 'node:fs';
import { csvTextCell } from '../lib/csv-cell.js';
import { csvField } from '../csv/scanner.js';
import { sqlPath, withDuck } from './scratch-duckdb.js';
import { OutFile } from './out-file.js';
import { KeptWriter } from './keep-columns.js';
import { CellMemo } from './format-cells.js';
import type { FormatSink, OutputEntry, RowInfo, RunSetup } from './types.js';

export class TableSink implements FormatSink {
  readonly files: OutFile[];
  private readonly tail: CellMemo;
  private readonly columns: string[];
  private readonly kept: KeptWriter;
  private parquetRows = 0;

  private constructor(
    private readonly s: RunSetup,
    private readonly csv: OutFile,
    private readonly parquet: OutFile | null,
  ) {
    this.files = parquet ? [parquet] : [csv];
    this.tail = new CellMemo(s.grid.nCells, (cell) => {
      return `,${s.scores
        .get(cell)
        .map((v) => v.toFixed(2))
        .join(',')}\n`;
    });
    this.columns = ['row', ...s.kept.map((c) => c.name), ...s.perils, 'overall'];
    // Parquet is typed data, not a spreadsheet: its values stay exactly as read.
    this.kept = new KeptWriter(s.kept, s.header.delimiter, parquet === null);
  }

  static async create(s: RunSetup, parquet: boolean): Promise<TableSink> {
    const csv = await OutFile.create(s.outDir, parquet ? 'scores-parquet-source.csv' : 'scores.csv', s.token);
    const pq = parquet ? await OutFile.create(s.outDir, 'scores.parquet', s.token) : null;
    return new TableSink(s, csv, pq);
  }

  header(): void {
    this.csv.utf8(this.columns.map(this.parquet ? csvField : csvTextCell).join(',') + '\n');
  }

  row(x: RowInfo): void {
    if (x.cell < 0) return;
    const out = this.csv;
    out.int(x.row);
    this.kept.write(out, x.r, x.lat, x.lng);
    out.buffer(this.tail.get(x.cell));
    out.rows++;
  }

  async drain(): Promise<void> {
    await this.csv.drain();
  }

  async finish(): Promise<void> {
    await this.csv.close();
    if (!this.parquet) return;
    await this.parquet.close();
    try {
      const kept = this.s.kept;
      const types = this.columns.map((c, k) => {
        const type = k === 0 ? 'BIGINT' : k <= kept.length && !kept[k - 1].coordinate ? 'VARCHAR' : 'DOUBLE';
        return `${sqlString(c)}: '${type}'`;
      });
      const pq = this.parquet;
      this.parquetRows = await withDuck(this.s.outDir, this.s.token, (d) =>
        d.run(`COPY (SELECT * FROM read_csv(${sqlPath(this.csv.tempPath)}, header = true, auto_detect = false, delim = ',', quote = '"', escape = '"',
          columns = {${types.join(', ')}})) TO ${sqlPath(pq.tempPath)} (FORMAT parquet, COMPRESSION zstd)`),
      );
    } finally {
      await fs.promises.rm(this.csv.tempPath, { force: true });
    }
  }

  async discard(): Promise<void> {
    await Promise.all([this.csv.discard(), this.parquet?.discard()]);
  }

  outputs(): OutputEntry[] {
    return this.parquet
      ? [{ file: this.parquet.finalPath, rows: this.parquetRows }]
      : [{ file: this.csv.finalPath, rows: this.csv.rows }];
  }
}

const sqlString = (s: string) => `'${s.replaceAll("'", "''")}'`;
