/**
 * `catintel score --format arrow`: a seeded US portfolio (with a quoted name holding a comma and an empty
 * field) in, scores.arrow read back with apache-arrow as a data scientist's tools would read it: the rows,
 * the field names and types, and every value equal to the same run's scores.csv.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { tableFromIPC, Type } from 'apache-arrow';
import { beforeAll, describe, expect, it } from 'vitest';
import { usPortfolioCsv } from '../scripts/make-us-portfolio.js';
import { PERILS } from '../src/domain/scoring/perils.js';
import { scoreCsv } from '../src/scoring-bulk/run.js';
import { cli, tempDir } from './helpers/cli.js';

const read = (file: string) => parse(fs.readFileSync(file), { columns: true }) as Record<string, string>[];

let dir: string;
let portfolio: string;
beforeAll(() => {
  dir = tempDir('catintel-score-arrow-');
  portfolio = path.join(dir, 'us.csv');
  const lines = [...usPortfolioCsv({ rows: 500, seed: 7 })].join('').split('\n');
  const header = lines[0].split(',');
  // Two more rows a real file holds: a quoted field with a comma in it, and an empty field.
  const extra = (over: Record<string, string>) => header.map((h) => over[h] ?? '').join(',');
  lines.splice(
    lines.length - 1,
    0,
    extra({
      PortNumber: '"P, quoted"',
      AccNumber: 'A9',
      LocNumber: 'Q1',
      Latitude: '25.77',
      Longitude: '-80.19',
      CountryCode: 'US',
      LocPerilsCovered: 'AA1',
      BuildingTIV: '100000',
    }),
    extra({
      PortNumber: 'P9',
      AccNumber: 'A9',
      LocNumber: 'E1',
      Latitude: '29.95',
      Longitude: '-90.07',
      CountryCode: 'US',
      LocPerilsCovered: '',
      BuildingTIV: '5',
    }),
  );
  fs.writeFileSync(portfolio, lines.join('\n'));
});

describe('catintel score --format arrow', () => {
  it('scores.arrow: the csv table with real types (row int64, input columns utf8, coordinates and scores float64), the same values as scores.csv', async () => {
    const csvOut = path.join(dir, 'csv');
    const arrowOut = path.join(dir, 'arrow');
    expect((await cli(['--quiet', 'score', '--input', portfolio, '--out', csvOut])).code).toBe(0);
    const r = await cli(['--quiet', '--json', 'score', '--input', portfolio, '--out', arrowOut, '--format', 'arrow']);
    expect(r.code, r.stderr).toBe(0);
    expect(fs.readdirSync(arrowOut).sort()).toEqual(['errors.csv', 'manifest.json', 'scores.arrow']);
    const manifest = JSON.parse(fs.readFileSync(path.join(arrowOut, 'manifest.json'), 'utf8'));
    expect(manifest.outputs.find((o: { file: string }) => o.file === 'scores.arrow').rows).toBe(r.json().scored);

    const table = tableFromIPC(fs.readFileSync(path.join(arrowOut, 'scores.arrow')));
    const csv = read(path.join(csvOut, 'scores.csv'));
    expect(table.numRows).toBe(csv.length);
    expect(table.numRows).toBe(r.json().scored);
    const input = Object.keys(read(portfolio)[0]);
    const typeOf = (name: string) => Type[table.schema.fields.find((f) => f.name === name)!.type.typeId];
    expect(table.schema.fields.map((f) => f.name)).toEqual(['row', ...input, ...PERILS, 'overall']);
    expect(typeOf('row')).toBe('Int');
    expect(table.schema.fields[0].type.toString()).toBe('Int64');
    for (const c of input) expect(typeOf(c), c).toBe(c === 'Latitude' || c === 'Longitude' ? 'Float' : 'Utf8');
    for (const c of [...PERILS, 'overall'])
      expect(table.schema.fields.find((f) => f.name === c)!.type.toString(), c).toBe('Float64');

    const rows = table.toArray().map((x) => x.toJSON());
    rows.forEach((row, k) => {
      const want = csv[k];
      expect(String(row.row)).toBe(want.row);
      for (const c of input) expect(row[c] === null ? '' : String(row[c]), `${c} of row ${want.row}`).toBe(want[c]);
      for (const c of [...PERILS, 'overall']) expect(row[c], `${c} of row ${want.row}`).toBe(Number(want[c]));
    });
    // The quoted field is the text inside its quotes; an empty field is null, as in scores.parquet.
    expect(rows.find((x) => x.LocNumber === 'Q1')).toMatchObject({ PortNumber: 'P, quoted', Latitude: 25.77 });
    expect(rows.find((x) => x.LocNumber === 'E1')!.LocPerilsCovered).toBeNull();
  });

  it('rows are written one record batch per input chunk, and the file holds them all in order', async () => {
    const out = path.join(dir, 'arrow-small-chunks');
    const summary = await scoreCsv({
      input: portfolio,
      outDir: out,
      format: 'arrow',
      perils: [...PERILS],
      scenario: 'baseline',
      horizon: null,
      chunkBytes: 8 * 1024,
    });
    const table = tableFromIPC(fs.readFileSync(path.join(out, 'scores.arrow')));
    expect(table.batches.length).toBeGreaterThan(5);
    expect(table.numRows).toBe(summary.scored);
    const rowNumbers = [...table.getChild('row')!].map(Number);
    expect(rowNumbers).toEqual([...rowNumbers].sort((a, b) => a - b));
    expect(new Set(rowNumbers).size).toBe(summary.scored);
  });
});
