/**
 * The EP curve and portfolio exposure in Arrow (issue 35): `--format arrow --out FILE` in the CLI and
 * `Accept: application/vnd.apache.arrow.stream` over HTTP, read back with apache-arrow and compared with
 * the JSON answer of the same request: the JSON's names, real types (ids and text utf8, times
 * timestamp[ms, UTC], counts int64, money float64 with the currency in the field's metadata) and values.
 * Exposure runs on the real USGS day feed (a book at the epicentre of a live quake that has rings), the EP
 * curve on 100 Miami-Dade homes through the test hurricane package.
 */
import fs from 'node:fs';
import path from 'node:path';
import { tableFromIPC, Type, type Table } from 'apache-arrow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../src/config/defaults.js';
import type { Store } from '../src/store/db.js';
import { cli, tempDir } from './helpers/cli.js';
import { testModels } from './helpers/model-packages.js';
import { sharedData } from './helpers/paths.js';
import { seedStore } from './helpers/store.js';
import { contextOn, FEED_NOW, platform, seededStore, token, type Platform } from './http/helpers/harness.js';

const ARROW = 'application/vnd.apache.arrow.stream';
const MONEY = ['BldgInsuranceAmt', 'ContentsInsuranceAmt', 'BIInsuranceAmt', 'OtherInsuranceAmt', 'TotalInsuranceAmt'];
const EP_MONEY = ['OEPLossAmt', 'AEPLossAmt', 'OEPTVaRAmt', 'AEPTVaRAmt'];

const typeOf = (t: Table, name: string) => {
  const f = t.schema.fields.find((x) => x.name === name);
  return f ? `${Type[f.type.typeId]}:${f.type.toString()}` : `no column ${name}`;
};
const currencyOf = (t: Table, name: string) => t.schema.fields.find((x) => x.name === name)?.metadata.get('currency');

/** An Arrow row's value as the JSON writes it: int64 as a number, a timestamp as its ISO instant. */
function asJson(v: unknown, name: string): unknown {
  if (typeof v === 'bigint') return Number(v);
  if (name.endsWith('_at') && v !== null) return new Date(Number(v)).toISOString().replace('.000Z', 'Z');
  return v;
}

/** The JSON's exposure flattened to the table's rows: one per event and ring. */
function exposureRows(body: any, columns: string[]): Record<string, unknown>[] {
  return body.events.flatMap((e: any) =>
    e.rings.map((r: any) =>
      Object.fromEntries(columns.map((c) => [c, c in r ? r[c] : e[c === 'event_id' ? 'event_id' : c]])),
    ),
  );
}

function expectExposureTable(t: Table, body: any): void {
  const columns = t.schema.fields.map((f) => f.name);
  expect(columns.slice(0, 3)).toEqual(['event_id', 'slug', 'title']);
  expect(columns.slice(-6)).toEqual(['NumLocations', ...MONEY]);
  const want = exposureRows(body, columns);
  expect(want.length).toBeGreaterThan(0);
  expect(t.numRows).toBe(want.length);
  expect(typeOf(t, 'event_id')).toBe('Utf8:Utf8');
  expect(typeOf(t, 'ring_id')).toBe('Utf8:Utf8');
  expect(typeOf(t, 'ingested_at')).toBe('Timestamp:Timestamp<MILLISECOND, UTC>');
  expect(typeOf(t, 'NumLocations')).toBe('Int:Int64');
  for (const m of MONEY) {
    expect(typeOf(t, m)).toBe('Float:Float64');
    expect(currencyOf(t, m), m).toBe(body.CurCd);
  }
  expect(t.schema.metadata.get('PortfolioId')).toBe(body.PortfolioId);
  expect(t.schema.metadata.get('NumLocationsExposed')).toBe(String(body.NumLocationsExposed));
  t.toArray().forEach((row, k) => {
    for (const c of columns) expect(asJson(row[c], c), `row ${k} ${c}`).toEqual(want[k][c]);
  });
}

function expectEpCurveTable(t: Table, body: any): void {
  expect(t.schema.fields.map((f) => f.name)).toEqual(Object.keys(body.curve[0]));
  expect(t.numRows).toBe(body.curve.length);
  expect(typeOf(t, 'ReturnPeriod')).toBe('Int:Int64');
  expect(typeOf(t, 'ExceedanceProbability')).toBe('Float:Float64');
  for (const m of EP_MONEY) {
    expect(typeOf(t, m)).toBe('Float:Float64');
    expect(currencyOf(t, m), m).toBe('USD');
  }
  for (const k of ['perspective', 'EPCalc', 'AALAmt', 'samples', 'seed'])
    expect(t.schema.metadata.get(k), k).toBe(String(body[k]));
  t.toArray().forEach((row, k) => {
    for (const [c, v] of Object.entries(body.curve[k])) expect(asJson(row[c], c), `${c} at row ${k}`).toEqual(v);
  });
}

