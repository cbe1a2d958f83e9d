/**
 * docs/contract.md#access and #credentials as a matrix: every Profile 1 endpoint called with every kind of credential gets
 * the status the contract gives. The table below is the contract's, written out independently of the
 * route table, so a route registered with the wrong access level fails here. A caller the contract
 * admits gets exactly what an enterprise caller gets (501 for endpoints not built yet, whose access
 * checks run all the same); one it does not admit gets 401 (no credential) or 403 (tier too low); a
 * bad credential gets 401 everywhere. As endpoints get built, the matrix keeps checking their access.
 */
import { SignJWT, UnsecuredJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HANDLERS } from '../../src/handlers/registry.js';
import { tierAtLeast, type Tier } from '../../src/handlers/types.js';
import { RouteTable } from '../../src/http/routes.js';
import { revokeApiKey } from '../../src/store/keys.js';
import type { Store } from '../../src/store/db.js';
import { AUTH, apiKey, liveEventId, platform, seededStore, token, type Platform } from '../http/helpers/harness.js';

interface Endpoint {
  method: 'GET' | 'POST';
  path: string;
  access: Tier;
  query?: string;
  body?: unknown;
}

const TRIGGER = {
  name: 'Miami wind',
  peril: 'hurricane',
  lat: 25.76,
  lng: -80.19,
  radius_km: 50,
  threshold_type: 'wind_speed_kt',
  threshold_value: 64,
};
const P = '00000000-0000-4000-8000-000000000001';

/** docs/contract.md#access, Profile 1 ({id} is filled with a live event of the seeded feed). */
const CONTRACT: Endpoint[] = [
  { method: 'GET', path: '/events/live', access: 'free' },
  { method: 'GET', path: '/events/{id}', access: 'free' },
  { method: 'GET', path: '/events/{id}/rings', access: 'free' },
  { method: 'GET', path: '/events/nearby', access: 'free', query: 'lat=38.8&lng=-122.8' },
  { method: 'GET', path: '/events/{id}/prediction', access: 'free' },
  { method: 'GET', path: '/events/{id}/timeline', access: 'agency' },
  { method: 'GET', path: '/events/{id}/ics209', access: 'agency' },
  { method: 'GET', path: '/events/{id}/exposure', access: 'analyst' },
  { method: 'GET', path: '/events/{id}/briefing', access: 'analyst' },
  {
    method: 'POST',
    path: '/scenarios/run',
    access: 'analyst',
    body: { event_type: 'earthquake', lat: 38.8, lng: -122.8, magnitude: 6.5 },
  },
  { method: 'GET', path: `/scenarios/${P}`, access: 'analyst' },
  { method: 'GET', path: '/infrastructure', access: 'free', query: 'lat=38.8&lng=-122.8' },
  { method: 'GET', path: '/risk/score', access: 'free', query: 'lat=38.8&lng=-122.8' },
  { method: 'GET', path: '/hazard/curve', access: 'free', query: 'lat=38.8&lng=-122.8&peril=earthquake' },
  { method: 'GET', path: '/risk/score', access: 'enterprise', query: 'lat=38.8&lng=-122.8&format=oasis' },
  { method: 'GET', path: '/events/{id}/score', access: 'free' },
  { method: 'GET', path: '/events/{id}/score', access: 'enterprise', query: 'format=oasis' },
  { method: 'GET', path: '/portfolio', access: 'agency' },
  {
    method: 'POST',
    path: '/portfolio',
    access: 'agency',
    body: { name: 'book', locations: [{ LocNumber: '1', Latitude: 38.8, Longitude: -122.8 }] },
  },
  { method: 'GET', path: '/portfolio/exposure', access: 'agency', query: `portfolio_id=${P}` },
  { method: 'GET', path: '/portfolio/ep-curve', access: 'agency', query: `portfolio_id=${P}` },
  { method: 'GET', path: '/triggers', access: 'agency' },
  { method: 'POST', path: '/triggers', access: 'agency', body: TRIGGER },
  { method: 'GET', path: `/triggers/${P}/history`, access: 'agency' },
  { method: 'GET', path: '/locations', access: 'free' },
  { method: 'POST', path: '/locations', access: 'free', body: { name: 'home', lat: 38.8, lng: -122.8 } },
  { method: 'GET', path: '/locations/exposure', access: 'free' },
  { method: 'GET', path: '/locations/alerts', access: 'free' },
];

type Credential = { name: string; tier?: Tier; valid: boolean; value?: string };

let db: Store;
let p: Platform;
let eventId: string;
const credentials: Credential[] = [];

