/**
 * Request bodies and what the answer to a bad one costs (issue 7, items 8 and 17): a 422 lists at most
 * 100 field problems and says how many more there were, problem bodies are compressed like any other;
 * planned POST endpoints check their body against the document before answering 501; GET /api/v1 is
 * a landing page.
 */
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/db.js';
import { platform, seededStore, token, type Platform } from './helpers/harness.js';

let db: Store;
let p: Platform;
let agency: string;
beforeAll(async () => {
  db = await seededStore();
  p = await platform(db);
  agency = await token('agency');
});
afterAll(() => db.close());

const TRIGGER = {
  name: 'Miami wind',
  peril: 'hurricane',
  lat: 25.76,
  lng: -80.19,
  radius_km: 50,
  threshold_type: 'wind_speed_kt',
  threshold_value: 64,
};

describe('a 422 for a body with 60,000 unknown fields', () => {
  const body = Object.fromEntries(Array.from({ length: 60_000 }, (_, i) => [`field_${i}`, 1]));

  it('lists the first 100 problems, counts the rest, and stays small', async () => {
    const r = await p.call('/api/v1/admin/keys', { token: p.adminToken, body });
    expect(r.status).toBe(422);
    expect(r.body.code).toBe('validation_failed');
    expect(r.body.errors).toHaveLength(100);
    expect(r.body.errors[0]).toEqual({
      field: 'field_0',
      message: 'unknown field; allowed: name, tier, sandbox, account',
    });
    // 60,000 unknown fields, and name and tier are missing.
    expect(r.body.errors_omitted).toBe(60_002 - 100);
    expect(r.body.detail.length).toBeLessThanOrEqual(2000);
    expect(r.body.detail).toMatch(/; and \d+ more$/);
    expect(Buffer.byteLength(JSON.stringify(r.body))).toBeLessThan(16_000); // was 8.7 MB
  });

  it('is compressed for a client that accepts gzip', async () => {
    const req = new Request('http://localhost/api/v1/admin/keys', {
      method: 'POST',
      headers: {
        authorization: `Bearer ${p.adminToken}`,
        'content-type': 'application/json',
        'accept-encoding': 'gzip',
      },
      body: JSON.stringify(body),
    });
    const res = await p.app.fetch(req);
    expect(res.status).toBe(422);
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(bytes.length).toBeLessThan(3000);
    expect(JSON.parse(gunzipSync(bytes).toString()).errors_omitted).toBe(59_902);
  });
});

describe('POST /triggers checks the body (a real endpoint now; docs/triggers.md)', () => {
  it('400 for malformed JSON or no body, 422 naming each bad field, 201 for a valid body', async () => {
    const malformed = await p.call('/api/v1/triggers', {
      token: agency,
      raw: '{"name": ',
      contentType: 'application/json',
    });
    expect([malformed.status, malformed.body.code]).toEqual([400, 'invalid_request']);
    const none = await p.call('/api/v1/triggers', { method: 'POST', token: agency });
    expect([none.status, none.body.code]).toEqual([400, 'invalid_request']);

    const bad = await p.call('/api/v1/triggers', {
      token: agency,
      body: { ...TRIGGER, lat: 91, radius_km: undefined, radius: 50, threshold_type: 'gust' },
    });
    expect([bad.status, bad.body.code]).toEqual([422, 'validation_failed']);
    expect(bad.body.errors).toEqual(
      expect.arrayContaining([
        { field: 'radius_km', message: expect.stringMatching(/^required/) },
        {
          field: 'radius',
          message: expect.stringMatching(/^unknown field; allowed: name, peril, lat, lng, radius_km, /),
        },
        { field: 'lat', message: '91 is not a latitude in [-90, 90]' },
        {
          field: 'threshold_type',
          message: expect.stringMatching(/^"gust" is not a threshold type: one of wind_speed_kt, storm_surge_ft, /),
        },
      ]),
    );
    const notObject = await p.call('/api/v1/triggers', { token: agency, body: [TRIGGER] });
    expect(notObject.body.errors).toEqual([{ field: 'body', message: 'a JSON object' }]);

    const ok = await p.call('/api/v1/triggers', { token: agency, body: TRIGGER });
    expect(ok.status).toBe(201);
  });
});

