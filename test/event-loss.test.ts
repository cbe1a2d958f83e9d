/**
 * A portfolio's loss from a live event: `catintel portfolio event-loss ID --event EVENT` and
 * GET /portfolio/event-loss, replaying real data. Ian 2022 from its b-deck at three times before landfall
 * (--as-of) and after it: a small Lee County book's band, the advisory version it names, the band
 * narrowing toward landfall and the final observed track's loss inside the last pre-landfall P10-P90.
 * Loma Prieta 1989 from its USGS ShakeMap grid and from the model's own ground motion, both reported, on a
 * small Bay Area book. The model packages are the shared test packages (test/helpers/model-packages.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../src/config/defaults.js';
import { Store } from '../src/store/db.js';
import { cli, tempDir } from './helpers/cli.js';
import { EARTHQUAKE_TEST_PACKAGE_YEARS, testModels } from './helpers/model-packages.js';
import { FIXTURES, sharedData } from './helpers/paths.js';
import { contextOn, platform, token } from './http/helpers/harness.js';
import { OED_LOCATION_HEADER, LEE_HOMES, bayAreaRows, leeCountyRows } from './helpers/event-loss-books.js';
import { cellOf, GRID_COLS } from '../src/models/hurricane/domain/footprint/grid.js';

const BDECK = sharedData('hazard_history/hurricanes/bal092022.dat');
const SHAKEMAP = sharedData('hazard_history/earthquakes/shakemap/lomaprieta1989_grid.xml');
const QUAKE_FEED = path.join(FIXTURES, 'feeds/usgs/nc216859_lomaprieta1989.geojson');
const HEADER = OED_LOCATION_HEADER;

/** Ten masonry homes across Lee County, Florida (Cape Coral, Fort Myers, Fort Myers Beach, Iona, Estero, Bonita Springs, Lehigh Acres), $500k each. */
const LEE = leeCountyRows();

/** Eight wood homes around the Bay (Santa Cruz, Watsonville, San Jose, Oakland, San Francisco Marina, Hollister, Los Gatos, Palo Alto), $600k each. */
const BAY = bayAreaRows();

/** Best-track fixes replayed: about 31, 19, 7 and 1 hours before Ian's landfall at Cayo Costa (2022-09-28 19:05 UTC), and after the storm. */
const BEFORE_LANDFALL = [
  '2022-09-27T12:00:00Z',
  '2022-09-28T00:00:00Z',
  '2022-09-28T12:00:00Z',
  '2022-09-28T18:00:00Z',
];
const LAST = BEFORE_LANDFALL[3];
const AFTER = '2022-10-02T00:00:00Z';
const MEMBERS = '30';

let dir: string;
let hurricaneModels: string;

interface Band {
  MeanLossAmt: number;
  P10LossAmt: number;
  P50LossAmt: number;
  P90LossAmt: number;
  ObservedSoFarLossAmt: number | null;
}

beforeAll(async () => {
  dir = tempDir('catintel-event-loss-');
  hurricaneModels = await testModels('hurricane');
}, 900_000);

async function ianAt(asOf: string): Promise<{ db: string; id: string }> {
  const db = path.join(dir, `ian-${asOf.replace(/[:]/g, '')}.duckdb`);
  const env = { CATINTEL_MODELS: hurricaneModels };
  expect((await cli(['--db', db, '--as-of', asOf, '--quiet', 'ingest', 'nhc', '--from', BDECK], env)).code).toBe(0);
  const file = path.join(dir, 'lee.csv');
  fs.writeFileSync(file, [HEADER, ...LEE].join('\n') + '\n');
  const imported = await cli(
    ['--db', db, '--as-of', asOf, '--json', 'portfolio', 'import', file, '--name', 'Lee County'],
    env,
  );
  expect(imported.code, imported.stderr).toBe(0);
  return { db, id: imported.json().id };
}

