/**
 * Hostile OED files and JSON rows through the portfolio importer (issue 9 part 6 for issue 11): random and
 * malformed headers, fields, quotes, line ends and bytes. Every one is imported whole (every row stored,
 * totals matching) or refused with a 4xx problem and nothing stored; never a crash, a 500 or a half import.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CatintelError } from '../src/errors.js';
import { importCsvText, importJsonRows } from '../src/portfolios/import.js';
import { Store } from '../src/store/db.js';
import { hostileJsonValue, hostileString, SEED } from './helpers/hostile.js';

const HEADERS = [
  'LocNumber',
  'Latitude',
  'Longitude',
  'BuildingTIV',
  'ContentsTIV',
  'BITIV',
  'LocPerilsCovered',
  'LocCurrency',
  'OccupancyCode',
  'latitude',
  'LOCNUMBER',
  'lat',
  'lng',
  'FlexiLocX',
  '',
];
const field = fc.oneof(
  { weight: 3, arbitrary: hostileString.map((s) => s.slice(0, 200)) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '"',
      '""',
      '"a""b"',
      '"open',
      'inch 12" wall',
      'a,b',
      '"a\nb"',
      '\r',
      '1e5',
      '-0.0',
      '+39.7',
      ' 39.7 ',
      'WW1;QQ1',
      'usd',
      'EUR',
      'XYZ',
    ),
  },
  { weight: 2, arbitrary: fc.double().map(String) },
);
const csv = fc.record({
  header: fc.oneof(
    {
      weight: 3,
      arbitrary: fc.constant(['LocNumber', 'Latitude', 'Longitude', 'BuildingTIV', 'LocPerilsCovered', 'LocCurrency']),
    },
    { weight: 1, arbitrary: fc.array(fc.constantFrom(...HEADERS), { minLength: 1, maxLength: 7 }) },
  ),
  rows: fc.array(
    fc.oneof(
      fc.array(field, { minLength: 0, maxLength: 7 }),
      fc.constant(['L1', '25.7', '-80.2', '100', 'WW1', 'USD']),
    ),
    { maxLength: 12 },
  ),
  sep: fc.constantFrom('\n', '\r\n'),
  tail: fc.constantFrom('', '\n', '"', '\u0000'),
});

let db: Store;
beforeAll(async () => {
  db = await Store.open(':memory:');
});
afterAll(() => db.close());

async function stored(): Promise<{ portfolios: number; locations: number; complete: number }> {
  const row = await db.one<{
    p: bigint;
    l: bigint;
    c: bigint;
  }>(`SELECT (SELECT count(*) FROM portfolios) AS p, (SELECT count(*) FROM portfolio_locations) AS l,
    (SELECT count(*) FROM portfolios p WHERE p.location_count = (SELECT count(*) FROM portfolio_locations l WHERE l.portfolio_id = p.id)) AS c`);
  return { portfolios: Number(row!.p), locations: Number(row!.l), complete: Number(row!.c) };
}

const refusedWith4xx = (err: unknown) => {
  if (!(err instanceof CatintelError)) throw err;
  expect(err.status).toBeGreaterThanOrEqual(400);
  expect(err.status).toBeLessThan(500);
  expect(err.message.length).toBeGreaterThan(0);
};

describe('hostile input to the portfolio importer', () => {
  it('a CSV body is imported whole or refused with a 4xx and nothing stored', async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(csv, async (c) => {
        const text = [c.header.join(','), ...c.rows.map((r) => r.join(','))].join(c.sep) + c.tail;
        const before = await stored();
        try {
          const r = await importCsvText(db, text, {
            account: 'hostile',
            name: `csv ${n++}`,
            now: '2026-01-01T00:00:00Z',
          });
          const after = await stored();
          expect(after.locations - before.locations).toBe(r.created ? r.portfolio.location_count : 0);
        } catch (err) {
          refusedWith4xx(err);
          expect(await stored()).toEqual(before);
        }
        const s = await stored();
        expect(s.complete).toBe(s.portfolios);
      }),
      { seed: SEED, numRuns: 150 },
    );
  }, 60_000);

  it('JSON rows are imported whole or refused with a 4xx and nothing stored', async () => {
    let n = 0;
    const row = fc.oneof(
      hostileJsonValue,
      fc.dictionary(fc.constantFrom(...HEADERS), hostileJsonValue, { maxKeys: 8 }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(row, { minLength: 1, maxLength: 8 }), async (rows) => {
        const before = await stored();
        try {
          await importJsonRows(db, JSON.parse(JSON.stringify(rows) ?? '[]'), {
            account: 'hostile',
            name: `json ${n++}`,
            now: '2026-01-01T00:00:00Z',
          });
        } catch (err) {
          refusedWith4xx(err);
          expect(await stored()).toEqual(before);
        }
      }),
      { seed: SEED, numRuns: 150 },
    );
  }, 60_000);
});
