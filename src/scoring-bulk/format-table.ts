/**
 * `--format csv` (scores.csv) and `--format parquet` (scores.parquet): one row per scored location with
 * the columns row, the input's id column(s), latitude, longitude, one score per peril (snake_case peril
 * names) and overall. Parquet is the same table converted by DuckDB (typed: row BIGINT, ids VARCHAR,
 * coordinates and scores DOUBLE), streamed from the CSV written first.
 */
import fs from 'node:fs';
import { csvField } from './csv-scan.js';
import { sqlPath, withDuck } from './duck.js';
import { OutFile } from './out-file.js';
import { COMMA, CellMemo, copyField } from './row-text.js';
import type { FormatSink, OutputEntry, RowInfo, RunSetup } from './types.js';

export class TableSink implements FormatSink {
  readonly files: OutFile[];
  private readonly tail: CellMemo;
  private readonly columns: string[];
  private parquetRows = 0;

  private constructor(
    private readonly s: RunSetup,
    private readonly csv: OutFile,
    private readonly parquet: OutFile | null,
  ) {
    this.files = parquet ? [parquet] : [csv];
    this.tail = new CellMemo(s.grid.nCells, (cell) => {
      return `,${s.scores.get(cell).map((v) => v.toFixed(2)).join(',')}\n`;
    });
    this.columns = ['row', ...s.idIndexes.map((i) => s.header.columns[i]), 'latitude', 'longitude', ...s.perils, 'overall'];
  }

  static async create(s: RunSetup, parquet: boolean): Promise<TableSink> {
    const csv = await OutFile.create(s.outDir, parquet ? 'scores-parquet-source.csv' : 'scores.csv', s.token);
    const pq = parquet ? await OutFile.create(s.outDir, 'scores.parquet', s.token) : null;
    return new TableSink(s, csv, pq);
  }

  header(): void {
    this.csv.utf8(this.columns.map(csvField).join(',') + '\n');
  }

  row(x: RowInfo): void {
    if (x.cell < 0) return;
    const out = this.csv;
    out.int(x.row);
    for (const i of this.s.idIndexes) {
      out.byte(COMMA);
      copyField(out, x.r, i, this.s.header.delimiter);
    }
    out.latin1(`,${x.lat},${x.lng}`);
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
      const types = this.columns.map((c, k) => {
        const type = k === 0 ? 'BIGINT' : k <= this.s.idIndexes.length ? 'VARCHAR' : 'DOUBLE';
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
    return this.parquet ? [{ file: this.parquet.finalPath, rows: this.parquetRows }] : [{ file: this.csv.finalPath, rows: this.csv.rows }];
  }
}

const sqlString = (s: string) => `'${s.replaceAll("'", "''")}'`;