describe('Ian 2022 replayed at its b-deck fixes (Lee County book)', () => {
  const bodies = new Map<string, Record<string, any>>();
  /** Each replay's store and book, kept for the HTTP test (the store an hour before landfall). */
  const stores = new Map<string, { db: string; id: string }>();
  beforeAll(async () => {
    for (const asOf of [...BEFORE_LANDFALL, AFTER]) {
      const { db, id } = await ianAt(asOf);
      stores.set(asOf, { db, id });
      const r = await cli(
        [
          '--db',
          db,
          '--as-of',
          asOf,
          '--json',
          'portfolio',
          'event-loss',
          id,
          '--event',
          'al092022',
          '--members',
          MEMBERS,
        ],
        { CATINTEL_MODELS: hurricaneModels },
      );
      expect(r.code, r.stderr).toBe(0);
      bodies.set(asOf, r.json());
    }
    for (const [asOf, b] of bodies)
      console.log(
        `Ian as of ${asOf}: ${b.footprint.version}; forecast ${b.footprint.forecast} ${b.footprint.forecast_hours} h; gul mean ${b.gul.MeanLossAmt} P10 ${b.gul.P10LossAmt} P50 ${b.gul.P50LossAmt} P90 ${b.gul.P90LossAmt}; observed so far ${b.gul.ObservedSoFarLossAmt}; TIV in footprint ${b.TIVInFootprintAmt}`,
      );
  }, 900_000);

  it('names the best-track version it used, and gives the band by peril with the TIV in the footprint', () => {
    const b = bodies.get(LAST)!;
    expect(b.footprint).toMatchObject({
      product: 'ATCF b-deck',
      version: 'best track through 2022-09-28T18:00:00Z (27 fixes)',
      kind: 'observed_track_and_forecast_ensemble',
      forecast: 'persistence',
      members: 30,
    });
    expect(b.perils).toEqual(['hurricane_wind', 'storm_surge']);
    expect(b).toMatchObject({
      NumLocations: 10,
      NumLocationsModelled: 10,
      TotalInsuranceAmt: 5_000_000,
      CurCd: 'USD',
      members: 30,
      samples: 10,
    });
    expect(b.TIVInFootprintAmt).toBe(5_000_000);
    const g: Band = b.gul;
    expect(g.P10LossAmt).toBeLessThanOrEqual(g.P50LossAmt);
    expect(g.P50LossAmt).toBeLessThanOrEqual(g.P90LossAmt);
    expect(g.MeanLossAmt).toBeGreaterThan(0);
    // A stored portfolio keeps no terms: insured equals ground-up.
    expect(b.il.MeanLossAmt).toBe(g.MeanLossAmt);
    expect(Object.keys(b.gul.by_peril)).toEqual(['hurricane_wind', 'storm_surge']);
    expect(b.gul.by_peril.hurricane_wind.MeanLossAmt).toBeGreaterThan(0);
    // A stored portfolio keeps no ground elevation, without which the surge model places no location.
    expect(b.gul.by_peril.storm_surge.MeanLossAmt).toBe(0);
    expect(b.TIVInFootprintAmtByPeril).toEqual({ hurricane_wind: 5_000_000, storm_surge: 0 });
  });

  it('gives, to the cent, the band it gave before its speed-ups (footprints of the shared observed track made once, keys made once)', () => {
    // Recorded from the code before those changes on the same package (100 years, seed 1), 30 members,
    // 10 samples, seed 1: a change of the figures is a change of the model, not of its speed.
    const band = {
      MeanLossAmt: 1909839.43,
      P10LossAmt: 1158967.64,
      P50LossAmt: 1947839.08,
      P90LossAmt: 2658708.96,
      ObservedSoFarLossAmt: 1665669.87,
    };
    const b = bodies.get(LAST)!;
    expect(b.gul).toMatchObject(band);
    expect(b.gul.by_peril.hurricane_wind).toEqual(band);
    expect(b.il).toMatchObject(band);
    expect(b.NumLocationsInFootprint).toBe(10);
  });

  it('a package whose catalog never reached the book: the event that does keys it on the event package, to the same band', async () => {
    // The package as built, but with the book's cells unreached by its catalog (0 in both reach files). The
    // keys the run makes on the package while the footprints are made miss every home; the event's own
    // reach brings them back, and the run keys the book again on the event package.
    const models = path.join(tempDir('catintel-event-loss-reach-'), 'models');
    const pkg = path.join(models, 'hurricane');
    const built = path.join(hurricaneModels, 'hurricane');
    fs.mkdirSync(pkg, { recursive: true });
    const reachFiles = ['cell_max_intensity_bin.bin', 'cell_max_surge_bin.bin'];
    for (const f of fs.readdirSync(built))
      if (!reachFiles.includes(f)) fs.symlinkSync(path.join(built, f), path.join(pkg, f));
    for (const f of reachFiles) {
      const cells = fs.readFileSync(path.join(built, f));
      for (const [lat, lng] of LEE_HOMES) {
        const c = cellOf(lat, lng)!;
        cells[c.row * GRID_COLS + c.col] = 0;
      }
      fs.writeFileSync(path.join(pkg, f), cells);
    }
    const { db, id } = stores.get(LAST)!;
    const argv = ['--db', db, '--as-of', LAST, '--json', 'portfolio', 'event-loss', id, '--event', 'al092022'];
    const r = await cli([...argv, '--members', MEMBERS], { CATINTEL_MODELS: models });
    expect(r.code, r.stderr).toBe(0);
    const { gul, il, NumLocationsModelled, TIVInFootprintAmt } = bodies.get(LAST)!;
    expect(r.json()).toMatchObject({ gul, il, NumLocationsModelled, TIVInFootprintAmt });
  }, 120_000);

  it("as landfall nears the mean moves toward the final track's loss and the band narrows", () => {
    const final = bodies.get(AFTER)!.gul.ObservedSoFarLossAmt as number;
    const gaps = BEFORE_LANDFALL.map((t) => Math.abs(bodies.get(t)!.gul.MeanLossAmt - final));
    for (let i = 1; i < gaps.length; i++) expect(gaps[i], BEFORE_LANDFALL[i]).toBeLessThan(gaps[i - 1]);
    // The band's width for its mean: an hour out, narrower than 7 and 19 hours out (31 hours out every member misses the book).
    const relative = (asOf: string) =>
      (bodies.get(asOf)!.gul.P90LossAmt - bodies.get(asOf)!.gul.P10LossAmt) / bodies.get(asOf)!.gul.MeanLossAmt;
    expect(relative(LAST)).toBeLessThan(relative(BEFORE_LANDFALL[1]));
    expect(relative(LAST)).toBeLessThan(relative(BEFORE_LANDFALL[2]));
  });

  it('after the storm the forecast is gone and every member is the observed track; its loss lies within the last pre-landfall P10-P90', () => {
    const after = bodies.get(AFTER)!;
    expect(after.footprint.forecast).toBe('none');
    const final = after.gul.ObservedSoFarLossAmt;
    expect(final).toBeGreaterThan(0);
    const last = bodies.get(LAST)!.gul;
    expect(final).toBeGreaterThanOrEqual(last.P10LossAmt);
    expect(final).toBeLessThanOrEqual(last.P90LossAmt);
  });

  it('HTTP gives what the CLI gives; another account is 404; CLI-only options are refused', async () => {
    const { db, id } = stores.get(LAST)!;
    const store = await Store.open(db);
    try {
      const ctx = {
        ...contextOn(store),
        clock: () => new Date(LAST),
        config: defaultConfig({ dbPath: db, env: { CATINTEL_MODELS: hurricaneModels } }),
      };
      const p = await platform(store, { ctx });
      const q = `/api/v1/portfolio/event-loss?portfolio_id=${id}&event_id=al092022&members=5&samples=4`;
      const reply = await p.call(q, { token: p.adminToken });
      expect(reply.status).toBe(200);
      const cliBody = (
        await cli(
          [
            '--db',
            db,
            '--as-of',
            LAST,
            '--json',
            'portfolio',
            'event-loss',
            id,
            '--event',
            'al092022',
            '--members',
            '5',
            '--samples',
            '4',
          ],
          { CATINTEL_MODELS: hurricaneModels },
        )
      ).json();
      expect(reply.body).toEqual(cliBody);
      expect((await p.call(q, { token: await token('agency', { sub: 'someone-else' }) })).status).toBe(404);
      const bad = await p.call(`${q}&shakemap=/tmp/grid.xml`, { token: p.adminToken, unchecked: true });
      expect(bad.status).toBe(400);
    } finally {
      await store.close();
    }
  }, 300_000);
});

