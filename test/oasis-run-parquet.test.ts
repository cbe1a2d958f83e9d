/**
 * `catintel oasis run --ord-format parquet` on PiWind with 10 samples: every ORD table as a Parquet file
 * with the columns and types oasislmf 2.5.8 writes (fixtures/oasislmf-ord-parquet-2.5.8.json, recorded
 * from oasislmf's own Parquet run), holding row for row what the CSV run writes. The comparison with
 * oasislmf's Parquet values is in scripts/conformance-oasislmf.sh.
 */
import fs from 'node:fs';
import path from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, tempDir } from './helpers/cli.js';
import { FIXTURES, sharedData } from './helpers/paths.js';

const PIWIND = sharedData('oasis_piwind');
const MODEL = path.join(PIWIND, 'model_data');
const INPUT = path.join(PIWIND, 'expected_all_outputs', 'input');
const OASISLMF = JSON.parse(fs.readFileSync(path.join(FIXTURES, 'oasislmf-ord-parquet-2.5.8.json'), 'utf8'))
  .tables as Record<string, string[]>;

/** PiWind's settings with 10 samples (the sampled tables: QELT, QPLT, PSEPT, EPCalc 2-4), plus `ordOutput`. */
function settings(ordOutput: Record<string, unknown> = {}): string {
  const s = JSON.parse(
    fs.readFileSync(path.join(PIWIND, 'expected_all_outputs', 'output', 'analysis_settings.json'), 'utf8'),
  );
  s.number_of_samples = 10;
  for (const x of [...s.gul_summaries, ...s.il_summaries]) Object.assign(x.ord_output, ordOutput);
  const file = path.join(tempDir('catintel-parquet-settings-'), 'analysis_settings.json');
  fs.writeFileSync(file, JSON.stringify(s));
  return file;
}

let csvDir: string;
let pqDir: string;
let conn: DuckDBConnection;
let instance: DuckDBInstance;

beforeAll(async () => {
  csvDir = tempDir('catintel-oasis-csv-');
  pqDir = tempDir('catintel-oasis-parquet-');
  const file = settings();
  for (const [out, format] of [
    [csvDir, 'csv'],
    [pqDir, 'parquet'],
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
  instance = await DuckDBInstance.create(':memory:');
  conn = await instance.connect();
});

afterAll(() => {
  conn?.closeSync();
  instance?.closeSync();
});

const csvFiles = () =>
  fs
    .readdirSync(csvDir)
    .filter((f) => f.endsWith('.csv'))
    .sort();
const parquetOf = (csv: string) => path.join(pqDir, csv.replace(/\.csv$/, '.parquet'));

async function parquetRows(file: string): Promise<unknown[][]> {
  return (
    await conn.runAndReadAll(`SELECT * FROM read_parquet('${file.replaceAll("'", "''")}')`)
  ).getRows() as unknown[][];
}

/** A value read back from Parquet, printed as the CSV prints its cell (the same digits; nan; Python's 3400000.0). */
function printed(v: unknown, csvCell: string): string {
  if (typeof v === 'bigint' || typeof v === 'string') return String(v);
  const n = v as number;
  if (Number.isNaN(n)) return 'nan';
  if (/^-?\d+$/.test(csvCell)) return String(n);
  if (/^-?\d+\.0$/.test(csvCell) && Number.isInteger(n)) return `${n}.0`;
  const s = n.toFixed(csvCell.split('.')[1]?.length ?? 0);
  return /^-0\.?0*$/.test(s) ? s.slice(1) : s;
}

describe('catintel oasis run --ord-format parquet on PiWind (10 samples)', () => {
  it('writes every table the CSV run writes, as <name>.parquet, and lists them in the manifest with their rows', () => {
    const csv = csvFiles();
    expect(csv.length).toBe(20);
    const pq = fs
      .readdirSync(pqDir)
      .filter((f) => f !== 'manifest.json')
      .sort();
    expect(pq).toEqual(csv.map((f) => f.replace(/\.csv$/, '.parquet')));
    const manifest = JSON.parse(fs.readFileSync(path.join(pqDir, 'manifest.json'), 'utf8'));
    expect(manifest.ord_format).toBe('parquet');
    const csvManifest = JSON.parse(fs.readFileSync(path.join(csvDir, 'manifest.json'), 'utf8'));
    const rows = (m: any) =>
      Object.fromEntries(m.outputs.map((o: any) => [o.file.replace(/\.(csv|parquet)$/, ''), o.rows]));
    expect(rows(manifest)).toEqual(rows(csvManifest));
  });

  it("each file has oasislmf 2.5.8's columns and types (int32, float32; summary-info int64, string, double)", async () => {
    for (const f of csvFiles()) {
      const table = f.replace(/^(gul|il)_S1_/, '').replace(/\.csv$/, '');
      const described = (
        await conn.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet('${parquetOf(f)}')`)
      ).getRowObjects();
      expect(
        described.map((c) => `${c.column_name} ${c.column_type}`),
        f,
      ).toEqual(OASISLMF[table]);
    }
  });

  it('each file read back holds the CSV rows, in the same order, each value printed as the CSV prints it', async () => {
    for (const f of csvFiles()) {
      const lines = fs.readFileSync(path.join(csvDir, f), 'utf8').trim().split('\n').slice(1);
      const rows = await parquetRows(parquetOf(f));
      expect(rows.length, f).toBe(lines.length);
      const differing: string[] = [];
      rows.forEach((row, i) => {
        const cells = lines[i].split(',');
        const back = row.map((v, c) => printed(v, cells[c])).join(',');
        if (back !== lines[i] && differing.length < 3)
          differing.push(`${f} row ${i + 1}: csv ${lines[i]} parquet ${back}`);
      });
      expect(differing).toEqual([]);
    }
  });

  it('keeps the float32 itself, not the CSV rounding: a PLT loss printed to cents has more digits in Parquet', async () => {
    const rows = await parquetRows(parquetOf('gul_S1_splt.csv'));
    const losses = rows.map((r) => r[10] as number);
    expect(losses.every((x) => Math.fround(x) === x)).toBe(true);
    expect(losses.some((x) => Math.round(x * 100) / 100 !== x)).toBe(true);
  });
});

describe('catintel oasis run: choosing the format', () => {
  it("without --ord-format a summary's ord_output parquet_format asks for Parquet, as in oasislmf; --ord-format csv overrides it", async () => {
    const file = settings({ parquet_format: true });
    const bySettings = tempDir('catintel-oasis-');
    const forced = tempDir('catintel-oasis-');
    expect(
      (await cli(['oasis', 'run', '--model', MODEL, '--input', INPUT, '--out', bySettings, '--settings', file])).code,
    ).toBe(0);
    expect(
      (
        await cli([
          'oasis',
          'run',
          '--model',
          MODEL,
          '--input',
          INPUT,
          '--out',
          forced,
          '--settings',
          file,
          '--ord-format',
          'csv',
        ])
      ).code,
    ).toBe(0);
    expect(fs.readdirSync(bySettings).filter((f) => f.endsWith('.parquet')).length).toBe(20);
    expect(fs.readdirSync(forced).filter((f) => f.endsWith('.csv')).length).toBe(20);
  });

  it('an unknown format is refused with exit 2, naming it and the choices', async () => {
    const r = await cli([
      'oasis',
      'run',
      '--model',
      MODEL,
      '--input',
      INPUT,
      '--out',
      tempDir(),
      '--ord-format',
      'xlsx',
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--ord-format xlsx is not supported; use csv, parquet or arrow/);
  });
});
