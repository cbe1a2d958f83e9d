/**
 * `catintel score --input FILE --out DIR`: real files in (the PiWind OED location file, a seeded US
 * portfolio, copies with bad rows, files that are not CSV), the outputs read back as a user would.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { usPortfolioCsv } from '../scripts/make-us-portfolio.js';
import { loadBaselineGrid } from '../src/reference-data/load-baseline.js';
import { cellAt } from '../src/domain/scoring/grid.js';
import { PERILS } from '../src/domain/scoring/perils.js';
import { scorePoint } from '../src/domain/scoring/score-point.js';
import { cli, tempDir } from './helpers/cli.js';
import { REPO_ROOT, sharedData } from './helpers/paths.js';

const PIWIND = sharedData('oasis_piwind/exposure/SourceLocOEDPiWind.csv');
const grid = loadBaselineGrid();
const read = (file: string) =>
  parse(fs.readFileSync(file), { columns: true, relax_column_count: true }) as Record<string, string>[];
const lines = (file: string) => fs.readFileSync(file, 'utf8').split(/\r?\n/).filter(Boolean);
const FLEXI = [
  'HurricaneWind',
  'StormSurge',
  'Earthquake',
  'Tornado',
  'Wildfire',
  'RiverineFlood',
  'ExtremeHeat',
  'Drought',
  'WinterStorm',
  'Overall',
].map((p) => `FlexiLocScore${p}`);

/** OED codes catintel keys for each LocPerilsCovered value the portfolio uses (OED 5.0.0 PerilsCovered groups). */
const KEYED: Record<string, string[]> = {
  AA1: ['WTC', 'WSS', 'QEQ', 'XTD', 'BBF', 'ORF', 'ZSN'],
  WW1: ['WTC', 'WSS'],
  'WW1;QQ1': ['WTC', 'WSS', 'QEQ'],
  QQ1: ['QEQ'],
  'WTC;WSS': ['WTC', 'WSS'],
  XX1: ['XTD'],
  OO1: ['ORF'],
  BB1: ['BBF'],
  'WW2;XX1;ZZ1': ['WTC', 'XTD', 'ZSN'],
  MM1: [],
};

/** oasislmf's loc_id: the distinct (PortNumber, AccNumber, LocNumber) in sorted (code point) order, from 1. */
function locIds(rows: Record<string, string>[]): number[] {
  const key = (r: Record<string, string>) => [r.PortNumber, r.AccNumber, r.LocNumber];
  const cmp = (a: string[], b: string[]) => {
    for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
    return 0;
  };
  const sorted = rows.map(key).sort(cmp);
  const id = new Map<string, number>();
  for (const k of sorted) if (!id.has(k.join('\u0000'))) id.set(k.join('\u0000'), id.size + 1);
  return rows.map((r) => id.get(key(r).join('\u0000'))!);
}

let dir: string;
let portfolio: string;
let withBadRows: string;
beforeAll(() => {
  dir = tempDir('catintel-score-bulk-');
  portfolio = path.join(dir, 'us.csv');
  fs.writeFileSync(portfolio, [...usPortfolioCsv({ rows: 500, seed: 42 })].join(''));
  withBadRows = path.join(dir, 'us-bad.csv');
  fs.writeFileSync(
    withBadRows,
    fs.readFileSync(portfolio, 'utf8') +
      'P1,A999,BAD1,Bad latitude,US,abc,-80.1,1050,5000,2000,1,WW1,100000,0,20000,0,USD,5.0.0\n' +
      'P1,A999,BAD2,Out of range,US,95.5,-80.1,1050,5000,2000,1,WW1,100000,0,20000,0,USD,5.0.0\n' +
      'P1,A999,SEA1,Mid-Atlantic,US,35.0,-40.0,1050,5000,2000,1,WW1,100000,0,20000,0,USD,5.0.0\n' +
      'P1,A999,BAD3,Short row,US,25.7\n' +
      '\n' +
      'P1,A999,MM1,Terror only,US,25.77,-80.19,1050,5000,2000,1,MM1,100000,0,20000,0,USD,5.0.0\n',
  );
});