let dir: string;
beforeAll(() => {
  dir = tempDir('catintel-answer-arrow-');
});

/**
 * The day feed's in-memory store the HTTP tests share (each under a user of its own): ingested once for the
 * file, not once a test; closed after the last.
 */
let dayStore: Promise<Store> | undefined;
const sharedDayStore = () => (dayStore ??= seededStore());
afterAll(async () => (await dayStore)?.close());

/** The JSON's locations exposure flattened to the table's rows: one per location, event and ring reaching it now. */
function expectLocationsTable(t: Table, body: any): void {
  const want = body.locations.flatMap((x: any) =>
    x.events.flatMap((e: any) =>
      e.rings.map((r: any) => ({
        location_id: x.location.id,
        location_name: x.location.name,
        location_lat: x.location.lat,
        location_radius_km: x.location.radius_km,
        event_id: e.event_id,
        title: e.title,
        ingested_at: e.ingested_at,
        ring_id: r.ring_id,
        ordinal: r.ordinal,
        radius_km: r.radius_km,
        distance_km: r.distance_km,
        inside: r.inside,
      })),
    ),
  );
  expect(want.length).toBeGreaterThan(0);
  expect(t.numRows).toBe(want.length);
  expect(typeOf(t, 'location_id')).toBe('Utf8:Utf8');
  expect(typeOf(t, 'ordinal')).toBe('Int:Int64');
  expect(typeOf(t, 'distance_km')).toBe('Float:Float64');
  expect(typeOf(t, 'inside')).toBe('Bool:Bool');
  expect(typeOf(t, 'ingested_at')).toBe('Timestamp:Timestamp<MILLISECOND, UTC>');
  expect(t.schema.metadata.get('as_of')).toBe(body.as_of);
  expect(t.schema.metadata.get('reached')).toBe(String(body.reached));
  const rows = t.toArray();
  want.forEach((w: Record<string, unknown>, k: number) => {
    for (const [name, v] of Object.entries(w)) expect(asJson(rows[k][name], name), `${name} of row ${k}`).toEqual(v);
  });
}

