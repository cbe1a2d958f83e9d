/**
 * JWT access tokens (docs/contract.md#credentials, kind A), verified and minted with `jose`. Accepted algorithms are
 * exactly those a key is configured for: HS256 with the shared secret, RS256/ES256 with the JWKS. So
 * `alg: none`, an HS256 token signed with a public key (algorithm confusion) or any other algorithm is
 * refused before a signature is looked at. `iss`, `aud`, `exp` and `sub` are required; `tier` must be
 * a paid tier (free needs no token). jose loads when a token is verified or minted, not with the module: the
 * handlers that import it for PAID_TIERS are loaded by every full CLI start (`catintel --help`).
 */
import { randomUUID } from 'node:crypto';
import type { JWTVerifyGetKey, errors as JoseErrors } from 'jose';
import { CatintelError } from '../errors.js';
import { TIERS, type Tier } from '../caller.js';
import { authDefaults, durationSeconds, formatDuration, type AuthConfig } from './config.js';

export type PaidTier = Exclude<Tier, 'free'>;
export const PAID_TIERS = TIERS.filter((t): t is PaidTier => t !== 'free');

export interface VerifiedToken {
  iss: string;
  sub: string;
  tier: PaidTier;
  exp: number;
}

/** Why a token was refused, in words a client developer can act on. Thrown as `unauthorized`. */
export class InvalidCredential extends CatintelError {
  constructor(message: string) {
    super('unauthorized', message, {
      headers: { 'www-authenticate': `Bearer realm="catintel", error="invalid_token"` },
    });
  }
}

export async function verifyAccessToken(token: string, cfg: AuthConfig, nowMs = Date.now()): Promise<VerifiedToken> {
  const algorithms = [...(cfg.secret ? ['HS256'] : []), ...(cfg.jwks ? ['RS256', 'ES256'] : [])];
  if (algorithms.length === 0)
    throw new InvalidCredential('this server is not configured to accept JWT access tokens; use an API key');
  const secret = cfg.secret;
  const jwks = cfg.jwks;
  const keyFor: JWTVerifyGetKey = (header, input) => {
    if (header.alg === 'HS256' && secret) return secret;
    if (jwks) return jwks(header, input);
    throw new InvalidCredential(`token algorithm ${header.alg} is not accepted`);
  };
  const { errors, jwtVerify } = await import('jose');
  let payload: Record<string, unknown>;
  try {
    ({ payload } = await jwtVerify(token, keyFor, {
      algorithms,
      issuer: cfg.issuer,
      audience: cfg.audience,
      requiredClaims: ['exp', 'sub'],
      clockTolerance: cfg.leewaySeconds,
      currentDate: new Date(nowMs),
    }));
  } catch (err) {
    throw translate(err, algorithms, errors);
  }
  const tier = payload.tier;
  if (typeof tier !== 'string' || !(PAID_TIERS as readonly string[]).includes(tier)) {
    throw new InvalidCredential(`token "tier" claim must be one of ${PAID_TIERS.join(', ')}`);
  }
  const sub = payload.sub;
  if (typeof sub !== 'string' || sub.length === 0 || sub.length > 320)
    throw new InvalidCredential('token "sub" claim must name the account');
  checkLifetime(payload.exp as number, payload.iat, cfg, nowMs);
  return { iss: payload.iss as string, sub, tier: tier as PaidTier, exp: payload.exp as number };
}

/**
 * A JWT cannot be revoked, so one that lives for years is a key that never expires. Refused: a token
 * valid for longer than the maximum from now (whatever its iat says), or minted with a longer lifetime
 * (exp - iat), so an identity provider configured too generously is noticed on its first token, not
 * only on some of them. The leeway allows for clock skew, as on exp.
 */
function checkLifetime(exp: number, iat: unknown, cfg: AuthConfig, nowMs: number): void {
  const max = cfg.maxLifetimeSeconds ?? authDefaults.maxLifetimeSeconds;
  const lifetime = typeof iat === 'number' ? exp - iat : NaN;
  const remaining = exp - Math.floor(nowMs / 1000);
  const worst = Math.max(Number.isFinite(lifetime) ? lifetime : -Infinity, remaining);
  if (worst > max + cfg.leewaySeconds) {
    const what =
      worst === lifetime ? `lifetime (exp - iat) is ${rough(lifetime)}` : `validity (exp - now) is ${rough(remaining)}`;
    throw new InvalidCredential(
      `the token's ${what}; this server accepts at most ${formatDuration(max)}: get a shorter-lived token`,
    );
  }
}

