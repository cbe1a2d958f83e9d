/**
 * The AuthConfig the CATINTEL_JWT_* and CATINTEL_JWKS environment describes (src/auth/config.ts lists them).
 * Apart from config.ts because a key set is jose's: a command that verifies no token does not load it.
 */
import fs from 'node:fs';
import { createLocalJWKSet, createRemoteJWKSet, type JSONWebKeySet, type JWTVerifyGetKey } from 'jose';
import { CatintelError } from '../errors.js';
import { authDefaults, maxLifetimeFromEnv, secretBytes, type AuthConfig, type Env } from './config.js';

export function authConfigFromEnv(env: Env): AuthConfig {
  const cfg: AuthConfig = {
    issuer: env.CATINTEL_JWT_ISSUER || authDefaults.issuer,
    audience: env.CATINTEL_JWT_AUDIENCE || authDefaults.audience,
    leewaySeconds: authDefaults.leewaySeconds,
  };
  // The issuer ends at the first `|` of a token's account (src/auth/token-account.ts).
  // eslint-disable-next-line no-control-regex -- control characters are what this check refuses
  if (/[|\u0000-\u001f\u007f]/.test(cfg.issuer)) {
    throw new CatintelError(
      'invalid_parameter',
      `CATINTEL_JWT_ISSUER=${JSON.stringify(cfg.issuer)} must not contain "|" or control characters; use the identity provider's issuer URL`,
    );
  }
  if (env.CATINTEL_JWT_LEEWAY !== undefined && env.CATINTEL_JWT_LEEWAY !== '') {
    const n = Number(env.CATINTEL_JWT_LEEWAY);
    if (!Number.isInteger(n) || n < 0 || n > 600) {
      throw new CatintelError(
        'invalid_parameter',
        `CATINTEL_JWT_LEEWAY="${env.CATINTEL_JWT_LEEWAY}" must be whole seconds from 0 to 600`,
      );
    }
    cfg.leewaySeconds = n;
  }
  cfg.maxLifetimeSeconds = maxLifetimeFromEnv(env);
  if (env.CATINTEL_JWT_SECRET) cfg.secret = secretBytes(env.CATINTEL_JWT_SECRET);
  if (env.CATINTEL_JWKS) {
    cfg.jwks = jwksFrom(env.CATINTEL_JWKS);
    cfg.jwksSource = env.CATINTEL_JWKS;
  }
  return cfg;
}

/** A JWKS file is read once at startup; a URL is fetched on demand and cached by jose (10 min). */
export function jwksFrom(source: string): JWTVerifyGetKey {
  if (/^https?:\/\//i.test(source)) {
    const url = new URL(source);
    const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
    if (url.protocol !== 'https:' && !loopback) {
      throw new CatintelError(
        'invalid_parameter',
        `CATINTEL_JWKS=${source}: key sets are fetched over https (http only for localhost)`,
      );
    }
    return createRemoteJWKSet(url, { timeoutDuration: 5000, cooldownDuration: 30_000 });
  }
  let set: JSONWebKeySet;
  try {
    set = JSON.parse(fs.readFileSync(source, 'utf8')) as JSONWebKeySet;
  } catch (err) {
    throw new CatintelError(
      'invalid_input',
      `CATINTEL_JWKS=${source} is not a readable JWKS JSON file (${(err as Error).message.split('\n')[0]})`,
    );
  }
  if (!set || !Array.isArray(set.keys))
    throw new CatintelError('invalid_input', `CATINTEL_JWKS=${source} has no "keys" array`);
  return createLocalJWKSet(set);
}