describe("Loma Prieta 1989: ShakeMap grid loss and the model's own ground motion loss (Bay Area book)", () => {
  it('both are reported, each naming what it ran on', async () => {
    const models = await testModels('earthquake', { years: EARTHQUAKE_TEST_PACKAGE_YEARS });
    const env = { CATINTEL_MODELS: models, CATINTEL_NOW: '1989-10-18T00:50:00Z' };
    const db = path.join(dir, 'loma.duckdb');
    expect((await cli(['--db', db, '--quiet', 'ingest', 'usgs-earthquakes', '--from', QUAKE_FEED], env)).code).toBe(0);
    const file = path.join(dir, 'bay.csv');
    fs.writeFileSync(file, [HEADER, ...BAY].join('\n') + '\n');
    const id = (await cli(['--db', db, '--json', 'portfolio', 'import', file, '--name', 'Bay Area'], env)).json().id;
    const shake = await cli(
      ['--db', db, '--json', 'portfolio', 'event-loss', id, '--event', 'nc216859', '--shakemap', SHAKEMAP],
      env,
    );
    expect(shake.code, shake.stderr).toBe(0);
    const own = await cli(['--db', db, '--json', 'portfolio', 'event-loss', id, '--event', 'nc216859'], env);
    expect(own.code, own.stderr).toBe(0);
    const s = shake.json();
    const m = own.json();
    console.log(
      `Loma Prieta: ShakeMap (${s.footprint.version}) gul mean ${s.gul.MeanLossAmt} P10 ${s.gul.P10LossAmt} P50 ${s.gul.P50LossAmt} P90 ${s.gul.P90LossAmt}, TIV in footprint ${s.TIVInFootprintAmt}; model ground motion (${m.footprint.version}, ${m.members} strikes) gul mean ${m.gul.MeanLossAmt} P10 ${m.gul.P10LossAmt} P50 ${m.gul.P50LossAmt} P90 ${m.gul.P90LossAmt}, TIV in footprint ${m.TIVInFootprintAmt}`,
    );
    expect(s.footprint).toMatchObject({
      kind: 'shakemap',
      version: 'ShakeMap grid.xml version 1 processed 2014-10-25T13:28:48Z',
      members: 1,
    });
    expect(m.footprint).toMatchObject({ kind: 'ground_motion_model', members: 8 });
    for (const b of [s, m]) {
      expect(b.perils).toEqual(['earthquake']);
      expect(b.gul.MeanLossAmt).toBeGreaterThan(0);
      expect(b.gul.P10LossAmt).toBeLessThanOrEqual(b.gul.P90LossAmt);
      expect(b.TIVInFootprintAmt).toBeGreaterThan(0);
    }
    expect(s.method).toMatch(
      /ShakeMap grid.xml version 1 processed 2014-10-25T13:28:48Z PGA with its STDPGA uncertainty/,
    );
    expect(m.method).toMatch(
      /the earthquake model's ground motion \(median and σ\) from the origin, 8 rupture strikes/,
    );
  }, 900_000);
});

