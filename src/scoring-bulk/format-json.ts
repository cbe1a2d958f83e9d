/**
 * `--format json`: scores.ndjson, one JSON object per scored location and line (NDJSON, so it streams
 * and `jq`, DuckDB read_json and pandas read_json(lines=True) read it as it grows; a single JSON array
 * could not be appended to or read before it ends):
 *   {"row":1,"PortNumber":"P1",...,"latitude":40.71,"longitude":-73.65,"scores":{"hurricane_wind":4.12,...},"overall":7.3}
 */
import { fieldText } from './csv-scan.js';
import { OutFile } from './out-file.js';
import { CellMemo, overallScore } from './row-text.js';
import type { FormatSink, OutputEntry, RowInfo, RunSetup } from './types.js';

export class JsonSink implements FormatSink {
  readonly files: OutFile[];
  private readonly tail: CellMemo;
  private readonly idKeys: string[];

  private constructor(
    private readonly s: RunSetup,
    private readonly out: OutFile,
  ) {
    this.files = [out];
    this.idKeys = s.idIndexes.map((i) => `,${JSON.stringify(s.header.columns[i])}:`);
    this.tail = new CellMemo(s.grid.nCells, (cell) => {
      const scores = s.perils.map((p) => `${JSON.stringify(p)}:${s.table[p][cell]}`);
      return `,"scores":{${scores.join(',')}},"overall":${overallScore(s.table, s.perils, cell)}}\n`;
    });
  }

  static async create(s: RunSetup): Promise<JsonSink> {
    return new JsonSink(s, await OutFile.create(s.outDir, 'scores.ndjson', s.token));
  }

  header(): void {}

  row(x: RowInfo): void {
    if (x.cell < 0) return;
    const out = this.out;
    out.latin1('{"row":');
    out.int(x.row);
    this.s.idIndexes.forEach((i, k) => {
      out.utf8(this.idKeys[k]);
      out.utf8(JSON.stringify(fieldText(x.r, i)));
    });
    out.latin1(`,"latitude":${x.lat},"longitude":${x.lng}`);
    out.buffer(this.tail.get(x.cell));
    out.rows++;
  }

  async drain(): Promise<void> {
    await this.out.drain();
  }

  async finish(): Promise<void> {
    await this.out.close();
  }

  async discard(): Promise<void> {
    await this.out.discard();
  }

  outputs(): OutputEntry[] {
    return [{ file: this.out.finalPath, rows: this.out.rows }];
  }
}