describe('catintel score --format oasis: the PiWind location file (GB, outside US coverage)', () => {
  let out: string;
  let failed: { code: number; stdout: string; stderr: string };
  beforeAll(async () => {
    out = path.join(dir, 'piwind');
    failed = await cli(['--quiet', 'score', '--input', PIWIND, '--out', out, '--format', 'oasis']);
  });

  it('scores nothing and fails with the reason (exit 2), after writing the outputs that say why row by row', () => {
    expect(failed.code).toBe(2);
    expect(failed.stdout).toBe('');
    expect(failed.stderr).toBe(
      `catintel: no row of ${PIWIND} could be scored: of 12598 rows, 12598 outside the covered area (US states, DC and territories); ${path.join(out, 'errors.csv')} lists each with its reason [invalid_input]\n`,
    );
    expect(fs.readdirSync(out).sort()).toEqual([
      'errors.csv',
      'keys-errors.csv',
      'keys.csv',
      'location.csv',
      'manifest.json',
    ]); // no temporary files left
    const errors = read(path.join(out, 'errors.csv'));
    expect(errors).toHaveLength(12_598);
    expect(errors[0]).toMatchObject({
      row: '1',
      line: '2',
      PortNumber: '1',
      AccNumber: 'A11111',
      LocNumber: '100030534294',
      latitude: '52.7774602',
      kind: 'outside_coverage',
    });
    expect(
      errors.every(
        (e) =>
          e.kind === 'outside_coverage' && /outside the covered area \(US states, DC and territories\)/.test(e.reason),
      ),
    ).toBe(true);
  });

  it('with --json, the problem object on stderr carries the same reason', async () => {
    const r = await cli([
      '--quiet',
      '--json',
      'score',
      '--input',
      PIWIND,
      '--out',
      path.join(dir, 'piwind-json'),
      '--format',
      'csv',
    ]);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stderr)).toMatchObject({
      status: 400,
      code: 'invalid_input',
      detail: expect.stringMatching(/^no row of .* could be scored: of 12598 rows, 12598 outside the covered area/),
    });
  });

  it('puts every location in keys-errors.csv with a message, one row per covered peril and coverage type, and none in keys.csv', () => {
    expect(lines(path.join(out, 'keys.csv'))).toEqual(['LocID,PerilID,CoverageTypeID,AreaPerilID,VulnerabilityID']);
    const errs = read(path.join(out, 'keys-errors.csv'));
    expect(Object.keys(errs[0])).toEqual(['LocID', 'PerilID', 'CoverageTypeID', 'Status', 'Message']);
    expect(new Set(errs.map((e) => e.LocID)).size).toBe(12_598);
    // WW1 covers WTC and WSS; WTC; WSS; each location has BuildingTIV, ContentsTIV and BITIV.
    expect(errs).toHaveLength((6757 * 2 + 3745 + 2096) * 3);
    expect(errs.filter((e) => e.LocID === errs[0].LocID).map((e) => e.CoverageTypeID)).toEqual(
      expect.arrayContaining(['1', '3', '4']),
    );
    expect(
      errs.every(
        (e) =>
          e.Status === 'nomatch' && /is outside the covered area/.test(e.Message) && ['WTC', 'WSS'].includes(e.PerilID),
      ),
    ).toBe(true);
  });

  it('keeps the OED location file as it was (its CRLF line ends become LF), with empty score columns appended', () => {
    const input = lines(PIWIND);
    const output = lines(path.join(out, 'location.csv'));
    expect(output).toHaveLength(input.length);
    expect(output[0]).toBe(`${input[0]},${FLEXI.join(',')},FlexiLocScoreScenario,FlexiLocScoreModelVersion`);
    expect(output[1]).toBe(`${input[1]}${','.repeat(12)}`);
    expect(output[12_598]).toBe(`${input[12_598]}${','.repeat(12)}`);
  });
});

