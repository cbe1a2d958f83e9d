/**
 * Portfolios and saved locations over HTTP (issue 11): JSON and OED CSV uploads, all or nothing, 404 for
 * another account's portfolio, anonymous saved locations kept apart by client address, and alerts raised by
 * an ingest read once. Every response is validated against openapi.yaml by the harness.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestSource } from '../src/ingest/run.js';
import { sourceById } from '../src/sources/registry.js';
import { ChangeFeed } from '../src/stream/feed.js';
import type { Store } from '../src/store/db.js';
import { sharedData } from './helpers/paths.js';
import { contextOn, platform, seededStore, token, tokenAccount, type Platform } from './http/helpers/harness.js';

let db: Store;
let p: Platform;
let alice: string;
let bob: string;
beforeAll(async () => {
  db = await seededStore();
  p = await platform(db);
  alice = await token('agency', { sub: 'alice@example.com' });
  bob = await token('analyst', { sub: 'bob@example.com' });
}, 60_000);
afterAll(() => db.close());

// At the harness clock (2022-09-29 03:32Z) Ian is inland over central Florida.
const ORLANDO = {
  LocNumber: 'ORL-1',
  Latitude: 28.54,
  Longitude: -81.38,
  BuildingTIV: 1_500_000,
  ContentsTIV: 250_000,
  LocPerilsCovered: 'WW1',
};
const SEATTLE = {
  LocNumber: 'SEA-1',
  Latitude: 47.61,
  Longitude: -122.33,
  BuildingTIV: 900_000,
  LocPerilsCovered: 'QQ1',
};

describe('POST /portfolio', () => {
  it('creates from JSON (201, Location) and from an OED CSV upload; a re-send answers 200 with created false', async () => {
    const r = await p.call('/api/v1/portfolio', {
      token: alice,
      body: { name: 'json book', locations: [ORLANDO, SEATTLE] },
    });
    expect(r.status).toBe(201);
    expect(r.headers.get('location')).toBe(`/api/v1/portfolio/${r.body.id}`);
    expect(r.body).toMatchObject({
      source: 'json',
      NumLocations: 2,
      CurCd: 'USD',
      BldgInsuranceAmt: 2_400_000,
      TotalInsuranceAmt: 2_650_000,
      created: true,
    });
    const again = await p.call('/api/v1/portfolio', {
      token: alice,
      body: { name: 'json book', locations: [ORLANDO, SEATTLE] },
    });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ id: r.body.id, created: false });

    const csv =
      'locnumber;LATITUDE;longitude;BuildingTIV;LocPerilsCovered\nA;28.54;-81.38;100;WTC\nB;27.95;-82.46;200;wtc;\n';
    const semi = await p.call('/api/v1/portfolio?name=csv%20book', {
      token: alice,
      raw: csv.replace(';\n', '\n'),
      contentType: 'text/csv',
    });
    expect(semi.status, JSON.stringify(semi.body)).toBe(201);
    expect(semi.body).toMatchObject({ source: 'csv', NumLocations: 2, BldgInsuranceAmt: 300 });
    const page = await p.call(`/api/v1/portfolio/${semi.body.id}`, { token: alice });
    expect(page.body.locations.map((l: any) => [l.LocNumber, l.LocPerilsCovered])).toEqual([
      ['A', 'WTC'],
      ['B', 'WTC'],
    ]);
  });

  it('imports nothing from a body with a bad row, naming each (422), and asks a CSV upload for its name', async () => {
    const bad = await p.call('/api/v1/portfolio', {
      token: alice,
      body: { name: 'bad', locations: [ORLANDO, { ...SEATTLE, BuildingTIV: -5 }, { LocNumber: 'X', Longitude: -80 }] },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual([
      { field: 'locations[1].BuildingTIV', message: '-5 is negative; a TIV is at least 0' },
      { field: 'locations[2].Latitude', message: 'is required' },
    ]);
    const csvBad = await p.call('/api/v1/portfolio?name=x', {
      token: alice,
      raw: 'LocNumber,Latitude,Longitude\n1,25.7,-80.2\n2,25.7\n3,25.8,-80.3\n',
      contentType: 'text/csv',
    });
    expect(csvBad.status).toBe(422);
    expect(csvBad.body.errors).toEqual([{ field: 'row[2]', message: 'line 3: has 2 fields; the header has 3' }]);
    const noName = await p.call('/api/v1/portfolio', {
      token: alice,
      raw: 'LocNumber,Latitude,Longitude\n1,25.7,-80.2\n',
      contentType: 'text/csv',
    });
    expect(noName.status).toBe(400);
    const notCsv = await p.call('/api/v1/portfolio?name=x', {
      token: alice,
      raw: 'LocNumber,Latitude\n1,25.7\n',
      contentType: 'text/csv',
    });
    expect(notCsv.status).toBe(422);
    expect(notCsv.body.detail).toMatch(/^input the CSV body has no longitude column/);
    expect(notCsv.body.detail).not.toMatch(/\/tmp|catintel-portfolio-/);
    const names = (await p.call('/api/v1/portfolio', { token: alice })).body.portfolios.map((x: any) => x.name);
    expect(names.sort()).toEqual(['csv book', 'json book']);
  });
});

describe('account scoping', () => {
  it("another account's portfolio is 404 on every route, and its list is its own", async () => {
    const mine = (await p.call('/api/v1/portfolio', { token: alice })).body.portfolios.find(
      (x: any) => x.name === 'json book',
    ).id;
    expect((await p.call('/api/v1/portfolio', { token: bob })).body.numberMatched).toBe(0);
    expect((await p.call(`/api/v1/portfolio/${mine}`, { token: bob })).status).toBe(404);
    expect((await p.call(`/api/v1/portfolio/exposure?portfolio_id=${mine}`, { token: bob })).status).toBe(404);
    expect((await p.call(`/api/v1/portfolio/${mine}`, { token: bob, method: 'DELETE' })).status).toBe(404);
    expect((await p.call(`/api/v1/portfolio/${mine}`, { token: alice })).status).toBe(200);
    expect((await p.call('/api/v1/portfolio')).status).toBe(401);
  });
});

describe('anonymous saved locations and alerts', () => {
  const A = '198.51.100.7';
  const B = '203.0.113.9';
  let aHome: string;

  it("belong to the client address: two addresses never see each other's", async () => {
    const r = await p.call('/api/v1/locations', {
      ip: A,
      body: { name: 'Orlando home', lat: 28.54, lng: -81.38, radius_km: 10, perils: ['hurricane'] },
    });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ name: 'Orlando home', radius_km: 10, perils: ['hurricane'], notes: null });
    aHome = r.body.id;
    await p.call('/api/v1/locations', { ip: B, body: { name: 'Seattle', lat: 47.61, lng: -122.33 } });
    expect((await p.call('/api/v1/locations', { ip: A })).body.locations.map((l: any) => l.name)).toEqual([
      'Orlando home',
    ]);
    expect((await p.call('/api/v1/locations', { ip: B })).body.locations.map((l: any) => l.name)).toEqual(['Seattle']);
    expect((await p.call(`/api/v1/locations/${aHome}`, { ip: B, method: 'DELETE' })).status).toBe(404);
    // An account's saved locations are not the address's either.
    expect((await p.call('/api/v1/locations', { ip: A, token: alice })).body.count).toBe(0);
  });

  it('an ingest whose rings reach a location raises one alert, read by its address only; a second ingest none; mark_read empties it', async () => {
    const ian = sharedData('hazard_history/hurricanes/bal092022.dat');
    const aliceHome = (
      await p.call('/api/v1/locations', { token: alice, body: { name: 'Alice in Orlando', lat: 28.54, lng: -81.38 } })
    ).body.id;
    // The event stream's change feed, as `catintel serve` runs it: alerts of accounts go to their own streams only.
    const feed = new ChangeFeed(contextOn(db), { tickMs: 0 });
    await feed.start();
    const head = feed.headId;
    await ingestSource(contextOn(db), sourceById('nhc'), ian);
    await feed.refresh();
    const missed = feed.resume(head);
    expect(missed.kind).toBe('changes');
    const alertChanges = missed.kind === 'changes' ? missed.changes.filter((c) => /alert$/.test(c.body.type)) : [];
    expect(alertChanges.length).toBeGreaterThan(1);
    expect(new Set(alertChanges.map((c) => c.account))).toEqual(new Set([tokenAccount('alice@example.com')])); // never the anonymous address's
    expect(alertChanges.find((c) => c.body.type === 'location.alert')?.body).toMatchObject({
      location_id: aliceHome,
      name: 'Alice in Orlando',
    });
    expect(alertChanges.find((c) => c.body.type === 'portfolio.alert')?.body).toMatchObject({
      name: expect.any(String),
      CurCd: 'USD',
    });
    const a = await p.call('/api/v1/locations/alerts', { ip: A });
    expect(a.body.alerts).toHaveLength(1);
    expect(a.body.alerts[0]).toMatchObject({
      location_id: aHome,
      event_type: 'hurricane',
      event_title: 'Hurricane Ian (AL09 2022)',
    });
    expect(a.body.portfolio_alerts).toEqual([]);
    expect((await p.call('/api/v1/locations/alerts', { ip: B })).body.count).toBe(0);
    // Alice's JSON portfolio has Orlando insured for wind: her portfolio alerts carry the TIV inside.
    const pa = (await p.call('/api/v1/locations/alerts', { token: alice })).body.portfolio_alerts;
    expect(pa.length).toBeGreaterThan(0);
    expect(pa.find((x: any) => x.portfolio_name === 'json book')).toMatchObject({
      NumLocations: 1,
      BldgInsuranceAmt: 1_500_000,
      TotalInsuranceAmt: 1_750_000,
      CurCd: 'USD',
    });

    await ingestSource(contextOn(db), sourceById('nhc'), ian);
    expect((await p.call('/api/v1/locations/alerts', { ip: A })).body.count).toBe(1);
    const read = await p.call('/api/v1/locations/alerts?mark_read=true', { ip: A });
    expect(read.body).toMatchObject({ count: 1, marked_read: true });
    expect((await p.call('/api/v1/locations/alerts', { ip: A })).body.count).toBe(0);

    const x = await p.call('/api/v1/locations/exposure', { ip: A });
    expect(x.body.locations[0].events[0]).toMatchObject({ title: 'Hurricane Ian (AL09 2022)' });
  });

  it('caps saved locations at 100 per owner (422 for the 101st); removing one frees a slot', async () => {
    const carol = await token('agency', { sub: 'carol@example.com' });
    const ids: string[] = [];
    for (let i = 0; i < 100; i++) {
      const r = await p.call('/api/v1/locations', {
        token: carol,
        body: { name: `site ${i}`, lat: 30 + i / 100, lng: -90 },
      });
      expect(r.status).toBe(201);
      ids.push(r.body.id);
    }
    const over = await p.call('/api/v1/locations', { token: carol, body: { name: 'one too many', lat: 31, lng: -90 } });
    expect(over.status).toBe(422);
    expect(over.body.detail).toMatch(/at most 100 saved locations per account/);
    expect((await p.call(`/api/v1/locations/${ids[0]}`, { token: carol, method: 'DELETE' })).body).toMatchObject({
      id: ids[0],
      deleted: true,
    });
    expect(
      (await p.call('/api/v1/locations', { token: carol, body: { name: 'now fits', lat: 31, lng: -90 } })).status,
    ).toBe(201);
    // Another owner is not affected by carol's cap.
    expect(
      (await p.call('/api/v1/locations', { ip: '192.0.2.44', body: { name: 'elsewhere', lat: 31, lng: -90 } })).status,
    ).toBe(201);
  });

  it('portfolio exposure against the live Ian rings answers in the documented shape', async () => {
    const id = (await p.call('/api/v1/portfolio', { token: alice })).body.portfolios.find(
      (x: any) => x.name === 'json book',
    ).id;
    const x = await p.call(`/api/v1/portfolio/exposure?portfolio_id=${id}&locations_limit=1`, { token: alice });
    expect(x.status).toBe(200);
    const ian = x.body.events.find((e: any) => e.title === 'Hurricane Ian (AL09 2022)');
    expect(ian).toMatchObject({ NumLocations: 1, TotalInsuranceAmt: 1_750_000 });
    expect(x.body.NumLocationsExposed).toBe(1);
  });
});
