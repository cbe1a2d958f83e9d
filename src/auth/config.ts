/**
 * How the server verifies JWT access tokens (CONTRACT §3), read from the CATINTEL_* environment by the
 * adapters (cli/, http/) and passed in. Defaults, one line each:
 *
 *   CATINTEL_JWT_SECRET     HS256 shared secret, at least 32 characters. Also what `catintel token issue` signs with.
 *   CATINTEL_JWKS           RS256/ES256 public keys: a JWKS file path, or an https:// URL (http:// only for loopback).
 *   CATINTEL_JWT_ISSUER     required `iss` claim                  (default "catintel")
 *   CATINTEL_JWT_AUDIENCE   required `aud` claim                  (default "catintel-api")
 *   CATINTEL_JWT_LEEWAY     seconds of clock skew allowed on exp/nbf (default 30)
 *
 * With neither a secret nor a JWKS the server accepts no JWTs (API keys still work).
 */
import fs from 'node:fs';
import { createLocalJWKSet, createRemoteJWKSet, type JSONWebKeySet, type JWTVerifyGetKey } from 'jose';
import { CatintelError } from '../errors.js';

export const authDefaults = {
  issuer: 'catintel',
  audience: 'catintel-api',
  leewaySeconds: 30,
  /** `catintel token issue` lifetime when --ttl is not given. */
  tokenTtlSeconds: 3600,
  /** The longest lifetime `token issue` mints: development tokens should not outlive a sprint. */
  tokenTtlMaxSeconds: 30 * 86_400,
  minSecretLength: 32,
} as const;

export interface AuthConfig {
  issuer: string;
  audience: string;
  leewaySeconds: number;
  /** HS256 secret bytes, when configured. */
  secret?: Uint8Array;
  /** RS256/ES256 key set, when configured; `jwksSource` names where it came from (for messages). */
  jwks?: JWTVerifyGetKey;
  jwksSource?: string;
}

export type Env = Record<string, string | undefined>;

export function authConfigFromEnv(env: Env): AuthConfig {
  const cfg: AuthConfig = {
    issuer: env.CATINTEL_JWT_ISSUER || authDefaults.issuer,
    audience: env.CATINTEL_JWT_AUDIENCE || authDefaults.audience,
    leewaySeconds: authDefaults.leewaySeconds,
  };
  if (env.CATINTEL_JWT_LEEWAY !== undefined && env.CATINTEL_JWT_LEEWAY !== '') {
    const n = Number(env.CATINTEL_JWT_LEEWAY);
    if (!Number.isInteger(n) || n < 0 || n > 600) {
      throw new CatintelError('invalid_parameter', `CATINTEL_JWT_LEEWAY="${env.CATINTEL_JWT_LEEWAY}" must be whole seconds from 0 to 600`);
    }
    cfg.leewaySeconds = n;
  }
  if (env.CATINTEL_JWT_SECRET) cfg.secret = secretBytes(env.CATINTEL_JWT_SECRET);
  if (env.CATINTEL_JWKS) {
    cfg.jwks = jwksFrom(env.CATINTEL_JWKS);
    cfg.jwksSource = env.CATINTEL_JWKS;
  }
  return cfg;
}

export function secretBytes(secret: string): Uint8Array {
  if (secret.length < authDefaults.minSecretLength) {
    throw new CatintelError(
      'invalid_parameter',
      `CATINTEL_JWT_SECRET is ${secret.length} characters; HS256 needs at least ${authDefaults.minSecretLength} (e.g. \`openssl rand -base64 48\`)`,
    );
  }
  return new TextEncoder().encode(secret);
}

/** A JWKS file is read once at startup; a URL is fetched on demand and cached by jose (10 min). */
export function jwksFrom(source: string): JWTVerifyGetKey {
  if (/^https?:\/\//i.test(source)) {
    const url = new URL(source);
    const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
    if (url.protocol !== 'https:' && !loopback) {
      throw new CatintelError('invalid_parameter', `CATINTEL_JWKS=${source}: key sets are fetched over https (http only for localhost)`);
    }
    return createRemoteJWKSet(url, { timeoutDuration: 5000, cooldownDuration: 30_000 });
  }
  let set: JSONWebKeySet;
  try {
    set = JSON.parse(fs.readFileSync(source, 'utf8')) as JSONWebKeySet;
  } catch (err) {
    throw new CatintelError('invalid_input', `CATINTEL_JWKS=${source} is not a readable JWKS JSON file (${(err as Error).message.split('\n')[0]})`);
  }
  if (!set || !Array.isArray(set.keys)) throw new CatintelError('invalid_input', `CATINTEL_JWKS=${source} has no "keys" array`);
  return createLocalJWKSet(set);
}
