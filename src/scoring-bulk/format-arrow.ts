/**
 * `--format arrow`: scores.arrow, an Arrow IPC file (pyarrow.ipc.open_file, pandas.read_feather,
 * polars.read_ipc) with the columns and names of scores.csv and the types of scores.parquet: row int64,
 * the input's columns utf8 (an empty field is null, as in Parquet), the coordinates and scores float64.
 * Scores carry the two decimals scores.csv prints, so every typed output holds the same numbers.
 *
 * Rows are written as one record batch per input chunk (a few tens of thousands of rows): the columns of
 * that chunk are built straight from the input bytes, handed to the file, and dropped, so memory stays
 * flat however many rows the portfolio has. The file's footer, which lists the batches, is written at
 * the end; the whole file is committed with the run's other outputs, like every format.
 */
import {
  AsyncByteQueue,
  Field,
  Float64,
  Int64,
  RecordBatch,
  RecordBatchFileWriter,
  Schema,
  Struct,
  Utf8,
  makeData,
  type Data,
  type DataType,
} from 'apache-arrow';
import { fieldText } from '../csv/scanner.js';
import { OutFile } from './out-file.js';
import type { FormatSink, OutputEntry, RowInfo, RunSetup } from './types.js';

/** The bytes the Arrow writer emits go straight into the output file's buffers (which drain() writes). */
class OutFileQueue extends AsyncByteQueue {
  constructor(private readonly out: OutFile) {
    super();
  }
  override write(value: ArrayBufferView | ArrayBuffer | string): void {
    const bytes =
      typeof value === 'string'
        ? Buffer.from(value)
        : ArrayBuffer.isView(value)
          ? Buffer.from(value.buffer, value.byteOffset, value.byteLength)
          : Buffer.from(value);
    this.out.buffer(bytes);
  }
}

/** A growable column of UTF-8 strings with nulls, built from input bytes without making JS strings. */
class Utf8Column {
  private offsets: Int32Array = new Int32Array(1024);
  private bytes = Buffer.allocUnsafe(64 * 1024);
  private valid: Uint8Array = new Uint8Array(128);
  length = 0;
  nulls = 0;

  push(src: Buffer, start: number, end: number): void {
    const n = this.length;
    if (n + 2 > this.offsets.length) this.offsets = growInt32(this.offsets, (n + 2) * 2);
    if ((n >> 3) + 1 > this.valid.length) {
      const v = new Uint8Array(this.valid.length * 2);
      v.set(this.valid);
      this.valid = v;
    }
    const at = this.offsets[n];
    const len = end - start;
    if (len === 0) {
      this.nulls++;
      this.valid[n >> 3] &= ~(1 << (n & 7));
    } else {
      if (at + len > this.bytes.length) {
        const b = Buffer.allocUnsafe(Math.max(this.bytes.length * 2, at + len));
        this.bytes.copy(b, 0, 0, at);
        this.bytes = b;
      }
      if (len <= 32) {
        // A short field: a byte loop is cheaper than the native copy call (most portfolio fields are short).
        const dst = this.bytes;
        for (let k = 0; k < len; k++) dst[at + k] = src[start + k];
      } else src.copy(this.bytes, at, start, end);
      this.valid[n >> 3] |= 1 << (n & 7);
    }
    this.offsets[n + 1] = at + len;
    this.length = n + 1;
  }

  take(): Data {
    const n = this.length;
    const data = makeData({
      type: new Utf8(),
      length: n,
      nullCount: this.nulls,
      nullBitmap: this.nulls ? this.valid.slice(0, (n + 7) >> 3) : null,
      valueOffsets: this.offsets.slice(0, n + 1),
      data: new Uint8Array(this.bytes.subarray(0, this.offsets[n])),
    });
    this.offsets[0] = 0;
    this.valid.fill(0);
    this.length = 0;
    this.nulls = 0;
    return data;
  }
}

/** A growable column of float64. */
class Float64Column {
  private values: Float64Array = new Float64Array(1024);
  length = 0;
  push(v: number): void {
    if (this.length === this.values.length) {
      const v = new Float64Array(this.length * 2);
      v.set(this.values);
      this.values = v;
    }
    this.values[this.length++] = v;
  }
  take(): Data {
    const data = makeData({ type: new Float64(), length: this.length, data: this.values.slice(0, this.length) });
    this.length = 0;
    return data;
  }
}

