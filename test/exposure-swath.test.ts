/**
 * Exposure over the swath, not only the latest position (issue 28, item 6), on the real Hurricane Ian best
 * track (../shared/data/hazard_history/hurricanes/bal092022.dat). A 50-location Lee County book is wholly
 * inside Ian's 64-kt ring at 2022-09-28 19:30Z (the 19:05Z landfall fix); at 2022-09-29 03:32Z the rings
 * follow the 00Z fix inland near Wauchula and only a few are. "Now" stays the rings at the clock; "so far"
 * is the union of the rings over every fix up to it, which still holds all 50.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli, tempDir } from './helpers/cli.js';
import { sharedData } from './helpers/paths.js';

const LANDFALL = '2022-09-28T19:30:00Z';
const LATER = '2022-09-29T03:32:09Z';
const IAN = sharedData('hazard_history/hurricanes/bal092022.dat');
const HEADER = 'PortNumber,AccNumber,LocNumber,Latitude,Longitude,OccupancyCode,ConstructionCode,BuildingTIV,ContentsTIV,BITIV,LocPerilsCovered,LocCurrency,CountryCode';

/** 50 locations on a 5 x 10 grid over Lee County (Cape Coral, Fort Myers, Lehigh Acres, Bonita Springs), 100,000 each. */
function leeCountyBook(file: string): void {
  const rows: string[] = [];
  for (let i = 0; i < 5; i++) {
    for (let j = 0; j < 10; j++) {
      const lat = (26.40 + i * 0.09).toFixed(3);
      const lng = (-82.02 + j * 0.038).toFixed(3);
      rows.push(`1,LEE,LEE-${i}-${j},${lat},${lng},1050,5050,100000,0,0,WW1,USD,US`);
    }
  }
  fs.writeFileSync(file, [HEADER, ...rows].join('\n') + '\n');
}

const ring64 = (rings: any[]) => rings.find((r: any) => r.threshold === 64);

describe('Ian over a Lee County book: now and so far', () => {
  let dir: string;
  const at = (db: string, now: string) => (argv: string[]) => cli(['--db', db, ...argv], { CATINTEL_NOW: now });

  beforeAll(() => {
    dir = tempDir('catintel-swath-');
    leeCountyBook(path.join(dir, 'lee.csv'));
  });

  it('at 19:30Z all 50 are inside the 64-kt ring now; read at 03:32Z, a few are now and all 50 so far', async () => {
    const db = path.join(dir, 'later.duckdb');
    const run = at(db, LATER);
    const ingest = await run(['ingest', 'nhc', '--from', IAN]);
    expect(ingest.code, ingest.stderr).toBe(0);
    const imported = await run(['portfolio', 'import', path.join(dir, 'lee.csv'), '--name', 'Lee County', '--json']);
    expect(imported.code, imported.stderr).toBe(0);
    const id = imported.json().id;

    const r = await run(['portfolio', 'exposure', id, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const x = r.json();
    const e = x.events.find((ev: any) => ev.title === 'Hurricane Ian (AL09 2022)');
    const now64 = ring64(e.rings).Cumulative.NumLocations;
    const soFar64 = ring64(e.so_far.rings);
    expect(now64).toBeGreaterThan(0);
    expect(now64).toBeLessThanOrEqual(10);
    expect(soFar64.Cumulative).toMatchObject({ NumLocations: 50, TotalInsuranceAmt: 5_000_000 });
    expect(soFar64.fixes).toBeGreaterThan(10);
    expect(soFar64.to).toBe('2022-09-29T00:00:00Z');
    expect(e.so_far.NumLocations).toBe(50);
    expect(x.so_far.NumLocationsExposed).toBe(50);
    // The human text says both.
    const text = await run(['portfolio', 'exposure', id]);
    expect(text.stdout).toMatch(/so far/i);

    // The same book read at landfall: all 50 inside the 64-kt ring now.
    const early = path.join(dir, 'landfall.duckdb');
    const runEarly = at(early, LANDFALL);
    expect((await runEarly(['ingest', 'nhc', '--from', IAN])).code).toBe(0);
    const id2 = (await runEarly(['portfolio', 'import', path.join(dir, 'lee.csv'), '--name', 'Lee County', '--json'])).json().id;
    const x2 = (await runEarly(['portfolio', 'exposure', id2, '--json'])).json();
    expect(ring64(x2.events[0].rings).Cumulative.NumLocations).toBe(50);
  });

  it('a Fort Myers location alerted at 19:30Z stays alerted and inside so far at 03:32Z; a store first read at 03:32Z alerts it from the swath', async () => {
    const db = path.join(dir, 'alerts.duckdb');
    const add = ['locations', 'add', '--name', 'Fort Myers office', '--lat', '26.64', '--lng', '-81.87', '--radius-km', '1', '--json'];
    expect((await at(db, LANDFALL)(add)).code).toBe(0);
    expect((await at(db, LANDFALL)(['ingest', 'nhc', '--from', IAN])).code).toBe(0);
    const first = (await at(db, LANDFALL)(['locations', 'alerts', '--json'])).json();
    expect(first.alerts.map((a: any) => a.ring_label)).toEqual(['64 kt (hurricane-force) winds']);

    const later = at(db, LATER);
    expect((await later(['ingest', 'nhc', '--from', IAN])).code).toBe(0);
    const still = (await later(['locations', 'alerts', '--json'])).json();
    expect(still.alerts).toHaveLength(1);
    const x = (await later(['locations', 'exposure', '--json'])).json();
    expect(x).toMatchObject({ count: 1, reached_so_far: 1 });
    const ian = x.locations[0].events.find((e: any) => e.title === 'Hurricane Ian (AL09 2022)');
    expect(ring64(ian.so_far.rings)).toMatchObject({ inside: true, distance_km: 0 });
    expect(ring64(ian.rings)?.inside ?? false).toBe(false); // the 64-kt ring has moved on

    // A store that first reads the best track at 03:32Z: the swath raises the alert the storm earned.
    const fresh = path.join(dir, 'fresh.duckdb');
    expect((await at(fresh, LATER)(add)).code).toBe(0);
    expect((await at(fresh, LATER)(['ingest', 'nhc', '--from', IAN])).code).toBe(0);
    const raised = (await at(fresh, LATER)(['locations', 'alerts', '--json'])).json();
    expect(raised.alerts.map((a: any) => a.ring_label)).toEqual(['64 kt (hurricane-force) winds']);
  });
});
