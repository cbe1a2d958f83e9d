/**
 * Bytes that are not UTF-8 (issue 27 item 4) are refused, never replaced with U+FFFD and stored: a JSON
 * or CSV body over HTTP is a 400 naming the byte offset; a bulk-scoring input row is a row error in
 * errors.csv naming its column and byte offset, and no output holds U+FFFD or the bad byte; a portfolio
 * import names the row and imports nothing. A Latin-1 "é" (0xE9) is what a spreadsheet saved in the old
 * Windows encoding holds.
 */
import { isUtf8 } from 'node:buffer';
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../src/store/db.js';
import { cli, tempDir } from './helpers/cli.js';
import { platform, seededStore, token, type Platform } from './http/helpers/harness.js';

const latin1 = (s: string) => Buffer.from(s, 'latin1');
const HEADER = 'PortNumber,AccNumber,LocNumber,LocName,Latitude,Longitude,BuildingTIV\n';
/** Row 2's LocName is "Café Denver" in Latin-1: its 0xE9 is the only byte of the file that is not UTF-8. */
const PORTFOLIO = Buffer.concat([
  Buffer.from(HEADER + '1,A1,L1,Dallas office,32.78,-96.8,250000\n1,A1,L2,'),
  latin1('Café Denver'),
  Buffer.from(',39.74,-104.99,300000\n1,A1,L3,Atlanta depot,33.75,-84.39,100000\n'),
]);
const BAD_OFFSET = PORTFOLIO.indexOf(0xe9);

describe('invalid UTF-8 over HTTP', () => {
  let db: Store;
  let p: Platform;
  let agency: string;
  beforeAll(async () => {
    db = await seededStore();
    p = await platform(db);
    agency = await token('agency');
  }, 60_000);
  afterAll(() => db.close());

  it('a JSON body with a byte that is not UTF-8 is a 400 naming its offset, and nothing is stored', async () => {
    const json = Buffer.concat([
      Buffer.from('{"name":"Miami '),
      Buffer.from([0xff]),
      Buffer.from(
        ' wind","peril":"hurricane","lat":25.76,"lng":-80.19,"radius_km":50,"threshold_type":"wind_speed_kt","threshold_value":64}',
      ),
    ]);
    const r = await p.call('/api/v1/triggers', { token: agency, raw: json, contentType: 'application/json' });
    expect([r.status, r.body.code]).toEqual([400, 'invalid_request']);
    expect(r.body.detail).toBe(
      'the application/json body is not valid UTF-8 at byte offset 15 (0xff); send it encoded as UTF-8',
    );
    expect(r.body.errors).toEqual([{ field: 'body', message: 'invalid UTF-8 at byte offset 15' }]);
    const list = await p.call('/api/v1/triggers', { token: agency });
    expect(JSON.stringify(list.body)).not.toContain('\uFFFD');
  });

  it('a text/csv portfolio upload with a Latin-1 byte is a 400 naming its offset', async () => {
    const r = await p.call('/api/v1/portfolio?name=latin1', { token: agency, raw: PORTFOLIO, contentType: 'text/csv' });
    expect([r.status, r.body.code]).toEqual([400, 'invalid_request']);
    expect(r.body.detail).toContain(`byte offset ${BAD_OFFSET} (0xe9)`);
    const list = await p.call('/api/v1/portfolio', { token: agency });
    expect(list.body.portfolios.map((x: { name: string }) => x.name)).not.toContain('latin1');
  });
});