describe('portfolio exposure in Arrow', () => {
  let db: string;
  let id: string;
  const run = (argv: string[]) => cli(['--db', db, ...argv], { CATINTEL_NOW: FEED_NOW });
  /** A live quake of the day feed that has rings, and a book of 3 locations at its epicentre and one far off. */
  async function bookAtRingedQuake(list: (p: string) => Promise<any>): Promise<string> {
    const live = await list('events/live?limit=1000');
    for (const f of live.features) {
      const rings = await list(`events/${f.id}/rings`);
      if (rings.features.length === 0) continue;
      const [lng, lat] = f.geometry.coordinates;
      return [
        'LocNumber,Latitude,Longitude,BuildingTIV,ContentsTIV,LocPerilsCovered',
        `Q-1,${lat},${lng},1500000,250000,QQ1`,
        `Q-2,${(lat + 0.01).toFixed(4)},${lng},800000,0,QQ1`,
        `Q-3,${lat},${(lng + 0.01).toFixed(4)},250000.5,0,QQ1`,
        'FAR-1,25.77,-80.19,900000,0,QQ1',
      ].join('\n');
    }
    throw new Error('no live event of the day feed has rings');
  }

  beforeAll(async () => {
    db = path.join(dir, 'events.duckdb');
    expect(
      (
        await run([
          '--quiet',
          'ingest',
          'usgs-earthquakes',
          '--from',
          sharedData('feeds/usgs_earthquakes/all_day.geojson'),
        ])
      ).code,
    ).toBe(0);
    const csv = await bookAtRingedQuake(async (p) => {
      const [cmd, q] = p.split('?');
      const parts = cmd.split('/');
      const argv = parts[1] === 'live' ? ['events', 'live', '--limit', '1000'] : ['events', 'rings', parts[1]];
      void q;
      return (await run(['--json', ...argv])).json();
    });
    fs.writeFileSync(path.join(dir, 'book.csv'), csv + '\n');
    const imported = await run([
      '--json',
      '--quiet',
      'portfolio',
      'import',
      path.join(dir, 'book.csv'),
      '--name',
      'quake book',
    ]);
    expect(imported.code, imported.stderr).toBe(0);
    id = imported.json().id;
  }, 120_000);

  it('CLI: --format arrow --out writes one row per event and ring, the JSON answer typed', async () => {
    const json = await run(['--json', 'portfolio', 'exposure', id]);
    expect(json.code, json.stderr).toBe(0);
    const body = json.json();
    expect(body.NumLocationsExposed).toBe(3);
    const out = path.join(dir, 'exposure.arrow');
    const written = await run(['--json', '--quiet', 'portfolio', 'exposure', id, '--format', 'arrow', '--out', out]);
    expect(written.code, written.stderr).toBe(0);
    expect(written.json()).toMatchObject({ file: out, format: 'arrow' });
    expectExposureTable(tableFromIPC(fs.readFileSync(out)), body);
  }, 60_000);

  it("CLI: locations exposure --format arrow --out writes one row per location, event and ring, the JSON's values typed", async () => {
    const [lat, lng] = fs
      .readFileSync(path.join(dir, 'book.csv'), 'utf8')
      .split('\n')[1]
      .split(',')
      .slice(1, 3)
      .map(Number);
    const added = await run([
      '--json',
      'locations',
      'add',
      '--name',
      'plant',
      '--lat',
      String(lat),
      '--lng',
      String(lng),
    ]);
    expect(added.code, added.stderr).toBe(0);
    const json = await run(['--json', 'locations', 'exposure']);
    expect(json.code, json.stderr).toBe(0);
    const out = path.join(dir, 'locations.arrow');
    const written = await run(['--json', '--quiet', 'locations', 'exposure', '--format', 'arrow', '--out', out]);
    expect(written.code, written.stderr).toBe(0);
    expectLocationsTable(tableFromIPC(fs.readFileSync(out)), json.json());
  }, 60_000);

  it('CLI: --format arrow without --out, or an unknown format, is refused naming the option', async () => {
    const noOut = await run(['portfolio', 'exposure', id, '--format', 'arrow']);
    expect(noOut.code).toBe(2);
    expect(noOut.stderr).toMatch(/--out/);
    const bad = await run(['portfolio', 'exposure', id, '--format', 'xlsx']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/"xlsx" is not one of json, arrow/);
  });
});

