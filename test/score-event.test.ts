/**
 * GET /api/v1/events/{id}/score and `catintel events score ID`: hazard scores at an event's location,
 * with the tier rules of /risk/score (docs/contract.md#access, #scores), over real USGS feed events, through the in-process
 * app and the CLI.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBaselineGrid } from '../src/reference-data/load-baseline.js';
import { loadModelDamage } from '../src/reference-data/model-damage.js';
import { cellAt } from '../src/domain/scoring/grid.js';
import { PERILS } from '../src/domain/scoring/perils.js';
import { scorePoint } from '../src/domain/scoring/score-point.js';
import type { Store } from '../src/store/db.js';
import { cli } from './helpers/cli.js';
import { appOn, weekStore, WEEK_NOW } from './helpers/store.js';
import { platform, seededStore, token, type Platform } from './http/helpers/harness.js';

interface Ev {
  id: string;
  slug: string;
  lat: number;
  lng: number;
}

const grid = loadBaselineGrid();
const covered = (e: Ev) => cellAt(grid, e.lat, e.lng) >= 0;

async function liveEvents(get: (url: string) => Promise<{ body: any }>): Promise<Ev[]> {
  const r = await get('/api/v1/events/live?limit=1000');
  return r.body.features.map((f: any) => ({
    id: f.properties.id,
    slug: f.properties.slug,
    lng: f.geometry.coordinates[0],
    lat: f.geometry.coordinates[1],
  }));
}

describe('GET /events/{id}/score (tiers and answers)', () => {
  let db: Store;
  let p: Platform;
  let inside: Ev;
  let outside: Ev;
  const get = (url: string, tokenValue?: string) => p.call(url, { token: tokenValue, unchecked: true });

  beforeAll(async () => {
    db = await seededStore();
    p = await platform(db);
    const events = await liveEvents((u) => get(u));
    inside = events.find(covered)!;
    outside = events.find((e) => !covered(e))!;
    expect(inside && outside).toBeTruthy();
  });
  afterAll(async () => {
    await p.close();
    await db.close();
  });

  it('free tier: the peril with the highest expected annual damage ratio at the event, why, and the event named', async () => {
    const r = await p.call(`/api/v1/events/${inside.id}/score`); // checked against openapi.yaml
    expect(r.status).toBe(200);
    expect(r.body.event).toMatchObject({ id: inside.id, slug: inside.slug, lat: inside.lat, lng: inside.lng });
    // The server reads the model packages' damage ratios from the committed table (data/model-damage/).
    const all = scorePoint(grid, {
      lat: inside.lat,
      lng: inside.lng,
      scenario: 'baseline',
      modelDamage: loadModelDamage(),
    });
    if (!all.covered) throw new Error('not covered');
    const ratio = (x: (typeof all.perils)[number]) =>
      x.score_components.vulnerability.expected_annual_damage_ratio ?? -1;
    const best = [...all.perils].sort((a, b) => ratio(b) - ratio(a))[0];
    expect(r.body.perils).toHaveLength(1);
    expect(r.body.perils[0]).toMatchObject({ peril: best.peril, score: best.score });
    expect(r.body.peril_selection).toMatchObject({ rule: 'highest_expected_annual_damage_ratio', peril: best.peril });
    expect(Object.keys(r.body.perils[0].score_components).sort()).toEqual([
      'baseline_score',
      'climate_adjustment',
      'confidence',
      'exposure',
      'frequency',
      'intensity',
      'resolution',
      'vulnerability',
    ]);
  });

  it('accepts the slug, one named peril on the free tier, and refuses two (403)', async () => {
    const one = await get(`/api/v1/events/${inside.slug}/score?perils=earthquake&scenario=ssp585&horizon=2080`);
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ scenario: 'ssp585', horizon: 2080, perils: [{ peril: 'earthquake' }] });
    const two = await get(`/api/v1/events/${inside.id}/score?perils=earthquake,tornado`);
    expect(two.status).toBe(403);
    expect(two.body.code).toBe('insufficient_tier');
  });

  it('gives paid tiers every peril', async () => {
    const r = await get(`/api/v1/events/${inside.id}/score`, await token('agency'));
    expect(r.status).toBe(200);
    expect(r.body.perils.map((x: { peril: string }) => x.peril)).toEqual([...PERILS]);
  });

  it('format=oasis: 401 without a credential, 403 below enterprise, the OED and keys rows for enterprise', async () => {
    const url = `/api/v1/events/${inside.id}/score?format=oasis`;
    expect((await get(url)).status).toBe(401);
    expect((await get(url, await token('analyst'))).status).toBe(403);
    const r = await get(url, await token('enterprise'));
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ format: 'oasis', oed_version: '5.0.0', event: { id: inside.id }, keys_errors: [] });
    expect(r.body.location).toHaveLength(1);
    expect(r.body.location[0]).toMatchObject({
      PortNumber: 'catintel',
      AccNumber: inside.id,
      LocNumber: '1',
      Latitude: inside.lat,
      Longitude: inside.lng,
      LocPerilsCovered: 'WTC;WSS;QEQ;XTD;BBF;ORF;ZSN',
      LocCurrency: 'USD',
      OEDVersion: '5.0.0',
      FlexiLocScoreScenario: 'baseline',
    });
    const cell = cellAt(grid, inside.lat, inside.lng);
    expect(r.body.keys.map((k: any) => [k.PerilID, k.AreaPerilID])).toEqual([
      ['WTC', (cell + 1) * 10 + 0],
      ['WSS', (cell + 1) * 10 + 1],
      ['QEQ', (cell + 1) * 10 + 2],
      ['XTD', (cell + 1) * 10 + 3],
      ['BBF', (cell + 1) * 10 + 4],
      ['ORF', (cell + 1) * 10 + 5],
      ['ZSN', (cell + 1) * 10 + 8],
    ]);
    expect(r.body.keys.every((k: any) => k.LocID === 1 && k.CoverageTypeID === 1 && k.VulnerabilityID === 0)).toBe(
      true,
    );
  });

  it('refuses an event outside the covered area with 422, and an unknown event with 404', async () => {
    const r = await get(`/api/v1/events/${outside.id}/score`);
    expect(r.status).toBe(422);
    expect(r.body.code).toBe('validation_failed');
    expect(r.body.detail).toMatch(/is outside the covered area \(US states, DC and territories\)/);
    expect((await get('/api/v1/events/00000000-0000-4000-8000-000000000000/score')).status).toBe(404);
  });
});

describe('catintel events score ID (CLI) gives what the API gives', () => {
  it('the same JSON through both adapters, json and oasis', async () => {
    const dbPath = await weekStore();
    const events = await (async () => {
      const r = await cli(['--db', dbPath, '--json', 'events', 'live', '--limit', '1000'], { CATINTEL_NOW: WEEK_NOW });
      return r.json().features.map((f: any) => ({
        id: f.properties.id,
        slug: f.properties.slug,
        lng: f.geometry.coordinates[0],
        lat: f.geometry.coordinates[1],
      })) as Ev[];
    })();
    const inside = events.find(covered)!;
    const key = (
      await cli(['--db', dbPath, '--json', 'keys', 'create', '--tier', 'enterprise', '--name', 'test'], {
        CATINTEL_NOW: WEEK_NOW,
      })
    ).json().key as string;
    const viaCli = [];
    for (const args of [[], ['--format', 'oasis'], ['--perils', 'earthquake', '--scenario', 'ssp245']]) {
      const r = await cli(['--db', dbPath, '--json', 'events', 'score', inside.slug, ...args], {
        CATINTEL_NOW: WEEK_NOW,
      });
      expect(r.code, r.stderr).toBe(0);
      viaCli.push(r.json());
    }
    const server = await appOn(dbPath, WEEK_NOW);
    try {
      const urls = ['', '?format=oasis', '?perils=earthquake&scenario=ssp245'].map(
        (q) => `/api/v1/events/${inside.slug}/score${q}`,
      );
      for (const [i, url] of urls.entries()) {
        const res = await server.get(url, { authorization: `Bearer ${key}` });
        expect(res.status, url).toBe(200);
        expect(await res.json()).toEqual(viaCli[i]);
      }
    } finally {
      await server.close();
    }
    const missing = await cli(['--db', dbPath, 'events', 'score', 'no-such-event'], { CATINTEL_NOW: WEEK_NOW });
    expect(missing.code).toBe(2); // an unknown id is bad input (docs/contract.md#errors)
    expect(missing.stderr).toMatch(/no event with id, slug or source id "no-such-event".*\[not_found\]/);
  });
});
