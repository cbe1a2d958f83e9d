/**
 * ORD tables as Arrow IPC files (`oasis run --ord-format arrow`): the same names and columns as the CSV
 * and Parquet outputs, with the Parquet layout's types (Oasis's oasis_int as int32, oasis_float as
 * float32, the float32 itself and not the digits the CSV prints), so pandas.read_feather and
 * polars.read_ipc read the numbers Oasis computed. A table is small (one row per summary, event or
 * return period), so it is built whole and written in one batch.
 */
import fs from 'node:fs';
import {
  Field,
  Float32,
  Float64,
  Int32,
  Int64,
  RecordBatch,
  Schema,
  Struct,
  Table,
  Utf8,
  makeData,
  tableToIPC,
  type Data,
} from 'apache-arrow';
import type { OrdTable } from '../domain/ord-table.js';

export function ordTableArrow(t: OrdTable): Uint8Array {
  const w = t.columns.length;
  const n = t.values.length / w;
  const fields = t.columns.map((c) => new Field(c.name, c.type === 'int32' ? new Int32() : new Float32(), false));
  const children: Data[] = t.columns.map((c, k) => {
    const data = c.type === 'int32' ? new Int32Array(n) : new Float32Array(n);
    for (let r = 0; r < n; r++) data[r] = t.values[r * w + k];
    return makeData({ type: fields[k].type, length: n, nullCount: 0, data } as never);
  });
  return ipcFile(fields, children, n);
}

/** summary-info: summary_id int64, _not_set_ utf8, tiv float64, as oasislmf writes it through pandas. */
export function summaryInfoArrow(totalTiv: number): Uint8Array {
  const fields = [
    new Field('summary_id', new Int64(), false),
    new Field('_not_set_', new Utf8(), false),
    new Field('tiv', new Float64(), false),
  ];
  const text = Buffer.from('All-Risks');
  const children = [
    makeData({ type: new Int64(), length: 1, nullCount: 0, data: BigInt64Array.of(1n) }),
    makeData({
      type: new Utf8(),
      length: 1,
      nullCount: 0,
      valueOffsets: Int32Array.of(0, text.length),
      data: new Uint8Array(text),
    }),
    makeData({ type: new Float64(), length: 1, nullCount: 0, data: Float64Array.of(totalTiv) }),
  ];
  return ipcFile(fields, children, 1);
}

function ipcFile(fields: Field[], children: Data[], n: number): Uint8Array {
  const schema = new Schema(fields);
  const struct = makeData({ type: new Struct(fields), length: n, nullCount: 0, children });
  return tableToIPC(new Table(schema, [new RecordBatch(schema, struct)]), 'file');
}

export async function writeArrowFile(file: string, bytes: Uint8Array): Promise<void> {
  await fs.promises.writeFile(file, bytes);
}
