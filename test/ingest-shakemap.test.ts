/**
 * ShakeMap rings through the CLI (issue 8, item 2): with the Loma Prieta ShakeMap given, the MMI VI ring
 * follows the published intensities and holds San Francisco and Oakland, which the intensity equation's
 * circle misses; a new ShakeMap replaces the rings; online, the ShakeMap the event's detail GeoJSON names
 * is read (from a local server replaying the USGS wire formats).
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import booleanPointInPolygon from '@turf/boolean-point-in-polygon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventIdOf } from '../src/lib/ids.js';
import { cli, tempDir } from './helpers/cli.js';
import { EARTHQUAKE_TEST_PACKAGE_YEARS, testModels } from './helpers/model-packages.js';
import { FIXTURES, sharedData } from './helpers/paths.js';

const FEED = path.join(FIXTURES, 'feeds/usgs/nc216859_lomaprieta1989.geojson');
const CONT_MMI = path.join(FIXTURES, 'feeds/usgs/nc216859_cont_mmi.json');
const GRID = sharedData('hazard_history/earthquakes/shakemap/lomaprieta1989_grid.xml');
const ID = eventIdOf('usgs-earthquakes', 'nc216859');
// Three quarters of an hour after the 00:04 UTC origin: the event is published, the clock is honoured.
const env = { CATINTEL_NOW: '1989-10-18T00:50:00Z' };
const SAN_FRANCISCO: [number, number] = [-122.42, 37.77];
const OAKLAND: [number, number] = [-122.27, 37.8];

interface RingFeature {
  geometry: Parameters<typeof booleanPointInPolygon>[1];
  properties: { kind: string; label: string; threshold: number; radius_km: number | null };
}
const ringsOf = async (db: string) =>
  (await cli(['--db', db, '--json', 'events', 'rings', ID], env)).json().features as RingFeature[];
const vi = (rings: RingFeature[]) => rings.find((r) => r.properties.threshold === 6)!;

describe('catintel ingest usgs-earthquakes --shakemap', () => {
  it('Loma Prieta with its ShakeMap grid: the MMI VI ring holds San Francisco and Oakland; without it, it does not', async () => {
    const plain = path.join(tempDir(), 'store.duckdb');
    expect((await cli(['--db', plain, 'ingest', 'usgs-earthquakes', '--from', FEED], env)).code).toBe(0);
    const estimated = vi(await ringsOf(plain));
    expect(estimated.properties.label).toBe('MMI VI (strong shaking)');
    expect(booleanPointInPolygon(SAN_FRANCISCO, estimated.geometry)).toBe(false);
    expect(booleanPointInPolygon(OAKLAND, estimated.geometry)).toBe(false);

    const db = path.join(tempDir(), 'store.duckdb');
    const r = await cli(['--db', db, '--json', 'ingest', 'usgs-earthquakes', '--from', FEED, '--shakemap', GRID], env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json().runs[0]).toMatchObject({ inserted: 1, skipped: 0 });
    const rings = await ringsOf(db);
    expect(
      rings.map((x) => [x.properties.kind, x.properties.threshold, x.properties.label, x.properties.radius_km]),
    ).toEqual([
      ['mmi', 8, 'MMI VIII (severe shaking), USGS ShakeMap v1', null],
      ['mmi', 6, 'MMI VI (strong shaking), USGS ShakeMap v1', null],
      ['mmi', 4, 'MMI IV (light shaking), USGS ShakeMap v1', null],
    ]);
    expect(booleanPointInPolygon(SAN_FRANCISCO, vi(rings).geometry)).toBe(true);
    expect(booleanPointInPolygon(OAKLAND, vi(rings).geometry)).toBe(true);
    // Sacramento (MMI ~5 in the ShakeMap) stays outside the VI ring, inside the IV ring.
    expect(booleanPointInPolygon([-121.49, 38.58], vi(rings).geometry)).toBe(false);
    expect(booleanPointInPolygon([-121.49, 38.58], rings[2].geometry)).toBe(true);
  });

  it('the same ShakeMap again changes nothing; a new ShakeMap replaces the rings; the feed alone keeps them', async () => {
    const db = path.join(tempDir(), 'store.duckdb');
    await cli(['--db', db, 'ingest', 'usgs-earthquakes', '--from', FEED, '--shakemap', GRID], env);
    const again = await cli(
      ['--db', db, '--json', 'ingest', 'usgs-earthquakes', '--from', FEED, '--shakemap', GRID],
      env,
    );
    expect(again.json().runs[0]).toMatchObject({ inserted: 0, updated: 0, unchanged: 1 });

    const next = await cli(
      ['--db', db, '--json', 'ingest', 'usgs-earthquakes', '--from', FEED, '--shakemap', CONT_MMI],
      env,
    );
    expect(next.code, next.stderr).toBe(0);
    expect(next.json().runs[0]).toMatchObject({ updated: 1 });
    const rings = await ringsOf(db);
    expect(rings.map((x) => x.properties.label)).toEqual([
      'MMI VIII (severe shaking), USGS ShakeMap',
      'MMI VI (strong shaking), USGS ShakeMap',
      'MMI IV (light shaking), USGS ShakeMap',
    ]);
    // The hand-written VI contour comes in two pieces that meet: joined, it is one box of 1.2° × 1.3°.
    expect(vi(rings).geometry).toMatchObject({ type: 'MultiPolygon' });
    expect(booleanPointInPolygon([-122.5, 36.75], vi(rings).geometry)).toBe(true);
    expect(booleanPointInPolygon([-122.7, 37.5], vi(rings).geometry)).toBe(false);

    // The feed without a ShakeMap does not put the equation's circles back over the ShakeMap's rings.
    const plain = await cli(['--db', db, '--json', 'ingest', 'usgs-earthquakes', '--from', FEED], env);
    expect(plain.code, plain.stderr).toBe(0);
    expect((await ringsOf(db)).map((x) => x.properties.label)).toEqual(rings.map((x) => x.properties.label));
  });

  it('a ShakeMap of another event, or --shakemap with another source, is a usage error naming the fix', async () => {
    const db = path.join(tempDir(), 'store.duckdb');
    const hebgen = sharedData('hazard_history/earthquakes/shakemap/hebgenlake1959_iscgem882673_cont_mmi.json');
    const wrong = await cli(['--db', db, 'ingest', 'usgs-earthquakes', '--from', FEED, '--shakemap', hebgen], env);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr.trim().split('\n')).toHaveLength(1);
    expect(wrong.stderr).toMatch(
      /--shakemap .*hebgenlake.* \(event iscgem882673 at 44\.63, -110\.891\) matches no earthquake in the feed/,
    );

    const nhc = await cli(['--db', db, 'ingest', 'nhc', '--shakemap', GRID], env);
    expect(nhc.code).toBe(2);
    expect(nhc.stderr).toMatch(/--shakemap .* usgs-earthquakes source alone/);

    const notShakeMap = await cli(['--db', db, 'ingest', 'usgs-earthquakes', '--from', FEED, '--shakemap', FEED], env);
    expect(notShakeMap.code).toBe(2);
    expect(notShakeMap.stderr).toMatch(/expected a USGS ShakeMap cont_mmi\.json .* or grid\.xml/);
  });
});

/** The ComCat detail format, reduced to what matters here (properties.products.shakemap[0]) for one ShakeMap version. */
function comcatDetail(base: string, version: string, updateTime: number) {
  return {
    type: 'Feature',
    id: 'nc216859',
    properties: {
      products: {
        shakemap: [
          {
            id: `urn:usgs-product:us:shakemap:nc216859:${version}`,
            type: 'shakemap',
            code: 'nc216859',
            source: 'us',
            status: 'UPDATE',
            updateTime,
            properties: { version, eventsource: 'nc', eventsourcecode: '216859' },
            contents: {
              'download/cont_mmi.json': { contentType: 'application/json', url: `${base}/v${version}/cont_mmi.json` },
              'download/grid.xml': { contentType: 'application/xml', url: `${base}/v${version}/grid.xml` },
            },
          },
        ],
      },
    },
    geometry: { type: 'Point', coordinates: [-121.88, 37.04, 18] },
  };
}