describe('catintel score --format oasis: a US portfolio with bad rows', () => {
  let out: string;
  let summary: any;
  let location: Record<string, string>[];
  beforeAll(async () => {
    out = path.join(dir, 'us-oasis');
    const r = await cli([
      '--quiet',
      '--json',
      'score',
      '--input',
      withBadRows,
      '--out',
      out,
      '--format',
      'oasis',
      '--scenario',
      'ssp245',
      '--horizon',
      '2050',
    ]);
    expect(r.code, r.stderr).toBe(0);
    summary = r.json();
    location = read(path.join(out, 'location.csv'));
  });

  it('counts rows, scored, errors and rows outside coverage; a blank line is not a row', () => {
    expect(summary).toMatchObject({
      rows: 505,
      scored: 501,
      errors: 3,
      outside_coverage: 1,
      errors_by_kind: { invalid_coordinates: 2, malformed_row: 1 },
    });
    expect(summary.rows).toBe(summary.scored + summary.errors + summary.outside_coverage);
    expect(summary.outputs.map((o: { file: string }) => path.basename(o.file))).toEqual([
      'location.csv',
      'keys.csv',
      'keys-errors.csv',
      'errors.csv',
    ]);
  });

  it('writes each bad row to errors.csv with its row and line number and the reason', () => {
    const errors = read(path.join(out, 'errors.csv'));
    const byLoc = Object.fromEntries(errors.map((e) => [e.LocNumber, e]));
    expect(byLoc.BAD1).toMatchObject({ row: '501', line: '502', reason: 'Latitude "abc" is not a number' });
    expect(byLoc.BAD2).toMatchObject({ row: '502', line: '503', reason: 'Latitude 95.5 is out of range [-90, 90]' });
    expect(byLoc.SEA1).toMatchObject({ row: '503', line: '504', kind: 'outside_coverage' });
    expect(byLoc.SEA1.reason).toMatch(/lat=35, lng=-40 is outside the covered area/);
    expect(byLoc.BAD3).toMatchObject({
      row: '504',
      line: '505',
      kind: 'malformed_row',
      reason: 'the row has 6 fields; the header has 18',
    });
    expect(byLoc.BAD1.kind).toBe('invalid_coordinates');
    expect(byLoc.MM1).toBeUndefined(); // covered: scored, even though no keyed peril is covered
  });

  it('keeps every OED column of the rows it can place, in order, and adds the scores as FlexiLoc columns', () => {
    const input = read(withBadRows);
    expect(Object.keys(location[0])).toEqual([
      ...Object.keys(input[0]),
      ...FLEXI,
      'FlexiLocScoreScenario',
      'FlexiLocScoreModelVersion',
    ]);
    expect(location).toHaveLength(502); // the two bad-coordinate rows and the short row are left out
    expect(location.map((l) => l.LocNumber)).not.toContain('BAD1');
    const sea = location.find((l) => l.LocNumber === 'SEA1')!;
    expect(FLEXI.map((c) => sea[c])).toEqual(FLEXI.map(() => ''));
    const first = location[0];
    expect(first).toMatchObject({
      ...input[0],
      FlexiLocScoreScenario: 'ssp245-2050',
      FlexiLocScoreModelVersion: grid.header.modelVersion,
    });
  });

  it('gives each location the scores GET /risk/score gives its point', () => {
    for (const l of location.filter((x, i) => i % 50 === 0 && x.FlexiLocScoreOverall !== '')) {
      const r = scorePoint(grid, {
        lat: Number(l.Latitude),
        lng: Number(l.Longitude),
        scenario: 'ssp245',
        horizon: 2050,
      });
      if (!r.covered) throw new Error(`${l.LocNumber} not covered`);
      const scores = r.perils.map((p) => p.score.toFixed(2));
      expect(
        FLEXI.slice(0, 9).map((c) => l[c]),
        l.LocNumber,
      ).toEqual(scores);
      expect(l.FlexiLocScoreOverall).toBe(Math.max(...r.perils.map((p) => p.score)).toFixed(2));
    }
  });

  it('writes keys.csv: one row per location, covered peril and coverage type with a value, LocID as oasislmf numbers it, AreaPerilID from the cell', () => {
    const keys = read(path.join(out, 'keys.csv'));
    expect(Object.keys(keys[0])).toEqual(['LocID', 'PerilID', 'CoverageTypeID', 'AreaPerilID', 'VulnerabilityID']);
    const ids = locIds(location);
    const byId = new Map(location.map((l, i) => [ids[i], l]));
    const valued = (l: Record<string, string>) =>
      ['BuildingTIV', 'OtherTIV', 'ContentsTIV', 'BITIV'].flatMap((c, t) => (Number(l[c]) > 0 ? [String(t + 1)] : []));
    const perLoc = new Map<number, string[]>();
    const coverages = new Map<string, string[]>();
    for (const k of keys) {
      const l = byId.get(Number(k.LocID))!;
      expect(k.VulnerabilityID).toBe('0');
      const cell = cellAt(grid, Number(l.Latitude), Number(l.Longitude));
      expect(Math.floor(Number(k.AreaPerilID) / 10) - 1).toBe(cell);
      const lp = `${k.LocID} ${k.PerilID}`;
      if (!coverages.has(lp)) perLoc.set(Number(k.LocID), [...(perLoc.get(Number(k.LocID)) ?? []), k.PerilID]);
      coverages.set(lp, [...(coverages.get(lp) ?? []), k.CoverageTypeID]);
    }
    for (const [lp, types] of coverages) expect(types, lp).toEqual(valued(byId.get(Number(lp.split(' ')[0]))!));
    expect([...coverages.values()].some((t) => t.length > 1)).toBe(true);
    for (const [i, l] of location.entries()) {
      const expected = l.FlexiLocScoreOverall === '' ? [] : KEYED[l.LocPerilsCovered];
      expect(perLoc.get(ids[i]) ?? [], `${l.LocNumber} ${l.LocPerilsCovered}`).toEqual(expected);
    }
    // in location.csv order
    const order = [...new Set(keys.map((k) => Number(k.LocID)))];
    expect(order).toEqual(
      ids.filter((id, i) => location[i].FlexiLocScoreOverall !== '' && KEYED[location[i].LocPerilsCovered].length > 0),
    );
  });

  it('writes keys-errors.csv for the location outside coverage and the one whose perils it does not score', () => {
    const ids = locIds(location);
    const idOf = (loc: string) => String(ids[location.findIndex((l) => l.LocNumber === loc)]);
    const errs = read(path.join(out, 'keys-errors.csv'));
    const sea = errs.filter((e) => e.LocID === idOf('SEA1'));
    // SEA1 holds BuildingTIV and ContentsTIV: one row per peril and coverage type.
    expect(sea.map((e) => `${e.PerilID} ${e.CoverageTypeID}`)).toEqual(['WTC 1', 'WTC 3', 'WSS 1', 'WSS 3']);
    expect(sea[0]).toMatchObject({ CoverageTypeID: '1', Status: 'nomatch' });
    expect(sea[0].Message).toMatch(/lat=35\.0, lng=-40\.0 is outside the covered area/);
    const mm1 = errs.filter((e) => e.LocID === idOf('MM1'));
    const message = expect.stringMatching(/none of the perils in LocPerilsCovered \(MM1\)/);
    expect(mm1).toEqual(
      ['1', '3'].map((t) => ({
        LocID: idOf('MM1'),
        PerilID: 'MM1',
        CoverageTypeID: t,
        Status: 'nomatch',
        Message: message,
      })),
    );
  });
});