beforeAll(async () => {
  db = await seededStore();
  p = await platform(db);
  eventId = (await liveEventId(p)).id;
  const now = Math.floor(Date.now() / 1000);
  const good = await token('analyst');
  const [h, body] = good.split('.');
  const claims = JSON.parse(Buffer.from(body, 'base64url').toString());
  const revoked = await apiKey(db, 'enterprise');
  await revokeApiKey(db, revoked.id, '2022-09-29T03:32:09Z');
  credentials.push(
    { name: 'free (no credential)', tier: 'free', valid: true },
    { name: 'agency JWT', tier: 'agency', valid: true, value: await token('agency') },
    { name: 'analyst JWT', tier: 'analyst', valid: true, value: await token('analyst') },
    { name: 'enterprise JWT', tier: 'enterprise', valid: true, value: await token('enterprise') },
    { name: 'agency API key', tier: 'agency', valid: true, value: (await apiKey(db, 'agency')).key },
    { name: 'analyst API key (sandbox)', tier: 'analyst', valid: true, value: (await apiKey(db, 'analyst', true)).key },
    { name: 'enterprise API key', tier: 'enterprise', valid: true, value: (await apiKey(db, 'enterprise')).key },
    {
      name: 'expired JWT',
      valid: false,
      value: await new SignJWT({ tier: 'enterprise' })
        .setProtectedHeader({ alg: 'HS256' })
        .setIssuer(AUTH.issuer)
        .setAudience(AUTH.audience)
        .setSubject('late@example.com')
        .setIssuedAt(now - 7200)
        .setExpirationTime(now - 3600)
        .sign(AUTH.secret!),
    },
    // The payload says enterprise now; the signature was made over analyst.
    {
      name: 'tampered JWT',
      valid: false,
      value: `${h}.${Buffer.from(JSON.stringify({ ...claims, tier: 'enterprise' })).toString('base64url')}.${good.split('.')[2]}`,
    },
    {
      name: 'alg=none JWT',
      valid: false,
      value: new UnsecuredJWT({ tier: 'enterprise' })
        .setIssuer(AUTH.issuer)
        .setAudience(AUTH.audience)
        .setSubject('mallory@example.com')
        .setExpirationTime(now + 3600)
        .encode(),
    },
    {
      name: 'wrong-issuer JWT',
      valid: false,
      value: await token('enterprise', { issuer: 'https://evil.example.com' }),
    },
    { name: 'wrong-audience JWT', valid: false, value: await token('enterprise', { audience: 'another-api' }) },
    { name: 'revoked API key', valid: false, value: revoked.key },
    { name: 'unknown API key', valid: false, value: `ci_live_${'A'.repeat(43)}` },
    { name: 'garbage', valid: false, value: 'not-a-credential' },
  );
});
afterAll(() => db.close());

function expected(c: Credential, e: Endpoint, admitted: number): number {
  if (!c.valid) return 401;
  if (tierAtLeast(c.tier!, e.access)) return admitted;
  return c.tier === 'free' ? 401 : 403;
}

const CODES: Record<number, string> = { 401: 'unauthorized', 403: 'insufficient_tier', 501: 'not_implemented' };
const label = (e: Endpoint) => `${e.method} ${e.path}${e.query?.includes('oasis') ? ' (oasis)' : ''}`;

describe('the access matrix of docs/contract.md#access (Profile 1)', () => {
  it('gives every endpoint x credential the contract status', async () => {
    const table = new RouteTable(HANDLERS);
    const enterprise = await token('enterprise', { sub: 'matrix-reference@example.com' });
    const got: string[] = [];
    const want: string[] = [];
    for (const e of CONTRACT) {
      const path = `/api/v1${e.path.replace('{id}', eventId)}${e.query ? `?${e.query}` : ''}`;
      const m = table.match(e.method, path.split('?')[0]);
      expect(m.kind, label(e)).toBe('route');
      const planned = m.kind === 'route' && m.route.planned;
      const admitted = (await p.call(path, { method: e.method, token: enterprise, body: e.body })).status;
      expect([401, 403], `${label(e)} as enterprise`).not.toContain(admitted);
      if (planned) expect(admitted, label(e)).toBe(501);
      for (const c of credentials) {
        const r = await p.call(path, { method: e.method, token: c.value, body: e.body });
        got.push(`${label(e)} as ${c.name}: ${r.status}`);
        want.push(`${label(e)} as ${c.name}: ${expected(c, e, admitted)}`);
        if (CODES[r.status]) expect(r.body.code).toBe(CODES[r.status]);
      }
    }
    expect(got).toEqual(want);
    expect(got.length).toBe(CONTRACT.length * credentials.length);
  });

  it('challenges with WWW-Authenticate: Bearer on every 401, naming invalid_token for a bad credential', async () => {
    const missing = await p.call('/api/v1/triggers');
    expect(missing.status).toBe(401);
    expect(missing.headers.get('www-authenticate')).toBe('Bearer realm="catintel"');
    const bad = await p.call('/api/v1/events/live', {
      token: credentials.find((c) => c.name === 'expired JWT')!.value,
    });
    expect(bad.status).toBe(401);
    expect(bad.headers.get('www-authenticate')).toBe('Bearer realm="catintel", error="invalid_token"');
    expect(bad.body.detail).toMatch(/expired/);
  });

  it('says which tier an endpoint needs when the credential is below it', async () => {
    const r = await p.call(`/api/v1/events/${eventId}/briefing`, { token: await token('agency') });
    expect(r.status).toBe(403);
    expect(r.body).toMatchObject({ code: 'insufficient_tier', status: 403, title: 'Insufficient tier' });
    expect(r.body.detail).toMatch(/analyst tier or above; this credential is agency/);
    const oasis = await p.call('/api/v1/risk/score?lat=38.8&lng=-122.8&format=oasis', {
      token: await token('analyst'),
    });
    expect(oasis.body.detail).toMatch(/with format=oasis needs the enterprise tier/);
  });

  it('keeps the operator endpoints to the admin token, whatever the tier', async () => {
    for (const c of credentials) {
      const r = await p.call('/api/v1/admin/keys', { token: c.value });
      expect(r.status, c.name).toBe(c.valid && c.tier !== 'free' ? 403 : 401);
    }
    const ok = await p.call('/api/v1/admin/keys', { token: p.adminToken });
    expect(ok.status).toBe(200);
    const forged = await p.call('/api/v1/admin/keys', { token: `ci_admin_${'B'.repeat(43)}` });
    expect(forged.status).toBe(401);
  });
});
