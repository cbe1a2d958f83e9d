/**
 * The platform in-process: an in-memory store seeded with the real USGS day feed (the event clock
 * pinned to the feed's time, so its quakes are live), the /api/v1 app with a JWT secret and an admin
 * token, and a `call` that sends a request and validates the response against openapi.yaml before
 * the test sees it. Client addresses come from X-Forwarded-For (one trusted proxy hop), one fresh address per
 * call unless the test names one, so rate limits only meet the tests that look for them.
 */
import { randomBytes } from 'node:crypto';
import { SignJWT } from 'jose';
import { defaultConfig } from '../../../src/config/defaults.js';
import type { Context } from '../../../src/context.js';
import { newAdminToken, newApiKey } from '../../../src/auth/api-keys.js';
import type { AuthConfig } from '../../../src/auth/config.js';
import type { PaidTier } from '../../../src/auth/jwt.js';
import { tokenAccountOf } from '../../../src/auth/token-account.js';
import { createApp, type App, type AppOptions } from '../../../src/http/app.js';
import { ingestSource } from '../../../src/ingest/run.js';
import { usgsEarthquakes } from '../../../src/sources/usgs-earthquakes.js';
import { Store } from '../../../src/store/db.js';
import { insertApiKey } from '../../../src/store/keys.js';
import { sharedData } from '../../helpers/paths.js';
import { responseProblems } from './openapi.js';

/** all_day.geojson was generated at this instant. */
export const FEED_NOW = '2022-09-29T03:32:09Z';
export const SECRET = randomBytes(48).toString('base64');
export const AUTH: AuthConfig = {
  issuer: 'catintel',
  audience: 'catintel-api',
  leewaySeconds: 0,
  secret: new TextEncoder().encode(SECRET),
};

export async function seededStore(): Promise<Store> {
  const db = await Store.open(':memory:');
  const ctx = contextOn(db);
  await ingestSource(ctx, usgsEarthquakes, sharedData('feeds/usgs_earthquakes/all_day.geojson'));
  return db;
}

export function contextOn(db: Store): Context {
  return {
    config: defaultConfig({ dbPath: ':memory:' }),
    db,
    clock: () => new Date(FEED_NOW),
    log: () => {},
    progress: () => {},
  };
}

export interface CallOptions {
  method?: string;
  token?: string;
  ip?: string;
  headers?: Record<string, string>;
  body?: unknown;
  /** Sent as is (string/bytes) with this Content-Type instead of JSON. */
  raw?: BodyInit;
  contentType?: string;
  /** Skip the OpenAPI check (a test that sends something no client should). */
  unchecked?: boolean;
}

export interface Reply {
  res: Response;
  status: number;
  headers: Headers;
  body: any;
}

let ipCounter = 0;
export const freshIp = () => `10.${(++ipCounter >> 16) & 255}.${(ipCounter >> 8) & 255}.${ipCounter & 255}`;

export interface Platform {
  app: App;
  db: Store;
  adminToken: string;
  call(path: string, o?: CallOptions): Promise<Reply>;
  close(): Promise<void>;
}

export async function platform(db: Store, o: Partial<AppOptions> = {}): Promise<Platform> {
  const adminToken = newAdminToken();
  const app = createApp({ ctx: contextOn(db), auth: AUTH, adminToken, trustProxy: 1, ...o });
  return {
    app,
    db,
    adminToken,
    call: (path, c = {}) => call(app, path, c),
    close: async () => {},
  };
}

export async function call(app: App, path: string, c: CallOptions, rateLimited = true): Promise<Reply> {
  const method = c.method ?? (c.body !== undefined || c.raw !== undefined ? 'POST' : 'GET');
  const headers: Record<string, string> = { 'x-forwarded-for': c.ip ?? freshIp(), ...c.headers };
  if (c.token) headers.authorization = `Bearer ${c.token}`;
  let body: BodyInit | undefined;
  if (c.raw !== undefined) {
    body = c.raw;
    if (c.contentType) headers['content-type'] = c.contentType;
  } else if (c.body !== undefined) {
    body = JSON.stringify(c.body);
    headers['content-type'] = c.contentType ?? 'application/json';
  }
  const url = `http://localhost${path}`;
  const res = await app.fetch(new Request(url, { method, headers, body }));
  if (!c.unchecked) {
    const problems = await responseProblems(method, url, res, { rateLimited });
    if (problems.length) throw new Error(`response does not conform to openapi.yaml:\n  ${problems.join('\n  ')}`);
  }
  const text = method === 'HEAD' ? '' : await res.text();
  let parsed: unknown = text;
  if (/json/.test(res.headers.get('content-type') ?? '') && text) parsed = JSON.parse(text);
  return { res, status: res.status, headers: res.headers, body: parsed };
}

/** The account the harness's server gives a token with this `sub` (docs/contract.md#credentials: issuer-qualified). */
export const tokenAccount = (sub: string) => tokenAccountOf(AUTH.issuer, sub);

/** A valid HS256 access token for the harness's server. */
export function token(
  tier: PaidTier,
  o: { sub?: string; ttlSeconds?: number; issuer?: string; audience?: string } = {},
): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ tier })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(o.issuer ?? AUTH.issuer)
    .setAudience(o.audience ?? AUTH.audience)
    .setSubject(o.sub ?? `${tier}@example.com`)
    .setIssuedAt(now)
    .setExpirationTime(now + (o.ttlSeconds ?? 3600))
    .sign(AUTH.secret!);
}

/** An API key of the tier, stored as the CLI would; returns the key and its id. */
export async function apiKey(db: Store, tier: PaidTier, sandbox = false): Promise<{ key: string; id: string }> {
  const k = newApiKey(sandbox);
  await insertApiKey(
    db,
    {
      id: k.id,
      name: `${tier} test key`,
      tier,
      account: `${tier}-account`,
      sandbox,
      prefix: k.prefix,
      created_at: '2022-09-29T03:32:09Z',
    },
    k.hash,
  );
  return { key: k.key, id: k.id };
}

/** The id of a live event of the seeded feed. */
export async function liveEventId(p: Platform): Promise<{ id: string; slug: string }> {
  const r = await p.call('/api/v1/events/live?limit=1');
  const f = r.body.features[0];
  return { id: f.properties.id, slug: f.properties.slug };
}