describe('catintel score --format oasis: a key row for every coverage type with a value', () => {
  it('keys.csv and keys-errors.csv hold CoverageTypeID 1-4 where BuildingTIV, OtherTIV, ContentsTIV, BITIV are positive', async () => {
    const input = path.join(dir, 'coverages.csv');
    fs.writeFileSync(
      input,
      'PortNumber,AccNumber,LocNumber,CountryCode,Latitude,Longitude,LocPerilsCovered,BuildingTIV,OtherTIV,ContentsTIV,BITIV,LocCurrency\n' +
        'P1,A1,B,US,25.77,-80.19,WW1,100000,0,0,0,USD\n' + // buildings only
        'P1,A1,BCI,US,25.78,-80.20,WW1,100000,0,50000.5,20000,USD\n' + // contents with cents, and BI
        'P1,A1,ALL,US,25.79,-80.21,WTC,100000,"5000",50000,20000,USD\n' + // a quoted TIV
        'P1,A1,C,US,25.80,-80.22,WTC,0,0,50000,0,USD\n' + // contents alone
        'P1,A1,NONE,US,25.81,-80.23,WTC,0,,0,0,USD\n' + // no value: keyed as buildings
        'P1,A1,SEA,US,35.0,-40.0,WTC,100000,0,50000,0,USD\n', // outside coverage: keys-errors rows
    );
    const out = path.join(dir, 'coverages-oasis');
    const r = await cli(['--quiet', 'score', '--input', input, '--out', out, '--format', 'oasis']);
    expect(r.code, r.stderr).toBe(0);
    const location = read(path.join(out, 'location.csv'));
    const ids = locIds(location);
    const nameOf = new Map(location.map((l, i) => [String(ids[i]), l.LocNumber]));
    const rows = (file: string) =>
      read(path.join(out, file)).map((k) => `${nameOf.get(k.LocID)} ${k.PerilID} ${k.CoverageTypeID}`);
    expect(rows('keys.csv')).toEqual([
      'B WTC 1',
      'B WSS 1',
      'BCI WTC 1',
      'BCI WTC 3',
      'BCI WTC 4',
      'BCI WSS 1',
      'BCI WSS 3',
      'BCI WSS 4',
      'ALL WTC 1',
      'ALL WTC 2',
      'ALL WTC 3',
      'ALL WTC 4',
      'C WTC 3',
      'NONE WTC 1',
    ]);
    expect(rows('keys-errors.csv')).toEqual(['SEA WTC 1', 'SEA WTC 3']);
    // The coverages of one location share its AreaPerilID: the hazard does not depend on the coverage.
    const keys = read(path.join(out, 'keys.csv')).filter((k) => nameOf.get(k.LocID) === 'ALL');
    expect(new Set(keys.map((k) => k.AreaPerilID)).size).toBe(1);
  });
});

