/**
 * What-if scenarios (issue 13, docs/intelligence.md "Scenarios"): a hypothetical event goes through the ring
 * and exposure code of a real one, so an M7.0 scenario at a point gives the same rings and the same exposure
 * as a real USGS record of an M7.0 there, ingested; runs are stored with an id, per account, analyst and up.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { Store } from '../src/store/db.js';
import { cli, tempDir } from './helpers/cli.js';
import { FIXTURES } from './helpers/paths.js';
import { contextOn, platform, token, type Platform } from './http/helpers/harness.js';

const NOW = '1989-10-18T00:50:00Z';
const LOMA = path.join(FIXTURES, 'feeds/usgs/nc216859_lomaprieta1989.geojson');

/** The real Loma Prieta record, its magnitude set to 7.0: a real-format USGS feed file of an M7.0 at its epicentre. */
function m7Feed(dir: string): { file: string; lat: number; lng: number; depthKm: number } {
  const d = JSON.parse(fs.readFileSync(LOMA, 'utf8'));
  d.features[0].properties.mag = 7.0;
  const [lng, lat, depthKm] = d.features[0].geometry.coordinates;
  const file = path.join(dir, 'm7.geojson');
  fs.writeFileSync(file, JSON.stringify(d));
  return { file, lat, lng, depthKm };
}

async function onHttp<T>(db: string, fn: (p: Platform) => Promise<T>): Promise<T> {
  const store = await Store.open(db);
  try {
    return await fn(
      await platform(store, { rateLimit: 'off', ctx: { ...contextOn(store), clock: () => new Date(NOW) } }),
    );
  } finally {
    await store.close();
  }
}

/** What the two must share: everything but ids and provenance (a scenario's records name its request, a real event's its feed). */
const NO_PROVENANCE = { source: undefined, source_url: undefined, ingested_at: undefined };
const ringShape = (features: any[]) =>
  features.map((f) => ({
    geometry: f.geometry,
    ...f.properties,
    ring_id: undefined,
    event_id: undefined,
    ...NO_PROVENANCE,
  }));
const exposureShape = (rings: any[]) => rings.map((r) => ({ ...r, ring_id: undefined, ...NO_PROVENANCE }));

let db: string;
let quake: ReturnType<typeof m7Feed>;
beforeAll(async () => {
  const dir = tempDir();
  db = path.join(dir, 'store.duckdb');
  quake = m7Feed(dir);
  const r = await cli(['--db', db, '--quiet', 'ingest', 'usgs-earthquakes', '--from', quake.file], {
    CATINTEL_NOW: NOW,
  });
  expect(r.code, r.stderr).toBe(0);
});