/** 31_536_000 -> "365d", 90_000 -> "25h": whole units, for a message. */
const rough = (seconds: number) =>
  seconds >= 2 * 86_400
    ? `${Math.round(seconds / 86_400)}d`
    : seconds >= 7200
      ? `${Math.round(seconds / 3600)}h`
      : `${Math.round(seconds)}s`;

function translate(err: unknown, algorithms: string[], jose: typeof JoseErrors): CatintelError {
  if (err instanceof CatintelError) return err;
  if (err instanceof jose.JWTExpired) return new InvalidCredential('the token has expired; get a new one');
  if (err instanceof jose.JWTClaimValidationFailed) {
    if (err.claim === 'iss')
      return new InvalidCredential('the token was issued by an issuer this server does not trust');
    if (err.claim === 'aud') return new InvalidCredential('the token is not meant for this API (audience)');
    if (err.claim === 'nbf') return new InvalidCredential('the token is not valid yet');
    return new InvalidCredential(`the token's "${err.claim}" claim is missing or invalid`);
  }
  if (err instanceof jose.JOSEAlgNotAllowed || err instanceof jose.JOSENotSupported) {
    return new InvalidCredential(`token algorithm not accepted; this server accepts ${algorithms.join(', ')}`);
  }
  if (err instanceof jose.JWSSignatureVerificationFailed)
    return new InvalidCredential('the token signature is invalid');
  if (err instanceof jose.JWKSNoMatchingKey)
    return new InvalidCredential('no key in the configured key set matches the token');
  if (
    err instanceof jose.JWKSTimeout ||
    (err instanceof Error && /fetch|ECONNREFUSED|ENOTFOUND/i.test(err.message) && !(err instanceof jose.JOSEError))
  ) {
    return new CatintelError(
      'unavailable',
      'the key set (JWKS) that verifies tokens cannot be reached; try again shortly',
      { cause: err, headers: { 'retry-after': '5' } },
    );
  }
  if (err instanceof jose.JOSEError) return new InvalidCredential('the token is malformed');
  return new InvalidCredential('the token cannot be verified');
}

/** Mints an HS256 access token with the local secret (`catintel token issue`, development and tests). */
export async function issueAccessToken(
  claims: { sub: string; tier: PaidTier; ttlSeconds: number },
  cfg: Pick<AuthConfig, 'issuer' | 'audience' | 'secret'>,
  nowMs = Date.now(),
): Promise<{ token: string; expiresAt: string }> {
  if (!cfg.secret)
    throw new CatintelError(
      'invalid_parameter',
      'set CATINTEL_JWT_SECRET (at least 32 characters) to mint tokens; the server must have the same value',
    );
  const { SignJWT } = await import('jose');
  const iat = Math.floor(nowMs / 1000);
  const exp = iat + claims.ttlSeconds;
  const token = await new SignJWT({ tier: claims.tier })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(cfg.issuer)
    .setAudience(cfg.audience)
    .setSubject(claims.sub)
    .setIssuedAt(iat)
    .setExpirationTime(exp)
    .setJti(randomUUID())
    .sign(cfg.secret);
  return { token, expiresAt: new Date(exp * 1000).toISOString() };
}

/** "1h", "30m", "45s", "7d" or plain seconds -> seconds, at most maxSeconds (the server's maximum lifetime). */
export function parseTtl(v: string, maxSeconds: number): number {
  const seconds = durationSeconds(v);
  if (!(seconds >= 1 && seconds <= maxSeconds)) {
    const why = seconds > maxSeconds ? ' (the longest lifetime the server accepts, CATINTEL_JWT_MAX_LIFETIME)' : '';
    throw new CatintelError(
      'invalid_parameter',
      `ttl: "${v}" is not a lifetime from 1s to ${formatDuration(maxSeconds)}${why} (e.g. 15m, 1h)`,
      {
        errors: [{ field: 'ttl', message: 'a number with s, m, h or d' }],
      },
    );
  }
  return seconds;
}