describe('GET /portfolio/event-loss caps its members and samples to what a server can spend on one request', () => {
  it('a request over the HTTP caps is a 400 problem naming the limit; the CLI keeps its larger limits', async () => {
    const store = await Store.open(':memory:');
    try {
      const p = await platform(store);
      const base = '/api/v1/portfolio/event-loss?portfolio_id=00000000-0000-4000-8000-000000000000&event_id=al092022';
      for (const [q, name, limit] of [
        ['members=21', 'members', /members: [^"]*\b20\b/],
        ['members=500', 'members', /members: [^"]*\b20\b/],
        ['samples=101', 'samples', /samples: [^"]*\b100\b/],
        ['samples=1000', 'samples', /samples: [^"]*\b100\b/],
      ]) {
        const r = await p.call(`${base}&${q}`, { token: p.adminToken, unchecked: true });
        expect(r.status, q).toBe(400);
        expect(r.headers.get('content-type'), q).toMatch(/application\/problem\+json/);
        expect(JSON.stringify(r.body), q).toContain(name);
        expect(r.body.detail, q).toMatch(limit);
      }
      // Within the caps the request is taken (here: no such portfolio, 404), not refused for its size.
      const ok = await p.call(`${base}&members=20&samples=100`, { token: p.adminToken });
      expect(ok.status).toBe(404);
      // The CLI, on the caller's own machine, still takes up to 500 members and 1000 samples.
      const db = path.join(dir, 'caps.duckdb');
      const c = await cli([
        '--db',
        db,
        'portfolio',
        'event-loss',
        'nope',
        '--event',
        'al092022',
        '--members',
        '500',
        '--samples',
        '1000',
      ]);
      expect(c.stderr).not.toMatch(/members|samples/);
      expect(
        (await cli(['--db', db, 'portfolio', 'event-loss', 'nope', '--event', 'x', '--members', '501'])).stderr,
      ).toMatch(/1 to 500/);
    } finally {
      await store.close();
    }
  }, 120_000);
});