describe('an M7.0 scenario at a point', () => {
  it('gives the same rings and the same exposure as an ingested real M7.0 there', async () => {
    const real = (await cli(['--db', db, '--json', 'events', 'rings', 'nc216859'], { CATINTEL_NOW: NOW })).json();
    const realExposure = (
      await cli(['--db', db, '--json', 'events', 'exposure', 'nc216859'], { CATINTEL_NOW: NOW })
    ).json();
    const r = await cli(
      [
        '--db',
        db,
        '--json',
        'scenario',
        'run',
        '--event-type',
        'earthquake',
        '--lat',
        String(quake.lat),
        '--lng',
        String(quake.lng),
        '--magnitude',
        '7.0',
        '--depth-km',
        String(quake.depthKm),
        '--name',
        'Loma Prieta at M7.0',
      ],
      { CATINTEL_NOW: NOW },
    );
    expect(r.code, r.stderr).toBe(0);
    const s = r.json();
    expect(real.features.length).toBeGreaterThanOrEqual(2);
    expect(ringShape(s.rings.features)).toEqual(ringShape(real.features));
    expect(exposureShape(s.exposure.rings)).toEqual(exposureShape(realExposure.rings));
    expect(s.rings.features[0].properties).toMatchObject({
      source: 'scenario request',
      source_url: `/api/v1/scenarios/${s.id}`,
      ingested_at: NOW,
    });
    expect(real.features[0].properties).toMatchObject({
      source: 'usgs-earthquakes',
      source_url: expect.stringMatching(/^https:\/\/earthquake\.usgs\.gov\//),
    });
    expect(s.exposure.rings.at(-1).population.population).toBeGreaterThan(1_000_000);
    expect(s.scores.covered).toBe(true);
    // PAGER-style lower bound from the MMI bands, the same as the real event's.
    expect(s.exposure.impact).toEqual(realExposure.impact);
    expect(s.exposure.impact.bands[0]).toMatchObject({ mmi_to: null });
    expect(s.exposure.impact.fatalities_lower_bound).toBe(
      Math.round(s.exposure.impact.bands.reduce((t: number, b: any) => t + b.population * b.fatality_rate, 0)),
    );
    expect(s.scores.perils[0].peril).toBe('earthquake');
  });
});

describe('stored scenarios over HTTP', () => {
  it('POST answers 201 with a Location; GET gives the stored result to its account only', async () => {
    await onHttp(db, async (p) => {
      const analyst = await token('analyst', { sub: 'alice@example.com' });
      const body = {
        event_type: 'hurricane',
        lat: 25.77,
        lng: -80.19,
        category: 4,
        pressure_mb: 940,
        name: 'Miami Cat 4',
      };
      const r = await p.call('/api/v1/scenarios/run', { body, token: analyst });
      expect(r.status).toBe(201);
      expect(r.headers.get('location')).toBe(`/api/v1/scenarios/${r.body.id}`);
      expect(r.body.request).toMatchObject({ event_type: 'hurricane', category: 4, wind_kt: 125 });
      expect(r.body.rings.features.map((f: any) => f.properties.threshold)).toEqual([64, 50, 34]);
      const inner = r.body.exposure.rings[0];
      expect(inner.population.population).toBeGreaterThan(500_000);
      expect(inner.infrastructure.hospitals.map((h: any) => h.name)).toContain('JACKSON MEMORIAL HOSPITAL');
      const again = await p.call(`/api/v1/scenarios/${r.body.id}`, { token: analyst });
      expect(again.status).toBe(200);
      expect(again.body).toEqual(r.body);
      expect(
        (await p.call(`/api/v1/scenarios/${r.body.id}`, { token: await token('analyst', { sub: 'bob@example.com' }) }))
          .status,
      ).toBe(404);
      expect((await p.call('/api/v1/scenarios/run', { body, token: await token('agency') })).status).toBe(403);
      expect((await p.call('/api/v1/scenarios/run', { body })).status).toBe(401);
    });
  });

  it('refuses fields that do not fit with 422 naming each', async () => {
    await onHttp(db, async (p) => {
      const analyst = await token('analyst');
      const r = await p.call('/api/v1/scenarios/run', {
        body: { event_type: 'earthquake', lat: 34, lng: -118, magnitude: 12, area_acres: 5 },
        token: analyst,
        unchecked: true,
      });
      expect(r.status).toBe(422);
      expect(r.body.errors.map((e: any) => e.field).sort()).toEqual(['area_acres', 'magnitude']);
    });
  });

  it('takes peril as an alias of event_type, in the body and on the command line', async () => {
    await onHttp(db, async (p) => {
      const analyst = await token('analyst', { sub: 'dave@example.com' });
      const r = await p.call('/api/v1/scenarios/run', {
        body: { peril: 'hurricane', lat: 25.77, lng: -80.19, category: 3 },
        token: analyst,
      });
      expect(r.status).toBe(201);
      expect(r.body.request.event_type).toBe('hurricane');
      expect(r.body.hypothetical_event.event_type).toBe('hurricane');
      const named = await p.call('/api/v1/scenarios/run', {
        body: { peril: 'riverine_flood', lat: 38.95, lng: -77.13, gauge: '01646500', stage_ft: 15 },
        token: analyst,
      });
      expect(named.status).toBe(201);
      expect(named.body.request.event_type).toBe('flood');
      const clash = await p.call('/api/v1/scenarios/run', {
        body: { peril: 'hurricane', event_type: 'earthquake', lat: 34, lng: -118, magnitude: 7 },
        token: analyst,
        unchecked: true,
      });
      expect(clash.status).toBe(422);
      expect(clash.body.errors.map((e: any) => e.field)).toEqual(['peril']);
    });
    const c = await cli(
      [
        '--db',
        db,
        '--account',
        'dave@example.com',
        '--json',
        'scenario',
        'run',
        '--peril',
        'earthquake',
        '--lat',
        '34.05',
        '--lng',
        '-118.25',
        '--magnitude',
        '6.5',
      ],
      { CATINTEL_NOW: NOW },
    );
    expect(c.code, c.stderr).toBe(0);
    expect(c.json().request.event_type).toBe('earthquake');
  });

  it("evaluates the caller's active triggers as an evaluation run would, writing nothing", async () => {
    const acct = ['--account', 'carol@example.com'];
    const t = await cli(
      [
        '--db',
        db,
        ...acct,
        '--json',
        'trigger',
        'create',
        '--name',
        'SF M6.5',
        '--peril',
        'earthquake',
        '--lat',
        String(quake.lat),
        '--lng',
        String(quake.lng),
        '--radius-km',
        '50',
        '--threshold-type',
        'magnitude',
        '--threshold-value',
        '6.5',
      ],
      { CATINTEL_NOW: NOW },
    );
    expect(t.code, t.stderr).toBe(0);
    const r = await cli(
      [
        '--db',
        db,
        ...acct,
        '--json',
        'scenario',
        'run',
        '--event-type',
        'earthquake',
        '--lat',
        String(quake.lat),
        '--lng',
        String(quake.lng),
        '--magnitude',
        '6.8',
      ],
      { CATINTEL_NOW: NOW },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.json().triggers.evaluated).toBe(1);
    expect(r.json().triggers.results[0]).toMatchObject({ name: 'SF M6.5', state: 'triggered', observed_value: 6.8 });
    const history = await cli(['--db', db, ...acct, '--json', 'trigger', 'history', t.json().id], {
      CATINTEL_NOW: NOW,
    });
    expect(history.code, history.stderr).toBe(0);
    expect(history.json().entries).toEqual([]);
  });
});