describe('invalid UTF-8 in a CSV file through the CLI', () => {
  let dir: string;
  let input: string;
  beforeAll(() => {
    dir = tempDir('catintel-utf8-');
    input = path.join(dir, 'latin1.csv');
    fs.writeFileSync(input, PORTFOLIO);
  });

  for (const format of ['csv', 'json', 'oasis'] as const) {
    it(`bulk scoring (--format ${format}): the row is a row error naming column and byte offset; no output holds U+FFFD or the byte`, async () => {
      const out = path.join(dir, `out-${format}`);
      const r = await cli(['--json', 'score', '--input', input, '--out', out, '--format', format]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.json()).toMatchObject({
        rows: 3,
        scored: 2,
        errors: 1,
        errors_by_kind: { malformed_row: 1, invalid_coordinates: 0 },
      });
      const errors = parse(fs.readFileSync(path.join(out, 'errors.csv')), { columns: true });
      expect(errors).toEqual([
        {
          row: '2',
          line: '3',
          PortNumber: '1',
          AccNumber: 'A1',
          LocNumber: 'L2',
          latitude: '39.74',
          longitude: '-104.99',
          kind: 'malformed_row',
          reason: `column "LocName" (4) is not valid UTF-8 at byte offset ${BAD_OFFSET} of the file (0xe9); save the file as UTF-8 (Excel: "CSV UTF-8")`,
        },
      ]);
      for (const f of fs.readdirSync(out)) {
        const bytes = fs.readFileSync(path.join(out, f));
        expect(isUtf8(bytes), f).toBe(true);
        expect(bytes.toString('utf8'), f).not.toContain('\uFFFD');
        expect(bytes.toString('utf8'), f).not.toContain('Caf');
      }
    });
  }

  it('--format oasis with the bad byte in LocNumber, a key field: the row is an error, the keys of the others are made', async () => {
    const file = path.join(dir, 'latin1-key.csv');
    fs.writeFileSync(
      file,
      Buffer.concat([
        Buffer.from(HEADER + '1,A1,L1,Dallas office,32.78,-96.8,250000\n1,A1,'),
        latin1('Lé2'),
        Buffer.from(',Denver,39.74,-104.99,300000\n'),
      ]),
    );
    const out = path.join(dir, 'out-oasis-key');
    const r = await cli(['--json', 'score', '--input', file, '--out', out, '--format', 'oasis']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json()).toMatchObject({ rows: 2, scored: 1, errors: 1 });
    const locations = parse(fs.readFileSync(path.join(out, 'location.csv')), { columns: true });
    expect(locations.map((l: { LocNumber: string }) => l.LocNumber)).toEqual(['L1']);
    const keys = parse(fs.readFileSync(path.join(out, 'keys.csv')), { columns: true });
    expect(new Set(keys.map((k: { LocID: string }) => k.LocID))).toEqual(new Set(['1']));
  });

  it('a header that is not UTF-8 is refused with one line naming the offset (exit 2)', async () => {
    const file = path.join(dir, 'bad-header.csv');
    fs.writeFileSync(
      file,
      Buffer.concat([latin1('Lieu désigné,Latitude,Longitude\n'), Buffer.from('a,39.74,-104.99\n')]),
    );
    const r = await cli(['score', '--input', file, '--out', path.join(dir, 'out-header')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `catintel: input ${file}: its header row is not valid UTF-8 at byte offset 6 (0xe9); save the file as UTF-8 (Excel: "CSV UTF-8") [invalid_input]\n`,
    );
  });

  it('portfolio import names the row, column and byte offset, and imports nothing', async () => {
    const db = path.join(dir, 'store.duckdb');
    const r = await cli(['--db', db, '--json', 'portfolio', 'import', input, '--name', 'Latin-1 book']);
    expect(r.code).toBe(2);
    const problem = JSON.parse(r.stderr.trim().split('\n').pop()!);
    expect(problem.code).toBe('validation_failed');
    expect(problem.errors).toEqual([
      {
        field: 'row[2].LocName',
        message: `line 3: column "LocName" (4) is not valid UTF-8 at byte offset ${BAD_OFFSET} of the file (0xe9); save the file as UTF-8 (Excel: "CSV UTF-8")`,
      },
    ]);
    expect((await cli(['--db', db, '--json', 'portfolio', 'list'])).json().numberMatched).toBe(0);
  });

  it('portfolio ep-curve --input refuses the file the same way (422), rather than model a name with U+FFFD', async () => {
    const db = path.join(dir, 'seeded.duckdb');
    expect((await cli(['--db', db, '--quiet', 'db', 'seed'])).code).toBe(0);
    const r = await cli([
      '--db',
      db,
      '--json',
      'portfolio',
      'ep-curve',
      '--input',
      input,
      '--years',
      '100',
      '--seed',
      '1',
    ]);
    expect(r.code).toBe(2);
    const problem = JSON.parse(r.stderr.trim().split('\n').pop()!);
    expect(problem.code).toBe('validation_failed');
    expect(problem.errors).toEqual([
      {
        field: 'row 2 LocName',
        message: expect.stringContaining(`is not valid UTF-8 at byte offset ${BAD_OFFSET} of the file (0xe9)`),
      },
    ]);
  }, 60_000);
});