describe('online: the ShakeMap named by the event detail GeoJSON', () => {
  let server: http.Server;
  let base: string;
  let version = '3';
  // When each ShakeMap version was published (ComCat `updateTime`): v3 half an hour after the origin, v4 two hours.
  const published: Record<string, number> = {
    '3': Date.parse('1989-10-18T00:35:00Z'),
    '4': Date.parse('1989-10-18T02:00:00Z'),
  };
  const hits: string[] = [];
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      hits.push(req.url!);
      if (req.url === '/feed') {
        const feed = JSON.parse(fs.readFileSync(FEED, 'utf8'));
        feed.features[0].properties.detail = `${base}/detail/nc216859.geojson`;
        return res.writeHead(200, { 'content-type': 'application/geo+json' }).end(JSON.stringify(feed));
      }
      if (req.url === '/detail/nc216859.geojson') {
        const detail = comcatDetail(base, version, published[version]);
        return res.writeHead(200, { 'content-type': 'application/geo+json' }).end(JSON.stringify(detail));
      }
      if (req.url === `/v${version}/cont_mmi.json`)
        return res.writeHead(200, { 'content-type': 'application/json' }).end(fs.readFileSync(CONT_MMI));
      if (req.url === `/v${version}/grid.xml`)
        return res.writeHead(200, { 'content-type': 'application/xml' }).end(fs.readFileSync(GRID));
      res.writeHead(404).end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((r) => server.close(r)));

  it('reads the preferred ShakeMap contours; a new ShakeMap version replaces the rings once the clock has reached it', async () => {
    const db = path.join(tempDir(), 'store.duckdb');
    const r = await cli(['--db', db, '--json', 'ingest', 'usgs-earthquakes', '--from', `${base}/feed`], env);
    expect(r.code, r.stderr).toBe(0);
    expect(hits).toEqual(['/feed', '/detail/nc216859.geojson', '/v3/cont_mmi.json', '/v3/grid.xml']);
    expect((await ringsOf(db)).map((x) => x.properties.label)).toEqual([
      'MMI VIII (severe shaking), USGS ShakeMap v3',
      'MMI VI (strong shaking), USGS ShakeMap v3',
      'MMI IV (light shaking), USGS ShakeMap v3',
    ]);
    expect(booleanPointInPolygon(SAN_FRANCISCO, vi(await ringsOf(db)).geometry)).toBe(true);

    version = '4';
    // At 00:50 version 4 (published 02:00) does not exist yet: the rings stay those of version 3.
    const early = await cli(['--db', db, '--json', 'ingest', 'usgs-earthquakes', '--from', `${base}/feed`], env);
    expect(early.code, early.stderr).toBe(0);
    expect(vi(await ringsOf(db)).properties.label).toBe('MMI VI (strong shaking), USGS ShakeMap v3');
    const later = { CATINTEL_NOW: '1989-10-18T03:00:00Z' };
    const next = await cli(['--db', db, '--json', 'ingest', 'usgs-earthquakes', '--from', `${base}/feed`], later);
    expect(next.json().runs[0]).toMatchObject({ updated: 1 });
    const rings = (await cli(['--db', db, '--json', 'events', 'rings', ID], later)).json().features as RingFeature[];
    expect(vi(rings).properties.label).toBe('MMI VI (strong shaking), USGS ShakeMap v4');
  });
});

