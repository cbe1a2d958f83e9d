/**
 * `--format json`: scores.ndjson, one JSON object per scored location and line (NDJSON, so it streams
 * and `jq`, DuckDB read_json and pandas read_json(lines=True) read it as it grows; a single JSON array
 * could not be appended to or read before it ends):
 *   {"row":1,"PortNumber":"P1",...,"Latitude":40.71,"Longitude":-73.65,...,"scores":{"hurricane_wind":4.12,...},"overall":7.3}
 * The input's columns (keep-columns.ts) are strings as written, the coordinates the numbers we read.
 */
import { fieldText, type ScannedRow } from '../csv/scanner.js';
import { OutFile } from './out-file.js';
import { CellMemo } from './format-cells.js';
import type { FormatSink, OutputEntry, RowInfo, RunSetup } from './types.js';

export class JsonSink implements FormatSink {
  readonly files: OutFile[];
  private readonly tail: CellMemo;
  private readonly keys: Buffer[];

  private constructor(
    private readonly s: RunSetup,
    private readonly out: OutFile,
  ) {
    this.files = [out];
    this.keys = s.kept.map((c) => Buffer.from(`,${JSON.stringify(c.name)}:`));
    this.tail = new CellMemo(s.grid.nCells, (cell) => {
      const v = s.scores.get(cell);
      const scores = s.perils.map((p, k) => `${JSON.stringify(p)}:${v[k]}`);
      return `,"scores":{${scores.join(',')}},"overall":${v[s.perils.length]}}\n`;
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
    const kept = this.s.kept;
    for (let k = 0; k < kept.length; k++) {
      out.buffer(this.keys[k]);
      const c = kept[k];
      if (c.coordinate) out.latin1(String(c.coordinate === 'lat' ? x.lat : x.lng));
      else jsonString(out, x.r, c.input);
    }
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

/** A field as a JSON string: its bytes as they are when nothing needs escaping, else JSON.stringify. */
function jsonString(out: OutFile, r: ScannedRow, i: number): void {
  const b = r.buf;
  const s = r.starts[i];
  const e = r.ends[i];
  let plain = !r.quoted[i];
  for (let k = s; k < e && plain; k++) plain = b[k] >= 0x20 && b[k] !== 0x22 && b[k] !== 0x5c;
  if (!plain) {
    out.utf8(JSON.stringify(fieldText(r, i)));
    return;
  }
  out.byte(0x22);
  out.bytes(b, s, e);
  out.byte(0x22);
}
