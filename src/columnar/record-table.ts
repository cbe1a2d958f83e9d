/**
 * A table of plain JSON records (one object per row) as Arrow, for the answers that are tables but not
 * event pages: the EP curve, portfolio exposure. The columns keep the JSON's names and get real types:
 * text as utf8, ISO times as timestamp[ms, UTC], whole numbers as int64, other numbers as float64, money as
 * float64 with the currency in the field's metadata (`currency`), every column nullable (a missing or null
 * value is null). What describes the whole answer (its id, perspective, AAL ...) goes into the schema's
 * metadata, as text.
 */
import { Field, Int64, RecordBatch, Schema, Struct, Table, makeData, type Data, type DataType } from 'apache-arrow';
import { Bool, Float64, TimestampMillisecond, Utf8 } from 'apache-arrow';
import { boolData, float64Data, timestampData, utf8Data } from './column-data.js';

export type ColumnKind = 'text' | 'time' | 'int' | 'float' | 'money' | 'bool';

export interface RecordColumn {
  name: string;
  kind: ColumnKind;
}

function int64Data(values: unknown[]): Data {
  const n = values.length;
  let nulls = 0;
  const bitmap = new Uint8Array((n + 7) >> 3);
  const data = new BigInt64Array(n);
  for (let i = 0; i < n; i++) {
    const v = values[i];
    if (typeof v === 'number' && Number.isInteger(v)) {
      data[i] = BigInt(v);
      bitmap[i >> 3] |= 1 << (i & 7);
    } else nulls++;
  }
  return makeData({ type: new Int64(), length: n, nullCount: nulls, nullBitmap: nulls ? bitmap : null, data });
}

const TYPE_OF: Record<ColumnKind, () => DataType> = {
  text: () => new Utf8(),
  time: () => new TimestampMillisecond('UTC'),
  int: () => new Int64(),
  float: () => new Float64(),
  money: () => new Float64(),
  bool: () => new Bool(),
};

const DATA_OF: Record<ColumnKind, (values: unknown[]) => Data> = {
  text: utf8Data,
  time: timestampData,
  int: int64Data,
  float: float64Data,
  money: float64Data,
  bool: boolData,
};

/**
 * `currency`: the ISO 4217 code of the money columns (null when the answer mixes currencies: the field
 * then says `currency: mixed`, as the JSON's CurCd is null; undefined when the answer holds no money in any
 * currency: the field then has no `currency`).
 */
export function recordTable(
  columns: readonly RecordColumn[],
  rows: readonly object[],
  currency: string | null | undefined,
  metadata: Record<string, string | number | null | undefined> = {},
): Table {
  const fields = columns.map(
    (c) =>
      new Field(
        c.name,
        TYPE_OF[c.kind](),
        true,
        c.kind === 'money' && currency !== undefined ? new Map([['currency', currency ?? 'mixed']]) : undefined,
      ),
  );
  const children = columns.map((c) => DATA_OF[c.kind](rows.map((r) => (r as Record<string, unknown>)[c.name])));
  const meta = new Map<string, string>();
  for (const [k, v] of Object.entries(metadata)) if (v !== null && v !== undefined) meta.set(k, String(v));
  const schema = new Schema(fields, meta);
  const struct = makeData({ type: new Struct(fields), length: rows.length, nullCount: 0, children });
  return new Table(schema, [new RecordBatch(schema, struct)]);
}