describe('planned POST endpoints check the body before answering 501', () => {
  it('the same for saved locations, scenarios and portfolios (JSON and OED CSV)', async () => {
    expect((await p.call('/api/v1/locations', { body: { name: 'home', lat: 38.8 } })).body.errors).toEqual([
      { field: 'lng', message: 'is required' },
    ]);
    expect((await p.call('/api/v1/locations', { body: { name: 'home', lat: 38.8, lng: -122.8 } })).status).toBe(201); // built (issue 11)

    const analyst = await token('analyst');
    const scenario = await p.call('/api/v1/scenarios/run', {
      token: analyst,
      body: { event_type: 'meteor', lat: 38.8, lng: -122.8 },
    });
    expect(scenario.body.errors[0].field).toBe('event_type');
    // Built (issue 13): `severity` is not a scenario field (the magnitude is), so it is named; with the magnitude the run is 201.
    const severity = await p.call('/api/v1/scenarios/run', {
      token: analyst,
      body: { event_type: 'earthquake', lat: 38.8, lng: -122.8, severity: 7 },
    });
    expect([severity.status, severity.body.errors.map((e: any) => e.field)]).toEqual([422, ['severity']]);
    expect(
      (
        await p.call('/api/v1/scenarios/run', {
          token: analyst,
          body: { event_type: 'earthquake', lat: 38.8, lng: -122.8, magnitude: 7 },
        })
      ).status,
    ).toBe(201);

    const noLat = await p.call('/api/v1/portfolio', {
      token: agency,
      body: {
        name: 'book',
        locations: [
          { LocNumber: '1', Latitude: 25.7, Longitude: -80.2 },
          { LocNumber: '2', Longitude: -80.2 },
        ],
      },
    });
    expect(noLat.body.errors).toEqual([{ field: 'locations[1].Latitude', message: 'is required' }]);
    const csvNoLng = await p.call('/api/v1/portfolio', {
      token: agency,
      raw: 'LocNumber,Latitude\n1,25.7\n',
      contentType: 'text/csv',
    });
    expect(csvNoLng.status).toBe(400); // built (issue 11): a CSV upload names its portfolio in ?name=
    const csvNoLngNamed = await p.call('/api/v1/portfolio?name=book', {
      token: agency,
      raw: 'LocNumber,Latitude\n1,25.7\n',
      contentType: 'text/csv',
    });
    expect(csvNoLngNamed.status).toBe(422);
    expect(csvNoLngNamed.body.errors[0].message).toMatch(/no longitude column/);
    const csv = await p.call('/api/v1/portfolio?name=book', {
      token: agency,
      raw: 'LocNumber,latitude,longitude\n1,25.7,-80.2\n',
      contentType: 'text/csv',
    });
    expect(csv.status).toBe(201);
  });

  it('still checks access before the body: no credential on a paid endpoint is 401, not 422', async () => {
    const r = await p.call('/api/v1/triggers', { body: { nonsense: true } });
    expect(r.status).toBe(401);
  });
});

describe('GET /api/v1 is a landing page', () => {
  it('answers with and without the slash, linking to the OpenAPI document, the OGC collections and the live events', async () => {
    for (const path of ['/api/v1', '/api/v1/']) {
      const r = await p.call(path);
      expect(r.status).toBe(200);
      expect(r.body.title).toBe('catintel Catastrophe Intelligence API');
      expect(r.body.links.map((l: { rel: string }) => l.rel)).toEqual([
        'self',
        'service-desc',
        'conformance',
        'data',
        'items',
        'status',
      ]);
    }
    // Every link answers.
    const { body } = await p.call('/api/v1/');
    // Absolute (GIS clients follow them), with the origin the client called.
    for (const link of body.links) expect((await p.call(new URL(link.href).pathname)).status, link.href).toBe(200);
  });
});
