/**
 * Credentials (docs/contract.md#credentials): JWT access tokens (HS256 secret, RS256/ES256 JWKS from a file or a URL;
 * issuer, audience, exp, sub and tier checked; alg=none, tampering and algorithm confusion refused),
 * and API keys (shown once, stored as a hash, revocable). `catintel token issue` mints tokens the
 * server accepts.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { SignJWT, exportJWK, exportSPKI, generateKeyPair } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authConfigFromEnv } from '../../src/auth/config-from-env.js';
import type { Store } from '../../src/store/db.js';
import { cli, tempDir } from '../helpers/cli.js';
import { AUTH, SECRET, apiKey, platform, seededStore, token } from '../http/helpers/harness.js';

let db: Store;
beforeAll(async () => {
  db = await seededStore();
});
afterAll(() => db.close());

const NOW = () => Math.floor(Date.now() / 1000);
const who = async (p: Awaited<ReturnType<typeof platform>>, t: string) =>
  await p.call('/api/v1/events/live?limit=1', { token: t });

describe('JWT access tokens with the HS256 secret', () => {
  it('accept a token with the tier and sub claims, and enforce exp', async () => {
    const p = await platform(db);
    expect((await who(p, await token('analyst'))).status).toBe(200);
    const expired = await new SignJWT({ tier: 'analyst' })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer(AUTH.issuer)
      .setAudience(AUTH.audience)
      .setSubject('a@example.com')
      .setExpirationTime(NOW() - 1)
      .sign(AUTH.secret!);
    const r = await who(p, expired);
    expect(r.status).toBe(401);
    expect(r.body.detail).toBe('the token has expired; get a new one');
  });

  it('refuse a token that lives longer than the maximum lifetime (24 h by default), with or without iat', async () => {
    const p = await platform(db);
    const base = () =>
      new SignJWT({ tier: 'analyst' })
        .setProtectedHeader({ alg: 'HS256' })
        .setIssuer(AUTH.issuer)
        .setAudience(AUTH.audience)
        .setSubject('a@example.com');
    const year3000 = Date.UTC(3000, 0, 1) / 1000;
    const forever = await who(p, await base().setIssuedAt(NOW()).setExpirationTime(year3000).sign(AUTH.secret!));
    expect(forever.status).toBe(401);
    expect(forever.body.detail).toMatch(
      /^the token's lifetime \(exp - iat\) is \d+d; this server accepts at most 24h: get a shorter-lived token$/,
    );
    const noIat = await who(p, await base().setExpirationTime(year3000).sign(AUTH.secret!));
    expect(noIat.status).toBe(401);
    expect(noIat.body.detail).toMatch(/validity \(exp - now\) is \d+d; this server accepts at most 24h/);
    // Minted long ago with a long lifetime: refused even though little of it is left.
    const oldLong = await who(
      p,
      await base()
        .setIssuedAt(NOW() - 29 * 86_400)
        .setExpirationTime(NOW() + 3600)
        .sign(AUTH.secret!),
    );
    expect(oldLong.status).toBe(401);
    expect(
      (
        await who(
          p,
          await base()
            .setIssuedAt(NOW())
            .setExpirationTime(NOW() + 86_400)
            .sign(AUTH.secret!),
        )
      ).status,
    ).toBe(200);
    expect(
      (
        await who(
          p,
          await base()
            .setIssuedAt(NOW())
            .setExpirationTime(NOW() + 86_401)
            .sign(AUTH.secret!),
        )
      ).status,
    ).toBe(401);
    // The operator may allow longer (CATINTEL_JWT_MAX_LIFETIME, read by `catintel serve`).
    const week = await platform(db, {
      auth: { ...AUTH, maxLifetimeSeconds: authConfigFromEnv({ CATINTEL_JWT_MAX_LIFETIME: '7d' }).maxLifetimeSeconds },
    });
    expect(
      (
        await who(
          week,
          await base()
            .setIssuedAt(NOW())
            .setExpirationTime(NOW() + 6 * 86_400)
            .sign(AUTH.secret!),
        )
      ).status,
    ).toBe(200);
  });

  it('refuse tokens without exp, without sub, with a free or unknown tier, or signed with another secret', async () => {
    const p = await platform(db);
    const base = () =>
      new SignJWT({ tier: 'analyst' })
        .setProtectedHeader({ alg: 'HS256' })
        .setIssuer(AUTH.issuer)
        .setAudience(AUTH.audience);
    const cases: [string, string, RegExp][] = [
      ['no exp', await base().setSubject('a@example.com').sign(AUTH.secret!), /"exp" claim/],
      [
        'no sub',
        await base()
          .setExpirationTime(NOW() + 60)
          .sign(AUTH.secret!),
        /"sub" claim/,
      ],
      [
        'free tier',
        await new SignJWT({ tier: 'free' })
          .setProtectedHeader({ alg: 'HS256' })
          .setIssuer(AUTH.issuer)
          .setAudience(AUTH.audience)
          .setSubject('a')
          .setExpirationTime(NOW() + 60)
          .sign(AUTH.secret!),
        /"tier" claim/,
      ],
      [
        'no tier',
        await new SignJWT({})
          .setProtectedHeader({ alg: 'HS256' })
          .setIssuer(AUTH.issuer)
          .setAudience(AUTH.audience)
          .setSubject('a')
          .setExpirationTime(NOW() + 60)
          .sign(AUTH.secret!),
        /"tier" claim/,
      ],
      [
        'other secret',
        await base()
          .setSubject('a')
          .setExpirationTime(NOW() + 60)
          .sign(new TextEncoder().encode('z'.repeat(48))),
        /signature is invalid/,
      ],
      ['wrong issuer', await token('analyst', { issuer: 'someone-else' }), /issuer/],
      ['wrong audience', await token('analyst', { audience: 'other' }), /audience/],
      [
        'not yet valid',
        await base()
          .setSubject('a')
          .setNotBefore(NOW() + 600)
          .setExpirationTime(NOW() + 900)
          .sign(AUTH.secret!),
        /not valid yet/,
      ],
      [
        'HS512',
        await new SignJWT({ tier: 'analyst' })
          .setProtectedHeader({ alg: 'HS512' })
          .setIssuer(AUTH.issuer)
          .setAudience(AUTH.audience)
          .setSubject('a')
          .setExpirationTime(NOW() + 60)
          .sign(new TextEncoder().encode('y'.repeat(64))),
        /algorithm not accepted/,
      ],
      ['two-part token', 'eyJhbGciOiJIUzI1NiJ9.eyJ0aWVyIjoiYW5hbHlzdCJ9', /not a catintel credential/],
    ];
    for (const [name, t, detail] of cases) {
      const r = await who(p, t);
      expect(r.status, name).toBe(401);
      expect(r.body.detail, name).toMatch(detail);
    }
  });

  it('need the Bearer scheme', async () => {
    const p = await platform(db);
    const r = await p.call('/api/v1/events/live', {
      headers: { authorization: `Basic ${Buffer.from('a:b').toString('base64')}` },
    });
    expect(r.status).toBe(401);
    expect(r.body.detail).toMatch(/Authorization: Bearer/);
    expect(
      (await p.call('/api/v1/events/live?limit=1', { headers: { authorization: `bearer   ${await token('agency')}` } }))
        .status,
    ).toBe(200);
  });

  it('are not accepted at all when no secret or key set is configured', async () => {
    const p = await platform(db, { auth: { issuer: 'catintel', audience: 'catintel-api', leewaySeconds: 30 } });
    const r = await who(p, await token('enterprise'));
    expect(r.status).toBe(401);
    expect(r.body.detail).toMatch(/not configured to accept JWT/);
  });
});

describe('JWT access tokens from a JWKS', () => {
  it('verify RS256 tokens against a JWKS file, and refuse an HS256 token made with the public key (algorithm confusion)', async () => {
    const { privateKey, publicKey } = await generateKeyPair('RS256');
    const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
    const file = path.join(tempDir(), 'jwks.json');
    fs.writeFileSync(file, JSON.stringify({ keys: [jwk] }));
    const auth = authConfigFromEnv({
      CATINTEL_JWKS: file,
      CATINTEL_JWT_ISSUER: 'https://id.example.com',
      CATINTEL_JWT_AUDIENCE: 'catintel',
    });
    const p = await platform(db, { auth });
    const rs = await new SignJWT({ tier: 'enterprise' })
      .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
      .setIssuer('https://id.example.com')
      .setAudience('catintel')
      .setSubject('ops@example.com')
      .setExpirationTime(NOW() + 300)
      .sign(privateKey);
    expect((await who(p, rs)).status).toBe(200);
    const pem = await exportSPKI(publicKey);
    const confused = await new SignJWT({ tier: 'enterprise' })
      .setProtectedHeader({ alg: 'HS256', kid: 'k1' })
      .setIssuer('https://id.example.com')
      .setAudience('catintel')
      .setSubject('mallory@example.com')
      .setExpirationTime(NOW() + 300)
      .sign(new TextEncoder().encode(pem));
    const r = await who(p, confused);
    expect(r.status).toBe(401);
    expect(r.body.detail).toMatch(/algorithm not accepted; this server accepts RS256, ES256/);
    const otherKey = (await generateKeyPair('RS256')).privateKey;
    const forged = await new SignJWT({ tier: 'enterprise' })
      .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
      .setIssuer('https://id.example.com')
      .setAudience('catintel')
      .setSubject('mallory@example.com')
      .setExpirationTime(NOW() + 300)
      .sign(otherKey);
    expect((await who(p, forged)).status).toBe(401);
  });

  it('verify ES256 tokens against a JWKS URL (fetched on loopback), and answer 503 when it cannot be reached', async () => {
    const { privateKey, publicKey } = await generateKeyPair('ES256');
    const jwks = JSON.stringify({ keys: [{ ...(await exportJWK(publicKey)), kid: 'es', alg: 'ES256' }] });
    const server = http.createServer((_, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(jwks));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks.json`;
    try {
      const p = await platform(db, { auth: authConfigFromEnv({ CATINTEL_JWKS: url }) });
      const es = await new SignJWT({ tier: 'agency' })
        .setProtectedHeader({ alg: 'ES256', kid: 'es' })
        .setIssuer('catintel')
        .setAudience('catintel-api')
        .setSubject('county@example.gov')
        .setExpirationTime(NOW() + 300)
        .sign(privateKey);
      expect((await p.call('/api/v1/triggers', { token: es })).status).toBe(200); // agency: through the access check
    } finally {
      await new Promise((r) => server.close(r));
    }
    const down = await platform(db, { auth: authConfigFromEnv({ CATINTEL_JWKS: url }) });
    const es = await new SignJWT({ tier: 'agency' })
      .setProtectedHeader({ alg: 'ES256', kid: 'es' })
      .setIssuer('catintel')
      .setAudience('catintel-api')
      .setSubject('county@example.gov')
      .setExpirationTime(NOW() + 300)
      .sign(privateKey);
    const r = await down.call('/api/v1/triggers', { token: es });
    expect(r.status).toBe(503);
    expect(r.body.code).toBe('unavailable');
  });

  it('refuses a JWKS URL that is not https (except loopback) and a secret that is too short', () => {
    expect(() => authConfigFromEnv({ CATINTEL_JWKS: 'http://idp.example.com/jwks.json' })).toThrow(/https/);
    expect(() => authConfigFromEnv({ CATINTEL_JWT_SECRET: 'short' })).toThrow(/at least 32/);
  });
});

describe('API keys', () => {
  it('are created over the admin endpoint, shown once, stored only as a hash, and work as bearer credentials', async () => {
    const p = await platform(db);
    const created = await p.call('/api/v1/admin/keys', {
      token: p.adminToken,
      body: { name: 'acme nightly', tier: 'enterprise' },
    });
    expect(created.status).toBe(201);
    expect(created.body.key).toMatch(/^ci_live_[0-9A-Za-z]{43}$/);
    expect(created.headers.get('location')).toBe(`/api/v1/admin/keys/${created.body.id}`);
    const sandbox = await p.call('/api/v1/admin/keys', {
      token: p.adminToken,
      body: { name: 'ci', tier: 'agency', sandbox: true },
    });
    expect(sandbox.body.key).toMatch(/^ci_test_/);

    const rows = await db.all<Record<string, unknown>>('SELECT * FROM api_keys');
    const dump = JSON.stringify(rows);
    expect(dump).not.toContain(created.body.key);
    expect(dump).not.toContain(sandbox.body.key);

    const listed = await p.call('/api/v1/admin/keys', { token: p.adminToken });
    const mine = listed.body.keys.find((k: any) => k.id === created.body.id);
    expect(mine).toMatchObject({
      name: 'acme nightly',
      tier: 'enterprise',
      prefix: created.body.key.slice(0, 12),
      revoked_at: null,
    });
    expect(mine).not.toHaveProperty('key');

    const use = await p.call(
      `/api/v1/events/${(await p.call('/api/v1/events/live?limit=1')).body.features[0].id}/score?format=oasis`,
      { token: created.body.key },
    );
    expect([401, 403]).not.toContain(use.status); // enterprise: through the access check
  });

  it('stop working on the very next request once revoked', async () => {
    const p = await platform(db);
    const { key, id } = await apiKey(db, 'agency');
    expect((await p.call('/api/v1/triggers', { token: key })).status).toBe(200);
    const revoked = await p.call(`/api/v1/admin/keys/${id}/revoke`, { method: 'POST', token: p.adminToken });
    expect(revoked.status).toBe(200);
    expect(revoked.body.revoked_at).toBeTruthy();
    const after = await p.call('/api/v1/triggers', { token: key });
    expect(after.status).toBe(401);
    expect(after.body.detail).toBe('unknown or revoked API key');
    // Revoking again changes nothing; an unknown key id is 404, a malformed one 400.
    expect(
      (await p.call(`/api/v1/admin/keys/${id}/revoke`, { method: 'POST', token: p.adminToken })).body.revoked_at,
    ).toBe(revoked.body.revoked_at);
    expect(
      (await p.call('/api/v1/admin/keys/key_0000000000000000/revoke', { method: 'POST', token: p.adminToken })).status,
    ).toBe(404);
    expect((await p.call('/api/v1/admin/keys/nope/revoke', { method: 'POST', token: p.adminToken })).status).toBe(400);
  });

  it('are validated field by field (422) and the body must be JSON (400/415)', async () => {
    const p = await platform(db);
    const bad = await p.call('/api/v1/admin/keys', {
      token: p.adminToken,
      body: { name: '', tier: 'free', sandbox: 'yes', colour: 'red' },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.code).toBe('validation_failed');
    expect(bad.body.errors.map((e: any) => e.field).sort()).toEqual(['colour', 'name', 'sandbox', 'tier']);
    const malformed = await p.call('/api/v1/admin/keys', {
      token: p.adminToken,
      raw: '{"name": ',
      contentType: 'application/json',
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body.code).toBe('invalid_request');
    const missing = await p.call('/api/v1/admin/keys', { method: 'POST', token: p.adminToken });
    expect(missing.status).toBe(400);
    // Query parameters are not a body.
    const viaQuery = await p.call('/api/v1/admin/keys?name=x&tier=agency', { method: 'POST', token: p.adminToken });
    expect(viaQuery.status).toBe(400);
  });
});

describe('the CLI', () => {
  it('`token issue` mints a token the server accepts, with the given tier, sub and ttl', async () => {
    const env = { CATINTEL_JWT_SECRET: SECRET };
    const r = await cli(
      ['--json', 'token', 'issue', '--tier', 'analyst', '--sub', 'alice@example.com', '--ttl', '15m'],
      env,
    );
    expect(r.code).toBe(0);
    const out = r.json();
    expect(out).toMatchObject({
      token_type: 'Bearer',
      tier: 'analyst',
      sub: 'alice@example.com',
      account: 'jwt:catintel|alice@example.com',
      issuer: 'catintel',
      audience: 'catintel-api',
    });
    expect(Date.parse(out.expires_at) - Date.now()).toBeGreaterThan(14 * 60_000);
    expect(Date.parse(out.expires_at) - Date.now()).toBeLessThanOrEqual(15 * 60_000);
    const p = await platform(db);
    const used = await p.call(
      `/api/v1/events/${(await p.call('/api/v1/events/live?limit=1')).body.features[0].id}/exposure`,
      { token: out.token },
    );
    expect(used.status).toBe(200); // analyst reaches the analyst endpoint
  });

  it('`token issue` explains what is missing, with exit code 2', async () => {
    const noSecret = await cli(['token', 'issue', '--tier', 'analyst', '--sub', 'a@b.c']);
    expect(noSecret.code).toBe(2);
    expect(noSecret.stderr).toMatch(/^catintel: set CATINTEL_JWT_SECRET .* \[invalid_parameter\]\n$/);
    const badTier = await cli(['--json', 'token', 'issue', '--tier', 'free', '--sub', 'a@b.c'], {
      CATINTEL_JWT_SECRET: SECRET,
    });
    expect(badTier.code).toBe(2);
    expect(JSON.parse(badTier.stderr)).toMatchObject({
      status: 400,
      code: 'invalid_parameter',
      errors: [{ field: 'tier' }],
    });
    const badTtl = await cli(['token', 'issue', '--tier', 'agency', '--sub', 'a@b.c', '--ttl', '90d'], {
      CATINTEL_JWT_SECRET: SECRET,
    });
    expect(badTtl.code).toBe(2);
    expect(badTtl.stderr).toMatch(/ttl: "90d" is not a lifetime from 1s to 30d/);
  });

  it('`token issue` never mints a token the server would refuse: at most CATINTEL_JWT_MAX_LIFETIME (default 24h)', async () => {
    const env = { CATINTEL_JWT_SECRET: SECRET };
    const tooLong = await cli(['token', 'issue', '--tier', 'agency', '--sub', 'a@b.c', '--ttl', '7d'], env);
    expect(tooLong.code).toBe(2);
    expect(tooLong.stderr).toMatch(
      /ttl: "7d" is not a lifetime from 1s to 24h \(the longest lifetime the server accepts, CATINTEL_JWT_MAX_LIFETIME\)/,
    );
    expect((await cli(['token', 'issue', '--tier', 'agency', '--sub', 'a@b.c', '--ttl', '24h'], env)).code).toBe(0);
    const raised = await cli(['--json', 'token', 'issue', '--tier', 'agency', '--sub', 'a@b.c', '--ttl', '7d'], {
      ...env,
      CATINTEL_JWT_MAX_LIFETIME: '7d',
    });
    expect(raised.code).toBe(0);
    const badMax = await cli(['token', 'issue', '--tier', 'agency', '--sub', 'a@b.c'], {
      ...env,
      CATINTEL_JWT_MAX_LIFETIME: '1y',
    });
    expect(badMax.code).toBe(2);
    expect(badMax.stderr).toMatch(/CATINTEL_JWT_MAX_LIFETIME="1y" must be a lifetime from 5m to 30d/);
  });

  it('`keys create|list|revoke` work on a store file, printing the key once', async () => {
    const file = path.join(tempDir(), 'keys.duckdb');
    const created = await cli(['--db', file, '--json', 'keys', 'create', '--tier', 'enterprise', '--name', 'acme']);
    expect(created.code).toBe(0);
    const k = created.json();
    expect(k.key).toMatch(/^ci_live_/);
    const sandbox = await cli([
      '--db',
      file,
      '--json',
      'keys',
      'create',
      '--tier',
      'agency',
      '--name',
      'ci',
      '--sandbox',
    ]);
    expect(sandbox.json().key).toMatch(/^ci_test_/);
    const list = await cli(['--db', file, '--json', 'keys', 'list']);
    expect(
      list
        .json()
        .keys.map((x: any) => x.name)
        .sort(),
    ).toEqual(['acme', 'ci']);
    expect(list.stdout).not.toContain(k.key);
    expect((await cli(['--db', file, 'keys', 'revoke', k.id])).code).toBe(0);
    expect((await cli(['--db', file, '--json', 'keys', 'list'])).json().keys.map((x: any) => x.name)).toEqual(['ci']);
    expect((await cli(['--db', file, '--json', 'keys', 'list', '--include-revoked'])).json().keys).toHaveLength(2);
    const unknown = await cli(['--db', file, 'keys', 'revoke', 'key_0000000000000000']);
    expect(unknown.code).toBe(2); // an unknown id is bad input (docs/contract.md#errors)
    expect(unknown.stderr).toMatch(/^catintel: no API key key_0000000000000000; .*\[not_found\]\n$/);
    const badTier = await cli(['--db', file, 'keys', 'create', '--tier', 'gold', '--name', 'x']);
    expect(badTier.code).toBe(2);
  });
});
