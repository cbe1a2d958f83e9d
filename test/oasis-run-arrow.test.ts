/**
 * `catintel oasis run --ord-format arrow` on PiWind with 10 samples: every ORD table as an Arrow IPC file
 * (read back with apache-arrow) with the columns and types of the Parquet run (int32, float32; summary-info
 * int64, string, double), holding exactly the float32 values the Parquet run holds, row for row.
 */
import fs from 'node:fs';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { tableFromIPC } from 'apache-arrow';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli, tempDir } from './helpers/cli.js';
import { sharedData } from './helpers/paths.js';

const PIWIND = sharedData('oasis_piwind');
const MODEL = path.join(PIWIND, 'model_data');
const INPUT = path.join(PIWIND, 'expected_all_outputs', 'input');

let pqDir: string;
let arrowDir: string;
beforeAll(async () => {
  const s = JSON.parse(
    fs.readFileSync(path.join(PIWIND, 'expected_all_outputs', 'output', 'analysis_settings.json'), 'utf8'),
  );
  s.number_of_samples = 10;
  const file = path.join(tempDir('catintel-arrow-settings-'), 'analysis_settings.json');
  fs.writeFileSync(file, JSON.stringify(s));
  pqDir = tempDir('catintel-oasis-parquet-');
  arrowDir = tempDir('catintel-oasis-arrow-');
  for (const [out, format] of [
    [pqDir, 'parquet'],
    [arrowDir, 'arrow'],
  ]) {
    const r = await cli([
      'oasis',
      'run',
      '--model',
      MODEL,
      '--input',
      INPUT,
      '--out',
      out,
      '--settings',
      file,
      '--ord-format',
      format,
      '--json',
    ]);
    expect(r.code, r.stderr).toBe(0);
  }
}, 300_000);

const DUCK_TYPE: Record<string, string> = {
  Int32: 'INTEGER',
  Float32: 'FLOAT',
  Int64: 'BIGINT',
  Utf8: 'VARCHAR',
  Float64: 'DOUBLE',
};

describe('catintel oasis run --ord-format arrow on PiWind (10 samples)', () => {
  it('writes every table the Parquet run writes, as <name>.arrow with the same columns, types and values', async () => {
    const parquet = fs
      .readdirSync(pqDir)
      .filter((f) => f.endsWith('.parquet'))
      .sort();
    expect(parquet.length).toBe(20);
    const arrow = fs
      .readdirSync(arrowDir)
      .filter((f) => f !== 'manifest.json')
      .sort();
    expect(arrow).toEqual(parquet.map((f) => f.replace(/\.parquet$/, '.arrow')));
    const manifest = JSON.parse(fs.readFileSync(path.join(arrowDir, 'manifest.json'), 'utf8'));
    expect(manifest.ord_format).toBe('arrow');
    const instance = await DuckDBInstance.create(':memory:');
    const conn = await instance.connect();
    try {
      for (const f of parquet) {
        const file = path.join(pqDir, f).replaceAll("'", "''");
        const described = (await conn.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet('${file}')`))
          .getRowObjects()
          .map((c) => `${c.column_name} ${c.column_type}`);
        const want = (await conn.runAndReadAll(`SELECT * FROM read_parquet('${file}')`)).getRows();
        const t = tableFromIPC(fs.readFileSync(path.join(arrowDir, f.replace(/\.parquet$/, '.arrow'))));
        expect(
          t.schema.fields.map((x) => `${x.name} ${DUCK_TYPE[x.type.toString()]}`),
          f,
        ).toEqual(described);
        expect(t.numRows, f).toBe(want.length);
        expect(
          manifest.outputs.find((o: { file: string }) => o.file === f.replace(/\.parquet$/, '.arrow')).rows,
          f,
        ).toBe(want.length);
        const rows = t.toArray().map((r) => t.schema.fields.map((x) => r[x.name]));
        const norm = (v: unknown) => (typeof v === 'bigint' ? Number(v) : v);
        rows.forEach((row, i) => expect(row.map(norm), `${f} row ${i + 1}`).toEqual(want[i].map(norm)));
      }
    } finally {
      conn.closeSync();
      instance.closeSync();
    }
  });

  it('names arrow among the formats when a format is refused', async () => {
    const r = await cli([
      'oasis',
      'run',
      '--model',
      MODEL,
      '--input',
      INPUT,
      '--out',
      tempDir('catintel-oasis-'),
      '--ord-format',
      'xlsx',
    ]);
    expect(r.stderr).toMatch(/--ord-format xlsx is not supported; use csv, parquet or arrow/);
  });
});