/** A growable column of int64 row numbers (below 2^31, so the high word of each value stays 0). */
class RowColumn {
  private words: Int32Array = new Int32Array(2048);
  length = 0;
  push(v: number): void {
    if (this.length * 2 === this.words.length) this.words = growInt32(this.words, this.words.length * 2);
    this.words[this.length * 2] = v; // little-endian: the low word first
    this.length++;
  }
  take(): Data {
    const n = this.length;
    const data = makeData({ type: new Int64(), length: n, data: new BigInt64Array(this.words.slice(0, n * 2).buffer) });
    this.words.fill(0);
    this.length = 0;
    return data;
  }
}

function growInt32(a: Int32Array, size: number): Int32Array {
  const b = new Int32Array(size);
  b.set(a);
  return b;
}

export class ArrowSink implements FormatSink {
  readonly files: OutFile[];
  private readonly schema: Schema;
  private readonly writer: RecordBatchFileWriter;
  private readonly rowCol = new RowColumn();
  private readonly kept: (Utf8Column | Float64Column)[];
  private readonly scoreCols: Float64Column[];
  /** Per cell: its scores rounded to the two decimals scores.csv prints, computed once per cell. */
  private readonly rounded: (Float64Array | undefined)[];

  private constructor(
    private readonly s: RunSetup,
    private readonly out: OutFile,
  ) {
    this.files = [out];
    const fields: Field[] = [
      new Field('row', new Int64(), false),
      ...s.kept.map((c) =>
        c.coordinate ? new Field(c.name, new Float64(), false) : new Field(c.name, new Utf8(), true),
      ),
      ...[...s.perils, 'overall'].map((p) => new Field(p, new Float64(), false)),
    ];
    this.schema = new Schema(
      fields,
      new Map([
        ['catintel:scenario', s.scenarioLabel],
        ['catintel:model_version', s.modelVersion],
      ]),
    );
    this.kept = s.kept.map((c) => (c.coordinate ? new Float64Column() : new Utf8Column()));
    this.scoreCols = [...s.perils, 'overall'].map(() => new Float64Column());
    this.rounded = new Array(s.grid.nCells);
    this.writer = new RecordBatchFileWriter();
    this.writer.reset(new OutFileQueue(out), this.schema);
  }

  static async create(s: RunSetup): Promise<ArrowSink> {
    return new ArrowSink(s, await OutFile.create(s.outDir, 'scores.arrow', s.token));
  }

  header(): void {}

  row(x: RowInfo): void {
    if (x.cell < 0) return;
    this.rowCol.push(x.row);
    const kept = this.s.kept;
    const r = x.r;
    for (let k = 0; k < kept.length; k++) {
      const c = kept[k];
      const col = this.kept[k];
      if (c.coordinate) (col as Float64Column).push(c.coordinate === 'lat' ? x.lat : x.lng);
      else if (r.quoted[c.input] === 1) {
        const text = Buffer.from(fieldText(r, c.input));
        (col as Utf8Column).push(text, 0, text.length);
      } else (col as Utf8Column).push(r.buf, r.starts[c.input], r.ends[c.input]);
    }
    let v = this.rounded[x.cell];
    if (v === undefined)
      v = this.rounded[x.cell] = Float64Array.from(this.s.scores.get(x.cell), (n) => Number(n.toFixed(2)));
    for (let k = 0; k < v.length; k++) this.scoreCols[k].push(v[k]);
    this.out.rows++;
  }

  /** Writes the rows of the chunk just read as one record batch. */
  private flushBatch(): void {
    const n = this.rowCol.length;
    if (n === 0) return;
    const children = [this.rowCol.take(), ...this.kept.map((c) => c.take()), ...this.scoreCols.map((c) => c.take())];
    const struct = makeData({
      type: new Struct(this.schema.fields),
      length: n,
      nullCount: 0,
      children: children as Data<DataType>[],
    });
    this.writer.write(new RecordBatch(this.schema, struct));
  }

  async drain(): Promise<void> {
    this.flushBatch();
    await this.out.drain();
  }

  async finish(): Promise<void> {
    this.flushBatch();
    this.writer.finish(); // the footer (schema and batch offsets); an empty run is a valid file with no batches
    await this.out.close();
  }

  async discard(): Promise<void> {
    await this.out.discard();
  }

  outputs(): OutputEntry[] {
    return [{ file: this.out.finalPath, rows: this.out.rows }];
  }
}
