/**
 * The box around a portfolio's locations is kept on its row (issue 38, migration 11): written at import,
 * and worked out from the locations for the portfolios a store held before the migration. Exposure answers
 * from it whether any live ring reaches the book, so a book no event reaches is answered without reading a
 * location. Analysts see the columns when they open the store in DuckDB.
 *
 * The book: four US cities (coordinates as a person would read them off a map). Hurricane Ian's best track
 * (../shared/data/hazard_history/hurricanes/bal092022.dat) read at landfall, 2022-09-28 19:30Z, is live in
 * southwest Florida: it reaches Fort Myers (26.64N 81.87W), not Seattle, Denver or Boston.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli, tempDir } from './helpers/cli.js';
import { sharedData } from './helpers/paths.js';
import { Store } from '../src/store/db.js';
import { migrations } from '../src/store/migrations.js';

const NOW = '2022-09-28T19:30:00Z';
const IAN = sharedData('hazard_history/hurricanes/bal092022.dat');
const HEADER = 'PortNumber,AccNumber,LocNumber,Latitude,Longitude,BuildingTIV,ContentsTIV,LocPerilsCovered,LocCurrency';
const FAR = [
  '1,A1,SEATTLE,47.61,-122.33,1000000,0,WW1,USD',
  '1,A1,DENVER,39.74,-104.99,2000000,100000,WW1,USD',
  '1,A1,BOSTON,42.36,-71.06,500000,0,WW1,USD',
];
const FLORIDA = [...FAR, '1,A1,FTMYERS,26.64,-81.87,3000000,0,WW1,USD'];

interface Row {
  name: string;
  location_count: number;
  min_lng: number | null;
  min_lat: number | null;
  max_lng: number | null;
  max_lat: number | null;
}

async function rows(db: string): Promise<Row[]> {
  const store = await Store.open(db, { readOnly: true });
  try {
    return await store.all<Row>(
      'SELECT name, location_count, min_lng, min_lat, max_lng, max_lat FROM portfolios ORDER BY name',
    );
  } finally {
    await store.close();
  }
}

describe("a portfolio's box on its row", () => {
  let dir: string;
  let db: string;
  const run = (argv: string[]) => cli(['--db', db, ...argv], { CATINTEL_NOW: NOW });
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    dir = tempDir('catintel-extent-');
    db = path.join(dir, 'store.duckdb');
    for (const [name, lines] of [
      ['far', FAR],
      ['florida', FLORIDA],
    ] as const) {
      const file = path.join(dir, `${name}.csv`);
      fs.writeFileSync(file, [HEADER, ...lines].join('\n') + '\n');
      const r = await run(['--json', 'portfolio', 'import', file, '--name', name]);
      expect(r.code, r.stderr).toBe(0);
      ids[name] = r.json().id;
    }
    const ingest = await run(['--json', 'ingest', 'nhc', '--from', IAN]);
    expect(ingest.code, ingest.stderr).toBe(0);
  }, 120_000);

  const expected = [
    { name: 'far', location_count: 3, min_lng: -122.33, min_lat: 39.74, max_lng: -71.06, max_lat: 47.61 },
    { name: 'florida', location_count: 4, min_lng: -122.33, min_lat: 26.64, max_lng: -71.06, max_lat: 47.61 },
  ];

  it('import writes the box around the locations', async () => {
    expect(await rows(db)).toEqual(expected);
  });

  it('exposure answers from it: the far book is reached by no live ring, the Florida one by Ian', async () => {
    const far = await run(['--json', 'portfolio', 'exposure', ids.far]);
    expect(far.code, far.stderr).toBe(0);
    expect(far.json()).toMatchObject({ NumLocations: 3, NumLocationsExposed: 0, events: [] });
    const florida = await run(['--json', 'portfolio', 'exposure', ids.florida]);
    expect(florida.code, florida.stderr).toBe(0);
    expect(florida.json()).toMatchObject({ NumLocations: 4, NumLocationsExposed: 1 });
    expect(florida.json().events[0].rings.flatMap((r: any) => r.Locations.map((l: any) => l.LocationId))).toEqual([
      'FTMYERS',
    ]);
  });

  it('a store from before migration 11 gets the boxes of the portfolios it holds when it is next opened for writing', async () => {
    const old = path.join(dir, 'old.duckdb');
    fs.copyFileSync(db, old);
    // The store as migration 9 left it: no box columns, no record of migration 11.
    const store = await Store.open(old);
    await store.run('DELETE FROM schema_migrations WHERE version = 11');
    for (const c of ['min_lng', 'min_lat', 'max_lng', 'max_lat'])
      await store.run(`ALTER TABLE portfolios DROP COLUMN ${c}`);
    await store.close();
    const reopened = await Store.open(old);
    expect(await reopened.schemaVersion()).toBe(migrations.at(-1)!.version);
    await reopened.close();
    expect(await rows(old)).toEqual(expected);
    const far = await cli(['--db', old, '--json', 'portfolio', 'exposure', ids.far], { CATINTEL_NOW: NOW });
    expect(far.code, far.stderr).toBe(0);
    expect(far.json()).toMatchObject({ NumLocations: 3, NumLocationsExposed: 0, events: [] });
  });
});
