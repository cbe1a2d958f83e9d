/**
 * Storm-surge (OED WSS) exposure only where surge can reach (issue 28, item 8), on the real Hurricane Ian
 * best track (../shared/data/hazard_history/hurricanes/bal092022.dat) read at 2022-09-29 03:32Z. Orlando
 * (28.54N 81.38W) lies inside Ian's 34-kt ring then, 69 km from the nearest sea coast: wind reaches it, surge
 * does not. Fort Myers Beach (26.45N 81.95W) is on the Gulf shore: both do.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli, tempDir } from './helpers/cli.js';
import { sharedData } from './helpers/paths.js';

const NOW = '2022-09-29T03:32:09Z';
const env = { CATINTEL_NOW: NOW };
const IAN = sharedData('hazard_history/hurricanes/bal092022.dat');
const HEADER =
  'PortNumber,AccNumber,LocNumber,Latitude,Longitude,OccupancyCode,ConstructionCode,BuildingTIV,ContentsTIV,BITIV,LocPerilsCovered,LocCurrency,CountryCode';

describe("surge exposure of inland and coastal locations inside Ian's wind rings", () => {
  let db: string;
  let portfolioId: string;
  const run = (argv: string[]) => cli(['--db', db, ...argv], env);

  beforeAll(async () => {
    const dir = tempDir('catintel-surge-');
    db = path.join(dir, 'ian.duckdb');
    const ingest = await run(['ingest', 'nhc', '--from', IAN]);
    expect(ingest.code, ingest.stderr).toBe(0);
    const csv = path.join(dir, 'book.csv');
    fs.writeFileSync(
      csv,
      [
        HEADER,
        '1,A1,ORLANDO,28.54,-81.38,1100,5100,2000000,0,0,WW1,USD,US',
        '1,A1,FMBEACH,26.45,-81.95,1050,5050,1000000,0,0,WW1,USD,US',
        // Insured for surge alone, inland: inside the wind ring, exposed to nothing that reaches it.
        '1,A1,ORLANDO-WSS,28.54,-81.38,1100,5100,500000,0,0,WSS,USD,US',
      ].join('\n') + '\n',
    );
    const r = await run(['portfolio', 'import', csv, '--name', 'Surge book', '--json']);
    expect(r.code, r.stderr).toBe(0);
    portfolioId = r.json().id;
  }, 120_000);

  it('Orlando gets wind exposure and no surge exposure; Fort Myers Beach gets both', async () => {
    const r = await run(['portfolio', 'exposure', portfolioId, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const e = r.json().events[0];
    expect(e.title).toBe('Hurricane Ian (AL09 2022)');
    const sum = (code: string) =>
      e.rings.reduce((s: number, ring: any) => s + ring.ByPeril.find((p: any) => p.PerilCd === code).NumLocations, 0);
    const located = e.rings.flatMap((ring: any) => ring.Locations.map((l: any) => l.LocationId)).sort();
    expect(located).toEqual(['FMBEACH', 'ORLANDO']);
    expect(sum('WTC')).toBe(2);
    expect(sum('WSS')).toBe(1);
    const wss = e.rings.flatMap((ring: any) =>
      ring.ByPeril.filter((p: any) => p.PerilCd === 'WSS' && p.NumLocations > 0),
    );
    expect(wss).toEqual([expect.objectContaining({ NumLocations: 1, TotalInsuranceAmt: 1_000_000 })]);
    // The surge-only policy in Orlando is inside the ring but covered for nothing that reaches it.
    expect(e.NumLocationsNotCovered).toBe(1);
    expect(e.NumLocations).toBe(2);
  });

  it('event exposure counts the same: the surge-only inland policy adds no TIV to any ring', async () => {
    const r = await run(['events', 'exposure', 'AL092022', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const outer = r.json().rings.at(-1);
    expect(outer.portfolio_tiv).toEqual([
      expect.objectContaining({ CurCd: 'USD', NumLocations: 2, TotalInsuranceAmt: 3_000_000 }),
    ]);
  });
});