describe('portfolio exposure over HTTP: Accept: application/vnd.apache.arrow.stream', () => {
  let p: Platform;

  it('answers an Arrow stream equal to the JSON answer; JSON stays the default', async () => {
    p = await platform(await sharedDayStore());
    const alice = await token('agency', { sub: 'alice-arrow@example.com' });
    const live = (await p.call('/api/v1/events/live?limit=1000')).body;
    let at: number[] | undefined;
    for (const f of live.features)
      if ((await p.call(`/api/v1/events/${f.id}/rings`)).body.features.length > 0) {
        at = f.geometry.coordinates;
        break;
      }
    expect(at).toBeDefined();
    const created = await p.call('/api/v1/portfolio', {
      token: alice,
      body: {
        name: 'quake book',
        locations: [
          { LocNumber: 'Q-1', Latitude: at![1], Longitude: at![0], BuildingTIV: 1_000_000, LocPerilsCovered: 'QQ1' },
        ],
      },
    });
    expect(created.status).toBe(201);
    const url = `/api/v1/portfolio/exposure?portfolio_id=${created.body.id}`;
    const json = await p.call(url, { token: alice });
    expect(json.status).toBe(200);
    expect(json.body.NumLocationsExposed).toBe(1);
    const res = await p.app.fetch(
      new Request(`http://localhost${url}`, {
        headers: { authorization: `Bearer ${alice}`, accept: ARROW, 'x-forwarded-for': '192.0.2.35' },
      }),
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(ARROW);
    expect(res.headers.get('vary')).toMatch(/^Accept/);
    expectExposureTable(tableFromIPC(new Uint8Array(await res.arrayBuffer())), json.body);
    // The harness checks this one against openapi.yaml too.
    const checked = await p.call(url, { token: alice, headers: { accept: ARROW } });
    expect(checked.status).toBe(200);

    // Saved locations: GET /locations/exposure, the same negotiation.
    const saved = await p.call('/api/v1/locations', {
      token: alice,
      body: { name: 'plant', lat: at![1], lng: at![0], radius_km: 25 },
    });
    expect(saved.status).toBe(201);
    const locJson = await p.call('/api/v1/locations/exposure', { token: alice });
    expect(locJson.status).toBe(200);
    const locArrow = await p.call('/api/v1/locations/exposure', { token: alice, headers: { accept: ARROW } });
    expect(locArrow.status).toBe(200);
    const locRes = await p.app.fetch(
      new Request('http://localhost/api/v1/locations/exposure', {
        headers: { authorization: `Bearer ${alice}`, accept: ARROW, 'x-forwarded-for': '192.0.2.35' },
      }),
    );
    expect(locRes.headers.get('content-type')).toBe(ARROW);
    expectLocationsTable(tableFromIPC(new Uint8Array(await locRes.arrayBuffer())), locJson.body);
  }, 60_000);
});

describe('the EP curve in Arrow', () => {
  let models: string;
  let miami: string;
  beforeAll(async () => {
    models = await testModels();
    const rows = [
      'PortNumber,AccNumber,LocNumber,Latitude,Longitude,CountryCode,OccupancyCode,ConstructionCode,LocPerilsCovered,BuildingTIV,ContentsTIV,BITIV,LocCurrency',
    ];
    for (let i = 0; i < 5; i++)
      for (let j = 0; j < 5; j++)
        rows.push(
          `1,MD,H${i * 5 + j + 1},${(25.6 + i * 0.07).toFixed(4)},${(-80.44 + j * 0.048).toFixed(4)},US,1050,5100,WTC,500000,0,0,USD`,
        );
    miami = path.join(dir, 'miami.csv');
    fs.writeFileSync(miami, rows.join('\n') + '\n');
  }, 600_000);

  it('CLI: --format arrow --out writes the JSON curve, typed, the currency in the money fields', async () => {
    // A copy of the run's seed store (what `db seed` writes), not a seed of its own.
    const db = await seedStore();
    expect(fs.statSync(db).size).toBeGreaterThan(0);
    const ep = (argv: string[]) =>
      cli(['--db', db, 'portfolio', 'ep-curve', '--models', models, '--input', miami, ...argv]);
    const json = await ep(['--json', '--perspective', 'gul']);
    expect(json.code, json.stderr).toBe(0);
    const out = path.join(dir, 'ep.arrow');
    const written = await ep(['--json', '--quiet', '--perspective', 'gul', '--format', 'arrow', '--out', out]);
    expect(written.code, written.stderr).toBe(0);
    expect(written.json().written).toMatchObject({ file: out, format: 'arrow' });
    expectEpCurveTable(tableFromIPC(fs.readFileSync(out)), json.json());
    const noOut = await ep(['--format', 'arrow']);
    expect(noOut.code).toBe(2);
    expect(noOut.stderr).toMatch(/--out FILE\.arrow/);
  }, 300_000);

  it('HTTP: Accept arrow answers the curve as an Arrow stream, format=csv stays CSV, format=arrow points to Accept', async () => {
    const store = await sharedDayStore();
    const ctx = {
      ...contextOn(store),
      config: defaultConfig({ dbPath: ':memory:', env: { CATINTEL_MODELS: models } }),
    };
    const p = await platform(store, { ctx });
    const bob = await token('agency', { sub: 'bob-arrow@example.com' });
    const locations = fs
      .readFileSync(miami, 'utf8')
      .trim()
      .split('\n')
      .slice(1)
      .map((l) => {
        const c = l.split(',');
        return {
          LocNumber: c[2],
          Latitude: Number(c[3]),
          Longitude: Number(c[4]),
          BuildingTIV: 500_000,
          LocPerilsCovered: 'WTC',
        };
      });
    const created = await p.call('/api/v1/portfolio', { token: bob, body: { name: 'miami', locations } });
    expect(created.status).toBe(201);
    const url = `/api/v1/portfolio/ep-curve?portfolio_id=${created.body.id}&samples=2`;
    const json = await p.call(url, { token: bob });
    expect(json.status).toBe(200);
    const res = await p.app.fetch(
      new Request(`http://localhost${url}`, {
        headers: { authorization: `Bearer ${bob}`, accept: ARROW, 'x-forwarded-for': '192.0.2.36' },
      }),
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(ARROW);
    expectEpCurveTable(tableFromIPC(new Uint8Array(await res.arrayBuffer())), json.body);
    const csv = await p.call(`${url}&format=csv`, { token: bob, headers: { accept: ARROW } });
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    const refused = await p.call(`${url}&format=arrow`, { token: bob, unchecked: true });
    expect(refused.status).toBe(400);
    expect(refused.body.detail).toMatch(/"arrow" is not one of json, csv/);
  }, 300_000);
});
