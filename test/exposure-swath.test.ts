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
import { Store } from '../src/store/db.js';
import { cli, tempDir } from './helpers/cli.js';
import { sharedData } from './helpers/paths.js';
import { SECRET, contextOn, platform, token } from './http/helpers/harness.js';

const LANDFALL = '2022-09-28T19:30:00Z';
const LATER = '2022-09-29T03:32:09Z';
const IAN = sharedData('hazard_history/hurricanes/bal092022.dat');
const HEADER =
  'PortNumber,AccNumber,LocNumber,Latitude,Longitude,OccupancyCode,ConstructionCode,BuildingTIV,ContentsTIV,BITIV,LocPerilsCovered,LocCurrency,CountryCode';

/** 50 locations on a 5 x 10 grid over Lee County (Cape Coral, Fort Myers, Lehigh Acres, Bonita Springs), 100,000 each. */
function leeCountyBook(file: string): void {
  const rows: string[] = [];
  for (let i = 0; i < 5; i++) {
    for (let j = 0; j < 10; j++) {
      const lat = (26.4 + i * 0.09).toFixed(3);
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
    const id2 = (
      await runEarly(['portfolio', 'import', path.join(dir, 'lee.csv'), '--name', 'Lee County', '--json'])
    ).json().id;
    const x2 = (await runEarly(['portfolio', 'exposure', id2, '--json'])).json();
    expect(ring64(x2.events[0].rings).Cumulative.NumLocations).toBe(50);
  });

  it('a Fort Myers location alerted at 19:30Z stays alerted and inside so far at 03:32Z; a store first read at 03:32Z alerts it from the swath', async () => {
    const db = path.join(dir, 'alerts.duckdb');
    const add = [
      'locations',
      'add',
      '--name',
      'Fort Myers office',
      '--lat',
      '26.64',
      '--lng',
      '-81.87',
      '--radius-km',
      '1',
      '--json',
    ];
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

  it("the event's own exposure at 03:32Z: the whole book's TIV inside the 64-kt swath so far, fewer now; over HTTP it conforms to openapi.yaml", async () => {
    const db = path.join(dir, 'event.duckdb');
    // The CLI acts for the account the token names over HTTP, so the book is the HTTP caller's.
    const dana = await token('analyst', { sub: 'dana@example.com' });
    const run = (argv: string[]) =>
      cli(['--db', db, ...argv], { CATINTEL_NOW: LATER, CATINTEL_TOKEN: dana, CATINTEL_JWT_SECRET: SECRET });
    expect((await run(['ingest', 'nhc', '--from', IAN])).code).toBe(0);
    expect((await run(['portfolio', 'import', path.join(dir, 'lee.csv'), '--name', 'Lee County', '--json'])).code).toBe(
      0,
    );

    const r = await run(['events', 'exposure', 'AL092022', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const x = r.json();
    const usd = (ring: any) =>
      ring.portfolio_tiv.find((t: any) => t.CurCd === 'USD') ?? { NumLocations: 0, TotalInsuranceAmt: 0 };
    const now64 = usd(ring64(x.rings));
    expect(now64.NumLocations).toBeGreaterThan(0);
    expect(now64.NumLocations).toBeLessThan(50);
    const swath64 = ring64(x.so_far.rings);
    expect(usd(swath64)).toMatchObject({ NumLocations: 50, TotalInsuranceAmt: 5_000_000 });
    expect(swath64).toMatchObject({ to: '2022-09-29T00:00:00Z', kind: ring64(x.rings).kind });
    expect(swath64.fixes).toBeGreaterThan(10);
    // The swath took in Lee and Charlotte counties, which the 64-kt ring has left; its population is over the
    // union (overlaps counted once), so the swath ring's area is less than the sum of the fixes' rings.
    const fips = swath64.population.counties.map((c: any) => c.fips);
    expect(fips).toEqual(expect.arrayContaining(['12071', '12015']));
    expect(swath64.population.population).toBeGreaterThan(ring64(x.rings).population.population);
    expect(swath64.population.ring_area_km2).toBeGreaterThan(ring64(x.rings).population.ring_area_km2);
    for (const ring of x.so_far.rings) {
      expect(ring.population.counties.reduce((s: number, c: any) => s + c.population, 0)).toBe(
        ring.population.population,
      );
      expect(ring.infrastructure.counts.fire_station, 'no fire station data in Florida: not covered, not 0').toBeNull();
    }
    expect(x.so_far.ring_count).toBe(x.so_far.rings.length);
    expect(x.method.so_far).toMatch(/union/);

    const text = await run(['events', 'exposure', 'AL092022']);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/so far/i);
    expect(text.stdout).toMatch(/5,000,000 USD/);

    // The same answer over HTTP, checked against openapi.yaml by the harness (so_far is required there).
    const store = await Store.open(db);
    try {
      const p = await platform(store, { rateLimit: 'off', ctx: { ...contextOn(store), clock: () => new Date(LATER) } });
      const http = await p.call('/api/v1/events/AL092022/exposure', { token: dana });
      expect(http.status).toBe(200);
      expect(http.body.so_far.rings.map(usd)).toEqual(x.so_far.rings.map(usd));
    } finally {
      await store.close();
    }
  }, 90_000); // the whole book against the swath at several instants: 26 s on a loaded machine
});
