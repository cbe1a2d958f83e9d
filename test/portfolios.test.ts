/**
 * Portfolios and saved locations from the CLI (issue 11) on the real Hurricane Ian 2022 best track
 * (../shared/data/hazard_history/hurricanes/bal092022.dat) read at 2022-09-28 21:00Z. The latest fix then is
 * 20:35Z at 26.8N 82.0W with wind radii (nm, NE/SE/SW/NW) 64 kt 30/40/30/45, 50 kt 50/60/70/80, 34 kt
 * 130/150/100/150. A person would place: Fort Myers (26.64N 81.87W, ~21 km SE of the centre) inside
 * hurricane-force winds (SE 40 nm = 74 km); Naples (26.14N 81.79W, ~76 km SSE) past them but inside 50 kt
 * (SE 60 nm = 111 km); Tampa (27.95N 82.46W, ~135 km NNW) inside 50 kt (NW 80 nm = 148 km); Miami
 * (25.76N 80.19W, ~210 km SE) inside 34 kt only (SE 150 nm = 278 km).
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli, tempDir } from './helpers/cli.js';
import { sharedData } from './helpers/paths.js';
import { tivByRing } from '../src/portfolios/exposure.js';
import { Store } from '../src/store/db.js';

const NOW = '2022-09-28T21:00:00Z';
const env = { CATINTEL_NOW: NOW };
const IAN = sharedData('hazard_history/hurricanes/bal092022.dat');
const HEADER =
  'PortNumber,AccNumber,LocNumber,Latitude,Longitude,OccupancyCode,ConstructionCode,BuildingTIV,ContentsTIV,BITIV,LocPerilsCovered,LocCurrency,CountryCode';
const ROWS = [
  '1,A1,FTMYERS,26.64,-81.87,1050,5050,1000000,200000,50000,WW1,USD,US',
  '1,A1,NAPLES,26.14,-81.79,1100,5100,2000000,0,0,WTC,USD,US',
  '1,A1,TAMPA,27.95,-82.46,1100,5150,500000,100000,25000,AA1,USD,US',
  '1,A1,MIAMI,25.76,-80.19,1100,5200,3000000,400000,0,WW1,USD,US',
  // Insured for earthquake only: inside the hurricane's rings, but not exposed to it.
  '1,A1,FTMYERS-EQ,26.64,-81.87,1050,5050,700000,0,0,QQ1,USD,US',
];

describe('portfolios and saved locations on Hurricane Ian (2022)', () => {
  let dir: string;
  let db: string;
  const run = (argv: string[], e: Record<string, string> = env) => cli(['--db', db, ...argv], e);
  let portfolioId: string;
  let homeId: string;

  beforeAll(async () => {
    dir = tempDir('catintel-portfolios-');
    db = path.join(dir, 'ian.duckdb');
    // Saved before the ingest, so the ingest raises their alerts.
    const home = await run([
      'locations',
      'add',
      '--name',
      'Fort Myers home',
      '--lat',
      '26.64',
      '--lng',
      '-81.87',
      '--json',
    ]);
    expect(home.code, home.stderr).toBe(0);
    homeId = home.json().id;
    const far = await run([
      'locations',
      'add',
      '--name',
      'Denver',
      '--lat',
      '39.74',
      '--lng',
      '-104.99',
      '--radius-km',
      '100',
      '--json',
    ]);
    expect(far.code, far.stderr).toBe(0);
  }, 60_000);

  it('a file with bad rows in the middle imports nothing and names every bad row, field and reason', async () => {
    const bad = path.join(dir, 'bad.csv');
    const rows = [...ROWS];
    rows.splice(
      2,
      0,
      '1,A1,BAD1,26.5,-81.9,1050,5050,12O000,0,0,WW1,USD,US',
      '1,A1,BAD2,126.5,-81.9,1050,5050,1,0,0,XYZ,USD,US',
    );
    fs.writeFileSync(bad, [HEADER, ...rows].join('\n') + '\n');
    const r = await run(['portfolio', 'import', bad, '--name', 'Florida book', '--json']);
    expect(r.code).toBe(2);
    // stderr: progress lines (NDJSON), then the problem object.
    const problem = JSON.parse(r.stderr.trim().split('\n').pop()!);
    expect(problem.code).toBe('validation_failed');
    expect(problem.detail).toMatch(/^nothing was imported: 2 of 7 location rows are invalid/);
    expect(problem.errors).toEqual([
      {
        field: 'row[3].BuildingTIV',
        message: 'line 4: "12O000" is not a number (plain decimal, no separators or currency signs)',
      },
      { field: 'row[4].Latitude', message: 'line 5: 126.5 is out of range [-90, 90]' },
      {
        field: 'row[4].LocPerilsCovered',
        message: expect.stringMatching(/^line 5: "XYZ" is not an OED peril code or group/),
      },
    ]);
    const human = await run(['portfolio', 'import', bad, '--name', 'Florida book']);
    expect(human.stderr).toMatch(/row\[3\]\.BuildingTIV: line 4: "12O000" is not a number/);
    const list = (await run(['portfolio', 'list', '--json'])).json();
    expect(list.numberMatched).toBe(0);
  });

  it('the same file fixed imports (once: a re-run answers the stored portfolio), lists with nested locations and pages', async () => {
    const good = path.join(dir, 'good.csv');
    // Headers in any case, as ods-tools reads them.
    fs.writeFileSync(
      good,
      [HEADER.replace('Latitude', 'LATITUDE').replace('BuildingTIV', 'buildingtiv'), ...ROWS].join('\r\n') + '\r\n',
    );
    const r = await run(['portfolio', 'import', good, '--name', 'Florida book', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const p = r.json();
    expect(p).toMatchObject({
      name: 'Florida book',
      source: 'csv',
      created: true,
      NumLocations: 5,
      CurCd: 'USD',
      BldgInsuranceAmt: 7_200_000,
      ContentsInsuranceAmt: 700_000,
      BIInsuranceAmt: 75_000,
      TotalInsuranceAmt: 7_975_000,
    });
    portfolioId = p.id;
    const again = (await run(['portfolio', 'import', good, '--name', 'Florida book', '--json'])).json();
    expect(again).toMatchObject({ id: portfolioId, created: false });

    const list = (await run(['portfolio', 'list', '--locations-limit', '2', '--json'])).json();
    expect(list).toMatchObject({ numberMatched: 1, numberReturned: 1 });
    expect(list.portfolios[0].locations.map((l: any) => l.LocNumber)).toEqual(['FTMYERS', 'NAPLES']);
    expect(list.portfolios[0].locations[0]).toEqual({
      LocNumber: 'FTMYERS',
      Latitude: 26.64,
      Longitude: -81.87,
      OccupancyCode: 1050,
      ConstructionCode: 5050,
      BuildingTIV: 1_000_000,
      ContentsTIV: 200_000,
      BITIV: 50_000,
      OtherTIV: 0,
      LocPerilsCovered: 'WW1',
      LocCurrency: 'USD',
      row: 1,
    });
    const next = list.portfolios[0].locations_next as string;
    const cursor = new URL(next, 'http://x').searchParams.get('cursor')!;
    const page2 = (await run(['portfolio', 'show', portfolioId, '--limit', '2', '--cursor', cursor, '--json'])).json();
    expect(page2.locations.map((l: any) => l.LocNumber)).toEqual(['TAMPA', 'MIAMI']);
    expect(page2.numberMatched).toBe(5);
  });

  it('the ingest raises exactly one alert for the saved location (its innermost ring) and one per ring for the portfolio; a second ingest none', async () => {
    const ingest = await run(['ingest', 'nhc', '--from', IAN]);
    expect(ingest.code, ingest.stderr).toBe(0);
    const alerts = (await run(['locations', 'alerts', '--json'])).json();
    expect(alerts.alerts).toHaveLength(1);
    expect(alerts.alerts[0]).toMatchObject({
      location_id: homeId,
      event_type: 'hurricane',
      event_title: 'Hurricane Ian (AL09 2022)',
      ring_label: '64 kt (hurricane-force) winds',
      distance_km: 0,
      raised_at: NOW,
    });
    // The portfolio: one alert per ring, with the TIV of its covered locations inside the ring.
    const byRing = Object.fromEntries(
      alerts.portfolio_alerts.map((a: any) => [a.ring_label, [a.NumLocations, a.TotalInsuranceAmt]]),
    );
    expect(byRing).toEqual({
      '64 kt (hurricane-force) winds': [1, 1_250_000],
      '50 kt (strong tropical-storm-force) winds': [3, 1_250_000 + 2_000_000 + 625_000],
      '34 kt (tropical-storm-force) winds': [4, 1_250_000 + 2_000_000 + 625_000 + 3_400_000],
    });

    expect((await run(['ingest', 'nhc', '--from', IAN])).code).toBe(0);
    const still = (await run(['locations', 'alerts', '--mark-read', '--json'])).json();
    expect(still.count).toBe(4);
    expect(still.marked_read).toBe(true);
    expect((await run(['locations', 'alerts', '--json'])).json().count).toBe(0);
    expect((await run(['ingest', 'nhc', '--from', IAN])).code).toBe(0);
    expect((await run(['locations', 'alerts', '--json'])).json().count).toBe(0);
  });

  it('exposure puts each location in the ring the b-deck radii say, counts only covered locations, and the bands add up', async () => {
    const r = await run(['portfolio', 'exposure', portfolioId, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const x = r.json();
    expect(x).toMatchObject({
      PortfolioId: portfolioId,
      PortfolioName: 'Florida book',
      CurCd: 'USD',
      as_of: NOW,
      NumLocations: 5,
      NumLocationsExposed: 4,
    });
    expect(x.events).toHaveLength(1);
    const e = x.events[0];
    expect(e).toMatchObject({
      title: 'Hurricane Ian (AL09 2022)',
      event_type: 'hurricane',
      status: 'active',
      PerilCds: ['WTC', 'WSS'],
      NumLocations: 4,
      NumLocationsNotCovered: 1,
    });
    expect(e.provenance).toMatchObject({
      source: 'nhc',
      source_url: 'https://ftp.nhc.noaa.gov/atcf/btk/bal092022.dat',
      updated_at: '2022-09-28T20:35:00Z',
    });
    const bands = e.rings.map((ring: any) => [ring.label, ring.Locations.map((l: any) => l.LocationId)]);
    expect(bands).toEqual([
      ['64 kt (hurricane-force) winds', ['FTMYERS']],
      ['50 kt (strong tropical-storm-force) winds', ['NAPLES', 'TAMPA']],
      ['34 kt (tropical-storm-force) winds', ['MIAMI']],
    ]);
    for (const k of [
      'BldgInsuranceAmt',
      'ContentsInsuranceAmt',
      'BIInsuranceAmt',
      'OtherInsuranceAmt',
      'TotalInsuranceAmt',
    ]) {
      expect(e.rings.reduce((s: number, ring: any) => s + ring[k], 0)).toBeCloseTo(e[k], 2);
    }
    expect(e.TotalInsuranceAmt).toBe(1_250_000 + 2_000_000 + 625_000 + 3_400_000);
    expect(e.rings[1]).toMatchObject({
      NumLocations: 2,
      BldgInsuranceAmt: 2_500_000,
      ContentsInsuranceAmt: 100_000,
      BIInsuranceAmt: 25_000,
      TotalInsuranceAmt: 2_625_000,
    });
    // Naples covers WTC only: storm surge counts the others.
    expect(e.rings[1].ByPeril).toEqual([
      {
        PerilCd: 'WTC',
        NumLocations: 2,
        BldgInsuranceAmt: 2_500_000,
        ContentsInsuranceAmt: 100_000,
        BIInsuranceAmt: 25_000,
        OtherInsuranceAmt: 0,
        TotalInsuranceAmt: 2_625_000,
      },
      {
        PerilCd: 'WSS',
        NumLocations: 1,
        BldgInsuranceAmt: 500_000,
        ContentsInsuranceAmt: 100_000,
        BIInsuranceAmt: 25_000,
        OtherInsuranceAmt: 0,
        TotalInsuranceAmt: 625_000,
      },
    ]);
    expect(e.rings[2].Cumulative).toMatchObject({ NumLocations: 4, TotalInsuranceAmt: e.TotalInsuranceAmt });
  });

  it("tivByRing (for event intelligence) gives the account's covered TIV inside each ring of the event", async () => {
    const rings = (await run(['events', 'rings', 'al092022', '--json']))
      .json()
      .features.map((f: any) => ({ ring_id: f.properties.ring_id, geojson: f.geometry }));
    const store = await Store.open(db);
    try {
      const local = await tivByRing(store, 'local', 'hurricane', rings);
      expect(
        local.map((r) => r.by_currency.map((c) => [c.CurCd, c.NumLocations, c.NumPortfolios, c.TotalInsuranceAmt])),
      ).toEqual([
        [['USD', 1, 1, 1_250_000]],
        [['USD', 3, 1, 1_250_000 + 2_000_000 + 625_000]],
        [['USD', 4, 1, 1_250_000 + 2_000_000 + 625_000 + 3_400_000]],
      ]);
      expect((await tivByRing(store, 'local', 'earthquake', rings))[0].by_currency).toEqual([
        {
          CurCd: 'USD',
          NumLocations: 1,
          NumPortfolios: 1,
          BldgInsuranceAmt: 700_000,
          ContentsInsuranceAmt: 0,
          BIInsuranceAmt: 0,
          OtherInsuranceAmt: 0,
          TotalInsuranceAmt: 700_000,
        },
      ]);
      expect(
        (await tivByRing(store, 'bob@example.com', 'hurricane', rings)).every((r) => r.by_currency.length === 0),
      ).toBe(true);
    } finally {
      await store.close();
    }
  });

  it('saved-location exposure lists the event with its rings innermost first; a far location has none', async () => {
    const x = (await run(['locations', 'exposure', '--json'])).json();
    expect(x).toMatchObject({ count: 2, reached: 1 });
    const home = x.locations.find((l: any) => l.location.id === homeId);
    expect(home.events).toHaveLength(1);
    expect(home.events[0].rings.map((r: any) => [r.ordinal, r.inside])).toEqual([
      [0, true],
      [1, true],
      [2, true],
    ]);
    expect(x.locations.find((l: any) => l.location.name === 'Denver').events).toEqual([]);
  });

  it('another account never sees the portfolio (404, exit 2), and its saved locations are its own', async () => {
    const bob = (argv: string[]) => run([...argv, '--account', 'bob@example.com']);
    expect((await bob(['portfolio', 'list', '--json'])).json().numberMatched).toBe(0);
    for (const argv of [
      ['portfolio', 'show', portfolioId],
      ['portfolio', 'exposure', portfolioId],
      ['portfolio', 'delete', portfolioId],
    ]) {
      const r = await bob([...argv, '--json']);
      expect(r.code).toBe(2);
      expect(JSON.parse(r.stderr)).toMatchObject({ status: 404, code: 'not_found' });
    }
    expect((await bob(['locations', 'list', '--json'])).json().count).toBe(0);
    const rm = await bob(['locations', 'remove', homeId, '--json']);
    expect(JSON.parse(rm.stderr)).toMatchObject({ status: 404 });
    expect((await run(['locations', 'list', '--json'])).json().count).toBe(2);
  });

  it('refuses bad saved locations with every bad field', async () => {
    const r = await run([
      'locations',
      'add',
      '--name',
      '',
      '--lat',
      '91',
      '--lng',
      'east',
      '--perils',
      'hurricane,meteor',
      '--json',
    ]);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stderr).errors.map((e: any) => e.field)).toEqual(['name', 'lat', 'lng', 'perils']);
  });

  it('delete removes the portfolio, its locations and its alerts', async () => {
    const r = await run(['portfolio', 'delete', portfolioId, '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json()).toMatchObject({ id: portfolioId, deleted: true });
    expect((await run(['portfolio', 'show', portfolioId])).code).toBe(2);
    expect((await run(['portfolio', 'list', '--json'])).json().numberMatched).toBe(0);
  });
});

describe('saved-location alerts as Ian moves inland (one per ring reached, never twice)', () => {
  it('alerts when the 34-kt ring first reaches Orlando, again only when the 50-kt ring does', async () => {
    const db = path.join(tempDir('catintel-alerts-'), 'ian.duckdb');
    const at = (t: string) => ({ CATINTEL_NOW: t });
    expect(
      (
        await cli(
          [
            '--db',
            db,
            'locations',
            'add',
            '--name',
            'Orlando',
            '--lat',
            '28.54',
            '--lng',
            '-81.38',
            '--radius-km',
            '1',
          ],
          at('2022-09-27T00:00:00Z'),
        )
      ).code,
    ).toBe(0);
    const seen: Record<string, string[]> = {};
    // The b-deck as known at each instant: Ian's 34-kt winds reach Orlando by 18Z on the 28th, its 50-kt winds by 06Z on the 29th.
    for (const t of [
      '2022-09-28T12:00:00Z',
      '2022-09-28T18:00:00Z',
      '2022-09-29T00:00:00Z',
      '2022-09-29T06:00:00Z',
      '2022-09-29T12:00:00Z',
    ]) {
      expect((await cli(['--db', db, 'ingest', 'nhc', '--from', IAN], at(t))).code).toBe(0);
      seen[t] = (await cli(['--db', db, '--json', 'locations', 'alerts', '--mark-read'], at(t)))
        .json()
        .alerts.map((a: any) => `${a.ring_label.slice(0, 5)} ${a.distance_km} ${a.raised_at}`);
    }
    expect(seen).toEqual({
      '2022-09-28T12:00:00Z': [],
      '2022-09-28T18:00:00Z': ['34 kt 0 2022-09-28T18:00:00Z'],
      '2022-09-29T00:00:00Z': [],
      '2022-09-29T06:00:00Z': ['50 kt 0 2022-09-29T06:00:00Z'],
      '2022-09-29T12:00:00Z': [],
    });
  }, 60_000);
});
