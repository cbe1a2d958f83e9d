/**
 * CONTRACT §2 and §3 as a matrix: every Profile 1 endpoint called with every kind of credential gets
 * the status the contract gives. The table below is the contract's, written out independently of the
 * route table, so a route registered with the wrong access level fails here. Endpoints not built yet
 * answer 501 once the access checks pass (the same checks, from the same route table).
 */
import { SignJWT, UnsecuredJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tierAtLeast, type Tier } from '../../src/handlers/types.js';
import { revokeApiKey } from '../../src/store/keys.js';
import type { Store } from '../../src/store/db.js';
import { AUTH, apiKey, liveEventId, platform, seededStore, token, type Platform } from '../http/helpers/harness.js';

interface Endpoint { method: 'GET' | 'POST'; path: string; access: Tier; query?: string; body?: unknown; planned: boolean }

const TRIGGER = { name: 'Miami wind', peril: 'hurricane', lat: 25.76, lng: -80.19, radius_km: 50, threshold_type: 'wind_speed_kt', threshold_value: 64 };
const P = '00000000-0000-4000-8000-000000000001';

/** CONTRACT §2, Profile 1 ({id} is filled with a live event of the seeded feed). */
const CONTRACT: Endpoint[] = [
  { method: 'GET', path: '/events/live', access: 'free', planned: false },
  { method: 'GET', path: '/events/{id}', access: 'free', planned: false },
  { method: 'GET', path: '/events/{id}/rings', access: 'free', planned: false },
  { method: 'GET', path: '/events/nearby', access: 'free', query: 'lat=38.8&lng=-122.8', planned: false },
  { method: 'GET', path: '/events/{id}/prediction', access: 'free', planned: true },
  { method: 'GET', path: '/events/{id}/timeline', access: 'agency', planned: true },
  { method: 'GET', path: '/events/{id}/ics209', access: 'agency', planned: true },
  { method: 'GET', path: '/events/{id}/exposure', access: 'analyst', planned: true },
  { method: 'GET', path: '/events/{id}/briefing', access: 'analyst', planned: true },
  { method: 'POST', path: '/scenarios/run', access: 'analyst', body: { peril: 'earthquake' }, planned: true },
  { method: 'GET', path: '/infrastructure', access: 'free', query: 'lat=38.8&lng=-122.8', planned: true },
  { method: 'GET', path: '/risk/score', access: 'free', query: 'lat=38.8&lng=-122.8', planned: true },
  { method: 'GET', path: '/risk/score', access: 'enterprise', query: 'lat=38.8&lng=-122.8&format=oasis', planned: true },
  { method: 'GET', path: '/events/{id}/score', access: 'free', planned: true },
  { method: 'GET', path: '/events/{id}/score', access: 'enterprise', query: 'format=oasis', planned: true },
  { method: 'GET', path: '/portfolio', access: 'agency', planned: true },
  { method: 'POST', path: '/portfolio', access: 'agency', body: { name: 'book', locations: [] }, planned: true },
  { method: 'GET', path: '/portfolio/exposure', access: 'agency', query: `portfolio_id=${P}`, planned: true },
  { method: 'GET', path: '/portfolio/ep-curve', access: 'agency', query: `portfolio_id=${P}`, planned: true },
  { method: 'GET', path: '/triggers', access: 'agency', planned: true },
  { method: 'POST', path: '/triggers', access: 'agency', body: TRIGGER, planned: true },
  { method: 'GET', path: `/triggers/${P}/history`, access: 'agency', planned: true },
  { method: 'GET', path: '/locations', access: 'free', planned: true },
  { method: 'POST', path: '/locations', access: 'free', body: { name: 'home', lat: 38.8, lng: -122.8 }, planned: true },
  { method: 'GET', path: '/locations/exposure', access: 'free', planned: true },
  { method: 'GET', path: '/locations/alerts', access: 'free', planned: true },
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
      value: await new SignJWT({ tier: 'enterprise' }).setProtectedHeader({ alg: 'HS256' }).setIssuer(AUTH.issuer).setAudience(AUTH.audience)
        .setSubject('late@example.com').setIssuedAt(now - 7200).setExpirationTime(now - 3600).sign(AUTH.secret!),
    },
    // The payload says enterprise now; the signature was made over analyst.
    { name: 'tampered JWT', valid: false, value: `${h}.${Buffer.from(JSON.stringify({ ...claims, tier: 'enterprise' })).toString('base64url')}.${good.split('.')[2]}` },
    {
      name: 'alg=none JWT',
      valid: false,
      value: new UnsecuredJWT({ tier: 'enterprise' }).setIssuer(AUTH.issuer).setAudience(AUTH.audience).setSubject('mallory@example.com').setExpirationTime(now + 3600).encode(),
    },
    { name: 'wrong-issuer JWT', valid: false, value: await token('enterprise', { issuer: 'https://evil.example.com' }) },
    { name: 'wrong-audience JWT', valid: false, value: await token('enterprise', { audience: 'another-api' }) },
    { name: 'revoked API key', valid: false, value: revoked.key },
    { name: 'unknown API key', valid: false, value: `ci_live_${'A'.repeat(43)}` },
    { name: 'garbage', valid: false, value: 'not-a-credential' },
  );
});
afterAll(() => db.close());

