/**
 * An event's exposure and a portfolio's loss from a live event in Arrow (issue 35): `events exposure ID
 * --format arrow --out FILE`, `portfolio event-loss ID --event E --format arrow --out FILE`, and the same two
 * answers over HTTP with `Accept: application/vnd.apache.arrow.stream`, read back with apache-arrow and
 * compared with the JSON answer of the same request, row by row: the exposure's rings (population, facility
 * counts by kind, the caller's portfolio TIV) on the real USGS day feed, with a book at a ringed quake's
 * epicentre; the loss band's perspectives and perils on Ian 2022 replayed from its b-deck an hour before
 * landfall, on a Lee County book, through the shared test hurricane package.
 */
import fs from 'node:fs';
import path from 'node:path';
import { tableFromIPC, Type, type Table } from 'apache-arrow';
import { beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../src/config/defaults.js';
import { Store } from '../src/store/db.js';
import { cli, tempDir } from './helpers/cli.js';
import { testModels } from './helpers/model-packages.js';
import { sharedData } from './helpers/paths.js';
import { contextOn, FEED_NOW, platform, seededStore, token } from './http/helpers/harness.js';
import { leeCountyRows } from './helpers/event-loss-books.js';

const ARROW = 'application/vnd.apache.arrow.stream';
const MONEY = ['BldgInsuranceAmt', 'ContentsInsuranceAmt', 'BIInsuranceAmt', 'OtherInsuranceAmt', 'TotalInsuranceAmt'];
const KINDS = ['hospital', 'fire_station', 'school', 'urgent_care', 'ems'];
const BANDS = ['MeanLossAmt', 'P10LossAmt', 'P50LossAmt', 'P90LossAmt', 'ObservedSoFarLossAmt', 'TIVInFootprintAmt'];

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

function expectRows(t: Table, want: Record<string, unknown>[]): void {
  expect(want.length).toBeGreaterThan(0);
  expect(t.numRows).toBe(want.length);
  const rows = t.toArray();
  want.forEach((w, k) => {
    for (const [name, v] of Object.entries(w)) expect(asJson(rows[k][name], name), `${name} of row ${k}`).toEqual(v);
  });
}

/** The JSON's event exposure as the table's rows: one per ring now and currency of the caller's TIV in it. */
function expectEventExposureTable(t: Table, body: any): void {
  const want = body.rings.flatMap((r: any) => {
    const ring = {
      ring_id: r.ring_id,
      ordinal: r.ordinal,
      kind: r.kind,
      label: r.label,
      threshold: r.threshold,
      radius_km: r.radius_km,
      population: r.population.population,
      land_area_km2: r.population.land_area_km2,
      ring_area_km2: r.population.ring_area_km2,
      ...Object.fromEntries(KINDS.map((k) => [k, r.infrastructure.counts[k]])),
      source: r.source,
      ingested_at: r.ingested_at,
    };
    const tiv = r.portfolio_tiv.length
      ? r.portfolio_tiv
      : [{ CurCd: null, NumLocations: 0, NumPortfolios: 0, ...Object.fromEntries(MONEY.map((m) => [m, 0])) }];
    return tiv.map((c: any) => ({ ...ring, ...c }));
  });
  expectRows(t, want);
  expect(typeOf(t, 'ring_id')).toBe('Utf8:Utf8');
  expect(typeOf(t, 'ordinal')).toBe('Int:Int64');
  expect(typeOf(t, 'population')).toBe('Int:Int64');
  expect(typeOf(t, 'hospital')).toBe('Int:Int64');
  expect(typeOf(t, 'ring_area_km2')).toBe('Float:Float64');
  expect(typeOf(t, 'ingested_at')).toBe('Timestamp:Timestamp<MILLISECOND, UTC>');
  for (const m of MONEY) {
    expect(typeOf(t, m)).toBe('Float:Float64');
    expect(currencyOf(t, m), m).toBe('USD');
  }
  expect(t.schema.metadata.get('event_id')).toBe(body.event.id);
  expect(t.schema.metadata.get('as_of')).toBe(body.as_of);
}

/** The JSON's loss band as the table's rows: per perspective the whole (peril all), then each peril. */
function expectEventLossTable(t: Table, body: any): void {
  const want = ['gul', 'il'].flatMap((p) => {
    const { by_peril, ...whole } = body[p];
    return [
      { perspective: p, peril: 'all', ...whole, TIVInFootprintAmt: body.TIVInFootprintAmt },
      ...body.perils.map((peril: string) => ({
        perspective: p,
        peril,
        ...by_peril[peril],
        TIVInFootprintAmt: body.TIVInFootprintAmtByPeril[peril],
      })),
    ];
  });
  expect(t.schema.fields.map((f) => f.name)).toEqual(['perspective', 'peril', ...BANDS]);
  expectRows(t, want);
  expect(typeOf(t, 'peril')).toBe('Utf8:Utf8');
  for (const m of BANDS) {
    expect(typeOf(t, m)).toBe('Float:Float64');
    expect(currencyOf(t, m), m).toBe(body.CurCd);
  }
  expect(t.schema.metadata.get('footprint_version')).toBe(body.footprint.version);
  expect(t.schema.metadata.get('footprint_kind')).toBe(body.footprint.kind);
  expect(t.schema.metadata.get('PortfolioId')).toBe(body.PortfolioId);
  expect(t.schema.metadata.get('event_id')).toBe(body.event.id);
  expect(t.schema.metadata.get('samples')).toBe(String(body.samples));
}

async function arrowOver(p: { app: { fetch(r: Request): Promise<Response> } }, url: string, bearer: string) {
  const res = await p.app.fetch(
    new Request(`http://localhost${url}`, {
      headers: { authorization: `Bearer ${bearer}`, accept: ARROW, 'x-forwarded-for': '192.0.2.37' },
    }),
  );
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe(ARROW);
  expect(res.headers.get('vary')).toMatch(/^Accept/);
  return tableFromIPC(new Uint8Array(await res.arrayBuffer()));
}

let dir: string;
beforeAll(() => {
  dir = tempDir('catintel-event-answers-arrow-');
});

describe("an event's exposure in Arrow", () => {
  it('CLI: events exposure --format arrow --out writes one row per ring, the JSON figures typed', async () => {
    const db = path.join(dir, 'events.duckdb');
    const run = (argv: string[]) => cli(['--db', db, ...argv], { CATINTEL_NOW: FEED_NOW });
    const ingest = ['--quiet', 'ingest', 'usgs-earthquakes', '--from'];
    expect((await run([...ingest, sharedData('feeds/usgs_earthquakes/all_day.geojson')])).code).toBe(0);
    let quake: any;
    for (const f of (await run(['--json', 'events', 'live', '--limit', '1000'])).json().features)
      if ((await run(['--json', 'events', 'rings', f.id])).json().features.length > 0) {
        quake = f;
        break;
      }
    expect(quake).toBeDefined();
    const [lng, lat] = quake.geometry.coordinates;
    const book = path.join(dir, 'book.csv');
    fs.writeFileSync(
      book,
      `LocNumber,Latitude,Longitude,BuildingTIV,ContentsTIV,LocPerilsCovered\nQ-1,${lat},${lng},1500000,250000,QQ1\n`,
    );
    expect((await run(['--quiet', 'portfolio', 'import', book, '--name', 'quake book'])).code).toBe(0);
    const json = await run(['--json', 'events', 'exposure', quake.id]);
    expect(json.code, json.stderr).toBe(0);
    const body = json.json();
    expect(body.rings[0].portfolio_tiv[0].TotalInsuranceAmt).toBe(1_750_000);
    const out = path.join(dir, 'event-exposure.arrow');
    const written = await run(['--json', '--quiet', 'events', 'exposure', quake.id, '--format', 'arrow', '--out', out]);
    expect(written.code, written.stderr).toBe(0);
    expect(written.json()).toMatchObject({ file: out, format: 'arrow' });
    expectEventExposureTable(tableFromIPC(fs.readFileSync(out)), body);
    const noOut = await run(['events', 'exposure', quake.id, '--format', 'arrow']);
    expect(noOut.code).toBe(2);
    expect(noOut.stderr).toMatch(/--out/);
  }, 120_000);

  it('HTTP: Accept arrow answers the same table; JSON stays the default', async () => {
    const store = await seededStore();
    try {
      const p = await platform(store);
      // One account: its agency token keeps the book, its analyst token reads the event's exposure.
      const alice = await token('agency', { sub: 'alice-event-arrow@example.com' });
      const analyst = await token('analyst', { sub: 'alice-event-arrow@example.com' });
      let quake: any;
      for (const f of (await p.call('/api/v1/events/live?limit=1000')).body.features)
        if ((await p.call(`/api/v1/events/${f.id}/rings`)).body.features.length > 0) {
          quake = f;
          break;
        }
      expect(quake).toBeDefined();
      const [lng, lat] = quake.geometry.coordinates;
      const created = await p.call('/api/v1/portfolio', {
        token: alice,
        body: {
          name: 'quake book',
          locations: [{ LocNumber: 'Q-1', Latitude: lat, Longitude: lng, BuildingTIV: 1e6, LocPerilsCovered: 'QQ1' }],
        },
      });
      expect(created.status).toBe(201);
      const url = `/api/v1/events/${quake.id}/exposure`;
      const json = await p.call(url, { token: analyst });
      expect(json.status).toBe(200);
      expect(json.headers.get('content-type')).toMatch(/json/);
      expect(json.body.rings[0].portfolio_tiv[0].TotalInsuranceAmt).toBe(1e6);
      expectEventExposureTable(await arrowOver(p, url, analyst), json.body);
      // The harness checks this one against openapi.yaml too.
      expect((await p.call(url, { token: analyst, headers: { accept: ARROW } })).status).toBe(200);
    } finally {
      await store.close();
    }
  }, 120_000);
});

const BDECK = sharedData('hazard_history/hurricanes/bal092022.dat');
const LAST = '2022-09-28T18:00:00Z';
const LEE = leeCountyRows(['CC1', 'FM1', 'FMB', 'BON']);

describe("a portfolio's loss from a live event in Arrow (Ian an hour before landfall)", () => {
  let models: string;
  let db: string;
  let id: string;
  beforeAll(async () => {
    models = await testModels('hurricane');
    db = path.join(dir, 'ian.duckdb');
    const env = { CATINTEL_MODELS: models };
    expect((await cli(['--db', db, '--as-of', LAST, '--quiet', 'ingest', 'nhc', '--from', BDECK], env)).code).toBe(0);
    const file = path.join(dir, 'lee.csv');
    fs.writeFileSync(
      file,
      'PortNumber,AccNumber,LocNumber,Latitude,Longitude,CountryCode,OccupancyCode,ConstructionCode,LocPerilsCovered,BuildingTIV,ContentsTIV,BITIV,LocCurrency\n' +
        LEE.join('\n') +
        '\n',
    );
    const imported = await cli(['--db', db, '--json', 'portfolio', 'import', file, '--name', 'Lee'], env);
    expect(imported.code, imported.stderr).toBe(0);
    id = imported.json().id;
  }, 900_000);

  const loss = (argv: string[]) =>
    cli(
      ['--db', db, '--as-of', LAST, 'portfolio', 'event-loss', id, '--event', 'al092022', '--members', '3', ...argv],
      { CATINTEL_MODELS: models },
    );

  it('CLI: --format arrow --out writes one row per perspective and peril, the footprint version in the metadata', async () => {
    const json = await loss(['--json', '--samples', '4']);
    expect(json.code, json.stderr).toBe(0);
    const body = json.json();
    expect(body.perils).toEqual(['hurricane_wind', 'storm_surge']);
    const out = path.join(dir, 'ian-loss.arrow');
    const written = await loss(['--json', '--quiet', '--samples', '4', '--format', 'arrow', '--out', out]);
    expect(written.code, written.stderr).toBe(0);
    expect(written.json()).toMatchObject({ file: out, format: 'arrow', rows: 6 });
    expectEventLossTable(tableFromIPC(fs.readFileSync(out)), body);
    const over = await loss(['--over-versions', '--format', 'arrow', '--out', out]);
    expect(over.code).toBe(2);
    expect(over.stderr).toMatch(/--over-versions .*--format arrow/);
  }, 300_000);

  it('HTTP: Accept arrow answers the same table as the JSON of the same request', async () => {
    const store = await Store.open(db);
    try {
      const ctx = {
        ...contextOn(store),
        clock: () => new Date(LAST),
        config: defaultConfig({ dbPath: db, env: { CATINTEL_MODELS: models } }),
      };
      const p = await platform(store, { ctx });
      const url = `/api/v1/portfolio/event-loss?portfolio_id=${id}&event_id=al092022&members=3&samples=4`;
      const json = await p.call(url, { token: p.adminToken });
      expect(json.status).toBe(200);
      expectEventLossTable(await arrowOver(p, url, p.adminToken), json.body);
      expect((await p.call(url, { token: p.adminToken, headers: { accept: ARROW } })).status).toBe(200);
    } finally {
      await store.close();
    }
  }, 300_000);
});