describe("online: a ShakeMap's grid.xml is fetched once per version and runs the live loss", () => {
  let server: http.Server;
  let base: string;
  let version = '3';
  /** Versions whose grid.xml the server fails to give (USGS down half-way through a cycle). */
  const gridDown = new Set<string>();
  const published: Record<string, number> = {
    '3': Date.parse('1989-10-18T00:35:00Z'),
    '4': Date.parse('1989-10-18T02:00:00Z'),
    '5': Date.parse('1989-10-18T02:30:00Z'),
  };
  let hits: string[] = [];
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      hits.push(req.url!);
      if (req.url === '/feed') {
        const feed = JSON.parse(fs.readFileSync(FEED, 'utf8'));
        feed.features[0].properties.detail = `${base}/detail/nc216859.geojson`;
        return res.writeHead(200, { 'content-type': 'application/geo+json' }).end(JSON.stringify(feed));
      }
      if (req.url === '/detail/nc216859.geojson')
        return res
          .writeHead(200, { 'content-type': 'application/geo+json' })
          .end(JSON.stringify(comcatDetail(base, version, published[version])));
      if (req.url === `/v${version}/cont_mmi.json`)
        return res.writeHead(200, { 'content-type': 'application/json' }).end(fs.readFileSync(CONT_MMI));
      if (req.url === `/v${version}/grid.xml` && !gridDown.has(version))
        return res.writeHead(200, { 'content-type': 'application/xml' }).end(fs.readFileSync(GRID));
      res.writeHead(404).end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((r) => server.close(r)));

  it('the first ingest stores the grid (the loss names its version), the same version is not fetched again, a new one is; a grid not read is a note', async () => {
    const later = { CATINTEL_NOW: '1989-10-18T03:00:00Z' };
    const models = await testModels('earthquake', { years: EARTHQUAKE_TEST_PACKAGE_YEARS });
    const dir = tempDir('catintel-online-grid-');
    const db = path.join(dir, 'store.duckdb');
    const book = path.join(dir, 'bay.csv');
    fs.writeFileSync(
      book,
      [
        'PortNumber,AccNumber,LocNumber,Latitude,Longitude,CountryCode,OccupancyCode,ConstructionCode,LocPerilsCovered,BuildingTIV,ContentsTIV,BITIV,LocCurrency',
        '1,BAY,SJ,37.3382,-121.8863,US,1050,5050,QQ1,500000,100000,0,USD',
        '1,BAY,OAK,37.8044,-122.2712,US,1050,5050,QQ1,500000,100000,0,USD',
      ].join('\n') + '\n',
    );
    const imported = await cli(['--db', db, '--json', 'portfolio', 'import', book, '--name', 'Bay'], env);
    expect(imported.code, imported.stderr).toBe(0);
    const footprint = async (clock: Record<string, string>) => {
      const r = await cli(
        ['--db', db, '--json', 'portfolio', 'event-loss', imported.json().id, '--event', 'nc216859', '--samples', '5'],
        { ...clock, CATINTEL_MODELS: models },
      );
      expect(r.code, r.stderr).toBe(0);
      return r.json().footprint;
    };
    const ingest = async (clock: Record<string, string>) => {
      hits = [];
      const r = await cli(['--db', db, '--json', 'ingest', 'usgs-earthquakes', '--from', `${base}/feed`], clock);
      expect(r.code, r.stderr).toBe(0);
      return r.json().runs[0];
    };

    const first = await ingest(env);
    expect(hits).toEqual(['/feed', '/detail/nc216859.geojson', '/v3/cont_mmi.json', '/v3/grid.xml']);
    expect(first.notes).toBeUndefined();
    expect(await footprint(env)).toMatchObject({
      kind: 'shakemap',
      product: 'USGS ShakeMap grid.xml',
      version: 'ShakeMap grid.xml version 3 processed 2014-10-25T13:28:48Z',
    });

    // The next cycle, same ShakeMap version: the contours are read again (they are small), the grid is not.
    expect(await ingest(env)).toMatchObject({ unchanged: 1 });
    expect(hits).toEqual(['/feed', '/detail/nc216859.geojson', '/v3/cont_mmi.json']);

    version = '4';
    expect(await ingest(later)).toMatchObject({ updated: 1 });
    expect(hits).toEqual(['/feed', '/detail/nc216859.geojson', '/v4/cont_mmi.json', '/v4/grid.xml']);
    expect((await footprint(later)).version).toBe('ShakeMap grid.xml version 4 processed 2014-10-25T13:28:48Z');

    // Version 5's grid cannot be read: its contours still make the rings, the run says why, the loss stays on 4.
    version = '5';
    gridDown.add('5');
    const failed = await ingest(later);
    expect(failed).toMatchObject({ status: 'ok', updated: 1, skipped: 0 });
    expect(hits).toEqual(['/feed', '/detail/nc216859.geojson', '/v5/cont_mmi.json', '/v5/grid.xml']);
    expect(failed.notes).toHaveLength(1);
    expect(failed.notes[0]).toMatch(
      /^ShakeMap grid\.xml of nc216859 \(version 5\) not read from http:\/\/127\.0\.0\.1:\d+\/v5\/grid\.xml: could not read .*HTTP 404/,
    );
    const rings = (await cli(['--db', db, '--json', 'events', 'rings', ID], later)).json().features as RingFeature[];
    expect(vi(rings).properties.label).toBe('MMI VI (strong shaking), USGS ShakeMap v5');
    expect((await footprint(later)).version).toBe('ShakeMap grid.xml version 4 processed 2014-10-25T13:28:48Z');
    // Once USGS gives it, the next cycle reads it.
    gridDown.delete('5');
    await ingest(later);
    expect(hits).toContain('/v5/grid.xml');
    expect((await footprint(later)).version).toBe('ShakeMap grid.xml version 5 processed 2014-10-25T13:28:48Z');
  }, 600_000);
});