function expected(c: Credential, e: Endpoint): number {
  if (!c.valid) return 401;
  if (tierAtLeast(c.tier!, e.access)) return e.planned ? 501 : 200;
  return c.tier === 'free' ? 401 : 403;
}

describe('the access matrix of CONTRACT §2 (Profile 1)', () => {
  it('gives every endpoint x credential the contract status', async () => {
    const got: string[] = [];
    const want: string[] = [];
    for (const e of CONTRACT) {
      const path = `/api/v1${e.path.replace('{id}', eventId)}${e.query ? `?${e.query}` : ''}`;
      for (const c of credentials) {
        const r = await p.call(path, { method: e.method, token: c.value, body: e.body });
        got.push(`${e.method} ${e.path}${e.query?.includes('oasis') ? ' (oasis)' : ''} as ${c.name}: ${r.status}`);
        want.push(`${e.method} ${e.path}${e.query?.includes('oasis') ? ' (oasis)' : ''} as ${c.name}: ${expected(c, e)}`);
        expect(r.body.code ?? 'ok').toBe({ 200: 'ok', 401: 'unauthorized', 403: 'insufficient_tier', 501: 'not_implemented' }[r.status]);
      }
    }
    expect(got).toEqual(want);
    expect(got.length).toBe(CONTRACT.length * credentials.length);
  });

  it('challenges with WWW-Authenticate: Bearer on every 401, naming invalid_token for a bad credential', async () => {
    const missing = await p.call('/api/v1/triggers');
    expect(missing.status).toBe(401);
    expect(missing.headers.get('www-authenticate')).toBe('Bearer realm="catintel"');
    const bad = await p.call('/api/v1/events/live', { token: credentials.find((c) => c.name === 'expired JWT')!.value });
    expect(bad.status).toBe(401);
    expect(bad.headers.get('www-authenticate')).toBe('Bearer realm="catintel", error="invalid_token"');
    expect(bad.body.detail).toMatch(/expired/);
  });

  it('says which tier an endpoint needs when the credential is below it', async () => {
    const r = await p.call(`/api/v1/events/${eventId}/briefing`, { token: await token('agency') });
    expect(r.status).toBe(403);
    expect(r.body).toMatchObject({ code: 'insufficient_tier', status: 403, title: 'Insufficient tier' });
    expect(r.body.detail).toMatch(/analyst tier or above; this credential is agency/);
    const oasis = await p.call('/api/v1/risk/score?lat=38.8&lng=-122.8&format=oasis', { token: await token('analyst') });
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
