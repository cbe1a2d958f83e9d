/**
 * How the server verifies JWT access tokens (docs/contract.md#credentials), read from the CATINTEL_* environment by the
 * adapters (cli/, http/) and passed in. Defaults, one line each:
 *
 *   CATINTEL_JWT_SECRET     HS256 shared secret, at least 32 characters. Also what `catintel token issue` signs with.
 *   CATINTEL_JWKS           RS256/ES256 public keys: a JWKS file path, or an https:// URL (http:// only for loopback).
 *   CATINTEL_JWT_ISSUER     required `iss` claim                  (default "catintel")
 *   CATINTEL_JWT_AUDIENCE   required `aud` claim                  (default "catintel-api")
 *   CATINTEL_JWT_LEEWAY     seconds of clock skew allowed on exp/nbf (default 30)
 *   CATINTEL_JWT_MAX_LIFETIME  longest token lifetime accepted, exp - iat (default 24h; 5m to 30d)
 *
 * With neither a secret nor a JWKS the server accepts no JWTs (API keys still work). authConfigFromEnv
 * (config-from-env.ts) reads them, apart from these defaults because a key set loads jose.
 */
import type { JWTVerifyGetKey } from 'jose';
import { CatintelError } from '../errors.js';

export const authDefaults = {
  issuer: 'catintel',
  audience: 'catintel-api',
  leewaySeconds: 30,
  /** `catintel token issue` lifetime when --ttl is not given. */
  tokenTtlSeconds: 3600,
  /**
   * The longest token lifetime (exp - iat) the server accepts, and `token issue` mints. A JWT cannot be
   * revoked, so its lifetime bounds how long a leaked one works; identity providers issue access tokens
   * for an hour or so (Auth0's API default, the longest common one, is 24 h).
   */
  maxLifetimeSeconds: 86_400,
  /** CATINTEL_JWT_MAX_LIFETIME may be set from 5 minutes to 30 days. */
  maxLifetimeRange: [300, 30 * 86_400],
  minSecretLength: 32,
} as const;

export interface AuthConfig {
  issuer: string;
  audience: string;
  leewaySeconds: number;
  /** Longest accepted exp - iat (and exp - now), in seconds; default authDefaults.maxLifetimeSeconds. */
  maxLifetimeSeconds?: number;
  /** HS256 secret bytes, when configured. */
  secret?: Uint8Array;
  /** RS256/ES256 key set, when configured; `jwksSource` names where it came from (for messages). */
  jwks?: JWTVerifyGetKey;
  jwksSource?: string;
}

export type Env = Record<string, string | undefined>;

/** CATINTEL_JWT_MAX_LIFETIME ("24h", "7d", "3600"), or the default. */
export function maxLifetimeFromEnv(env: Env): number {
  const v = env.CATINTEL_JWT_MAX_LIFETIME;
  if (v === undefined || v === '') return authDefaults.maxLifetimeSeconds;
  const [min, max] = authDefaults.maxLifetimeRange;
  const seconds = durationSeconds(v);
  if (!(seconds >= min && seconds <= max)) {
    throw new CatintelError(
      'invalid_parameter',
      `CATINTEL_JWT_MAX_LIFETIME="${v}" must be a lifetime from ${formatDuration(min)} to ${formatDuration(max)}, e.g. 1h or 24h`,
    );
  }
  return seconds;
}

/** "1h", "30m", "45s", "7d" or plain seconds -> seconds; NaN when it is none of those. */
export function durationSeconds(v: string): number {
  const m = /^(\d{1,7})([smhd]?)$/.exec(v.trim());
  return m ? Number(m[1]) * { '': 1, s: 1, m: 60, h: 3600, d: 86_400 }[m[2] as '' | 's' | 'm' | 'h' | 'd'] : NaN;
}

/** 86400 -> "24h", 2592000 -> "30d", 300 -> "5m": the largest whole unit, as a user would type it. */
export function formatDuration(seconds: number): string {
  if (seconds % 86_400 === 0 && seconds >= 2 * 86_400) return `${seconds / 86_400}d`;
  if (seconds % 3600 === 0) return `${seconds / 3600}h`;
  if (seconds % 60 === 0) return `${seconds / 60}m`;
  return `${seconds}s`;
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