describe('catintel score: csv, json and parquet', () => {
  it('csv: row, every input column as written, one score per peril and overall — the same scores as location.csv', async () => {
    const out = path.join(dir, 'us-csv');
    const r = await cli([
      '--quiet',
      '--json',
      'score',
      '--input',
      withBadRows,
      '--out',
      out,
      '--format',
      'csv',
      '--scenario',
      'ssp245',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const rows = read(path.join(out, 'scores.csv'));
    const input = read(withBadRows);
    expect(Object.keys(rows[0])).toEqual(['row', ...Object.keys(input[0]), ...PERILS, 'overall']);
    expect(rows).toHaveLength(r.json().scored);
    const loc = Object.fromEntries(read(path.join(dir, 'us-oasis', 'location.csv')).map((l) => [l.LocNumber, l]));
    for (const row of rows) {
      expect([...PERILS.map((p) => row[p]), row.overall]).toEqual(FLEXI.map((c) => loc[row.LocNumber][c]));
      // The modeler's own columns, no join needed; the coordinates as the numbers read (41.836370 -> 41.83637).
      const own = input.find((i) => i.LocNumber === row.LocNumber)!;
      expect(row).toMatchObject({
        ...own,
        Latitude: String(Number(own.Latitude)),
        Longitude: String(Number(own.Longitude)),
      });
    }
    expect(rows.find((x) => x.LocNumber === 'MM1')).toMatchObject({
      row: '505',
      Latitude: '25.77',
      Longitude: '-80.19',
      LocPerilsCovered: 'MM1',
      BuildingTIV: '100000',
    });
  });

  it('csv --keep-columns ids: only the identifying columns, latitude and longitude', async () => {
    const out = path.join(dir, 'us-csv-ids');
    const r = await cli(['--quiet', '--json', 'score', '--input', withBadRows, '--out', out, '--keep-columns', 'ids']);
    expect(r.code, r.stderr).toBe(0);
    const rows = read(path.join(out, 'scores.csv'));
    expect(Object.keys(rows[0])).toEqual([
      'row',
      'PortNumber',
      'AccNumber',
      'LocNumber',
      'latitude',
      'longitude',
      ...PERILS,
      'overall',
    ]);
    expect(rows.find((x) => x.LocNumber === 'MM1')).toMatchObject({
      row: '505',
      latitude: '25.77',
      longitude: '-80.19',
    });
    expect((await cli(['score', '--input', withBadRows, '--out', out, '--keep-columns', 'some'])).stderr).toMatch(
      /keep_columns: "some" is not one of all, ids \[invalid_parameter\]/,
    );
  });

  it('json: NDJSON, one object per scored location, the input columns as strings and the coordinates as numbers', async () => {
    const out = path.join(dir, 'us-json');
    const r = await cli([
      '--quiet',
      '--json',
      'score',
      '--input',
      portfolio,
      '--out',
      out,
      '--format',
      'json',
      '--perils',
      'hurricane_wind,earthquake',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const objects = lines(path.join(out, 'scores.ndjson')).map((l) => JSON.parse(l));
    expect(objects).toHaveLength(r.json().scored);
    const input = read(portfolio);
    expect(Object.keys(objects[0])).toEqual(['row', ...Object.keys(input[0]), 'scores', 'overall']);
    expect(objects[0]).toMatchObject({
      ...input[0],
      Latitude: Number(input[0].Latitude),
      Longitude: Number(input[0].Longitude),
    });
    expect(Object.keys(objects[0].scores)).toEqual(['hurricane_wind', 'earthquake']);
    expect(objects[0].overall).toBe(Math.max(objects[0].scores.hurricane_wind, objects[0].scores.earthquake));
  });

  it('parquet: the csv table, typed', async () => {
    const out = path.join(dir, 'us-parquet');
    const r = await cli(['--quiet', '--json', 'score', '--input', portfolio, '--out', out, '--format', 'parquet']);
    expect(r.code, r.stderr).toBe(0);
    expect(fs.readdirSync(out).sort()).toEqual(['errors.csv', 'manifest.json', 'scores.parquet']);
    const { DuckDBInstance } = await import('@duckdb/node-api');
    const db = await DuckDBInstance.create(':memory:');
    const c = await db.connect();
    const file = path.join(out, 'scores.parquet').replaceAll("'", "''");
    const types = (
      await c.runAndReadAll(`SELECT column_name, column_type FROM (DESCRIBE SELECT * FROM '${file}')`)
    ).getRowObjectsJS();
    const n = (await c.runAndReadAll(`SELECT count(*)::INTEGER AS n FROM '${file}'`)).getRowObjectsJS()[0].n;
    c.closeSync();
    db.closeSync();
    expect(n).toBe(r.json().scored);
    const input = Object.keys(read(portfolio)[0]);
    expect(types).toEqual([
      { column_name: 'row', column_type: 'BIGINT' },
      ...input.map((c) => ({
        column_name: c,
        column_type: c === 'Latitude' || c === 'Longitude' ? 'DOUBLE' : 'VARCHAR',
      })),
      ...[...PERILS, 'overall'].map((c) => ({ column_name: c, column_type: 'DOUBLE' })),
    ]);
  });

  it('oasis from a plain CSV: foreign columns become FlexiLoc, required OED fields are added, a point abroad is left out', async () => {
    const input = path.join(dir, 'sites.csv');
    fs.writeFileSync(
      input,
      'site_id,name,lat,LNG\nA-1,"Miami, FL",25.77,-80.19\nA-2,Paris,48.86,2.35\nA-3,San Juan,18.47,-66.1\n',
    );
    const out = path.join(dir, 'sites-oasis');
    const r = await cli(['--quiet', '--json', 'score', '--input', input, '--out', out, '--format', 'oasis']);
    expect(r.code, r.stderr).toBe(0);
    const loc = read(path.join(out, 'location.csv'));
    expect(Object.keys(loc[0]).slice(0, 11)).toEqual([
      'FlexiLocSiteId',
      'FlexiLocName',
      'Latitude',
      'Longitude',
      'PortNumber',
      'AccNumber',
      'LocNumber',
      'CountryCode',
      'LocPerilsCovered',
      'LocCurrency',
      'OEDVersion',
    ]);
    expect(loc.map((l) => [l.FlexiLocSiteId, l.FlexiLocName, l.LocNumber, l.CountryCode])).toEqual([
      ['A-1', 'Miami, FL', '1', 'US'],
      ['A-3', 'San Juan', '3', 'PR'],
    ]);
    expect(loc[0]).toMatchObject({
      PortNumber: 'catintel',
      LocPerilsCovered: 'WTC;WSS;QEQ;XTD;BBF;ORF;ZSN',
      LocCurrency: 'USD',
      OEDVersion: '5.0.0',
    });
    expect(read(path.join(out, 'errors.csv')).map((e) => [e.row, e.site_id])).toEqual([['2', 'A-2']]);
    expect(read(path.join(out, 'keys.csv'))).toHaveLength(14);
  });
});

describe('catintel score: the header names of a plain CSV', () => {
  it("oasis writes the OED names Latitude and Longitude (and OED fields in the spec's spelling) whatever the input's case", async () => {
    const input = path.join(dir, 'lower.csv');
    fs.writeFileSync(input, 'locnumber,latitude,longitude,buildingtiv\n1,25.77,-80.19,100\n');
    const out = path.join(dir, 'lower-oasis');
    const r = await cli(['--quiet', 'score', '--input', input, '--out', out, '--format', 'oasis']);
    expect(r.code, r.stderr).toBe(0);
    expect(lines(path.join(out, 'location.csv'))[0]).toMatch(
      /^LocNumber,Latitude,Longitude,BuildingTIV,PortNumber,AccNumber,CountryCode,/,
    );
  });

  it('a header with an inch mark in a name, and ; as the delimiter', async () => {
    const input = path.join(dir, 'inch-header.csv');
    fs.writeFileSync(input, 'id;size (in");lat;lng\nA;12";25.77;-80.19\n');
    const r = await cli(['--quiet', '--json', 'score', '--input', input, '--out', path.join(dir, 'inch-header')]);
    expect(r.code, r.stderr).toBe(0);
    expect(read(path.join(dir, 'inch-header', 'scores.csv'))[0]).toMatchObject({
      row: '1',
      id: 'A',
      'size (in")': '12"',
      lat: '25.77',
    });
  });

  it('a header without data rows scores nothing: exit 2 with the reason', async () => {
    const input = path.join(dir, 'header-only.csv');
    fs.writeFileSync(input, 'id,lat,lng\n');
    const r = await cli(['--quiet', 'score', '--input', input, '--out', path.join(dir, 'header-only')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`catintel: input ${input} has a header but no data rows; nothing to score [invalid_input]\n`);
  });
});

describe('catintel score: unusable input fails at once, exit 2, one line, nothing written', () => {
  const cases: [string, (file: string) => void, RegExp][] = [
    ['a missing file', () => {}, /does not exist/],
    ['an empty file', (f) => fs.writeFileSync(f, ''), /is empty/],
    [
      'a JSON file',
      (f) => fs.writeFileSync(f, JSON.stringify([{ lat: 25.77, lng: -80.19 }])),
      /looks like JSON, not CSV/,
    ],
    [
      'a binary file',
      (f) => fs.writeFileSync(f, Buffer.from([0x4c, 0x61, 0x74, 0, 1, 2, 3, 0xff, 0xfe])),
      /binary data/,
    ],
    ['a gzip file', (f) => fs.writeFileSync(f, gzipSync(fs.readFileSync(portfolio))), /gzip-compressed/],
    [
      'a CSV without coordinate columns',
      (f) => fs.writeFileSync(f, 'LocNumber,City\n1,Miami\n'),
      /no coordinate columns: expected Latitude and Longitude/,
    ],
    ['a CSV without a longitude column', (f) => fs.writeFileSync(f, 'id,lat\n1,25\n'), /no longitude column/],
  ];
  it.each(cases)('%s', async (_name, make, message) => {
    const input = path.join(tempDir(), 'input.csv');
    make(input);
    const out = path.join(tempDir(), 'out');
    const r = await cli(['score', '--input', input, '--out', out, '--format', 'oasis']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.split('\n').filter(Boolean)).toHaveLength(1);
    expect(r.stderr).toMatch(/^catintel: .* \[invalid_input\]\n$/);
    expect(r.stderr).toMatch(message);
    expect(fs.existsSync(out)).toBe(false);
  });

  it('leaves an existing output directory as it was', async () => {
    const out = path.join(dir, 'kept');
    expect((await cli(['--quiet', 'score', '--input', portfolio, '--out', out])).code).toBe(0);
    const before = Object.fromEntries(fs.readdirSync(out).map((f) => [f, fs.readFileSync(path.join(out, f), 'utf8')]));
    const bad = path.join(dir, 'no-coords.csv');
    fs.writeFileSync(bad, 'a,b\n1,2\n');
    const r = await cli(['score', '--input', bad, '--out', out]);
    expect(r.code).toBe(2);
    expect(Object.fromEntries(fs.readdirSync(out).map((f) => [f, fs.readFileSync(path.join(out, f), 'utf8')]))).toEqual(
      before,
    );
  });

  it('refuses a bad --format or a missing --out before reading anything', async () => {
    expect(
      (await cli(['score', '--input', portfolio, '--out', path.join(dir, 'x'), '--format', 'xlsx'])).stderr,
    ).toMatch(/format: "xlsx" is not one of oasis, csv, json, parquet, arrow \[invalid_parameter\]/);
    expect((await cli(['score', '--input', portfolio])).code).toBe(2);
  });
});

describe('catintel score: the command', () => {
  it('`score --help` shows the bulk options and the point subcommand', async () => {
    const r = await cli(['score', '--help']);
    expect(r.code).toBe(0);
    for (const s of [
      '--input <file>',
      '--out <dir>',
      '--format <format>',
      '--perils <perils>',
      '--scenario <scenario>',
      '--horizon <year>',
      'point',
      'catintel score --input portfolio.csv --out scores/',
    ]) {
      expect(r.stdout).toContain(s);
    }
  });

  it('`score point` still works beside it, with the options both declare', async () => {
    const r = await cli([
      '--json',
      'score',
      'point',
      '--lat',
      '35.47',
      '--lng',
      '-97.52',
      '--perils',
      'tornado',
      '--scenario',
      'ssp585',
      '--horizon',
      '2080',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json()).toMatchObject({ scenario: 'ssp585', horizon: 2080, perils: [{ peril: 'tornado' }] });
  });

  it('reports progress as NDJSON lines on stderr when not on a terminal', async () => {
    const r = await cli(['--json', 'score', '--input', portfolio, '--out', path.join(dir, 'progress')]);
    expect(r.code).toBe(0);
    const events = r.stderr
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    expect(events.length).toBeGreaterThan(0);
    expect(events.every((e) => e.progress === 'score' && typeof e.done === 'number' && e.unit === 'bytes')).toBe(true);
    expect(events.at(-1).done).toBe(events.at(-1).total);
  });

  const compiled = path.join(REPO_ROOT, 'dist/src/scoring-bulk/oasis-keys/keys-job.js');
  it.skipIf(!fs.existsSync(compiled))(
    'the compiled CLI (keys from a worker thread) writes the same files, with and without rows left out',
    async () => {
      const runs: [string, string[], string][] = [
        [withBadRows, ['--scenario', 'ssp245', '--horizon', '2050'], path.join(dir, 'us-oasis')],
        [portfolio, [], path.join(dir, 'us-oasis-inline')],
      ];
      // The second reference is made in-process (no compiled worker under the test runner: the same code inline).
      const ref = await cli(['--quiet', 'score', '--input', portfolio, '--out', runs[1][2], '--format', 'oasis']);
      expect(ref.code, ref.stderr).toBe(0);
      for (const [input, args, reference] of runs) {
        const out = path.join(dir, `compiled-${path.basename(reference)}`);
        const p = spawnSync(
          process.execPath,
          [
            path.join(REPO_ROOT, 'bin/catintel'),
            '--quiet',
            'score',
            '--input',
            input,
            '--out',
            out,
            '--format',
            'oasis',
            ...args,
          ],
          { encoding: 'utf8' },
        );
        expect(p.status, p.stderr).toBe(0);
        for (const f of ['location.csv', 'keys.csv', 'keys-errors.csv', 'errors.csv']) {
          expect(fs.readFileSync(path.join(out, f), 'utf8'), f).toBe(fs.readFileSync(path.join(reference, f), 'utf8'));
        }
        expect(fs.readdirSync(out).sort()).toEqual([
          'errors.csv',
          'keys-errors.csv',
          'keys.csv',
          'location.csv',
          'manifest.json',
        ]);
      }
    },
  );
});
