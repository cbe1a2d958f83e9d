/**
 * JWT access tokens (CONTRACT §3, kind A), verified and minted with `jose`. Accepted algorithms are
 * exactly those a key is configured for: HS256 with the shared secret, RS256/ES256 with the JWKS. So
 * `alg: none`, an HS256 token signed with a public key (algorithm confusion) or any other algorithm is
 * refused before a signature is looked at. `iss`, `aud`, `exp` and `sub` are required; `tier` must be
 * a paid tier (free needs no token).
 */
import { randomUUID } from 'node:crypto';
import { SignJWT, errors as jose, jwtVerify, type JWTVerifyGetKey } from 'jose';
import { CatintelError } from '../errors.js';
import { TIERS, type Tier } from '../handlers/types.js';
import type { AuthConfig } from './config.js';

export type PaidTier = Exclude<Tier, 'free'>;
export const PAID_TIERS = TIERS.filter((t): t is PaidTier => t !== 'free');

export interface VerifiedToken {
  sub: string;
  tier: PaidTier;
  exp: number;
}

/** Why a token was refused, in words a client developer can act on. Thrown as `unauthorized`. */
export class InvalidCredential extends CatintelError {
  constructor(message: string) {
    super('unauthorized', message, { headers: { 'www-authenticate': `Bearer realm="catintel", error="invalid_token"` } });
  }
}

export async function verifyAccessToken(token: string, cfg: AuthConfig, nowMs = Date.now()): Promise<VerifiedToken> {
  const algorithms = [...(cfg.secret ? ['HS256'] : []), ...(cfg.jwks ? ['RS256', 'ES256'] : [])];
  if (algorithms.length === 0) throw new InvalidCredential('this server is not configured to accept JWT access tokens; use an API key');
  const secret = cfg.secret;
  const jwks = cfg.jwks;
  const keyFor: JWTVerifyGetKey = (header, input) => {
    if (header.alg === 'HS256' && secret) return secret;
    if (jwks) return jwks(header, input);
    throw new InvalidCredential(`token algorithm ${header.alg} is not accepted`);
  };
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
    throw translate(err, algorithms);
  }
  const tier = payload.tier;
  if (typeof tier !== 'string' || !(PAID_TIERS as readonly string[]).includes(tier)) {
    throw new InvalidCredential(`token "tier" claim must be one of ${PAID_TIERS.join(', ')}`);
  }
  const sub = payload.sub;
  if (typeof sub !== 'string' || sub.length === 0 || sub.length > 320) throw new InvalidCredential('token "sub" claim must name the account');
  return { sub, tier: tier as PaidTier, exp: payload.exp as number };
}

function translate(err: unknown, algorithms: string[]): CatintelError {
  if (err instanceof CatintelError) return err;
  if (err instanceof jose.JWTExpired) return new InvalidCredential('the token has expired; get a new one');
  if (err instanceof jose.JWTClaimValidationFailed) {
    if (err.claim === 'iss') return new InvalidCredential('the token was issued by an issuer this server does not trust');
    if (err.claim === 'aud') return new InvalidCredential('the token is not meant for this API (audience)');
    if (err.claim === 'nbf') return new InvalidCredential('the token is not valid yet');
    return new InvalidCredential(`the token's "${err.claim}" claim is missing or invalid`);
  }
  if (err instanceof jose.JOSEAlgNotAllowed || err instanceof jose.JOSENotSupported) {
    return new InvalidCredential(`token algorithm not accepted; this server accepts ${algorithms.join(', ')}`);
  }
  if (err instanceof jose.JWSSignatureVerificationFailed) return new InvalidCredential('the token signature is invalid');
  if (err instanceof jose.JWKSNoMatchingKey) return new InvalidCredential('no key in the configured key set matches the token');
  if (err instanceof jose.JWKSTimeout || (err instanceof Error && /fetch|ECONNREFUSED|ENOTFOUND/i.test(err.message) && !(err instanceof jose.JOSEError))) {
    return new CatintelError('unavailable', 'the key set (JWKS) that verifies tokens cannot be reached; try again shortly', { cause: err, headers: { 'retry-after': '5' } });
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
  if (!cfg.secret) throw new CatintelError('invalid_parameter', 'set CATINTEL_JWT_SECRET (at least 32 characters) to mint tokens; the server must have the same value');
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

/** "1h", "30m", "45s", "7d" or plain seconds -> seconds. */
export function parseTtl(v: string, maxSeconds: number): number {
  const m = /^(\d{1,7})([smhd]?)$/.exec(v.trim());
  const seconds = m ? Number(m[1]) * { '': 1, s: 1, m: 60, h: 3600, d: 86_400 }[m[2] as '' | 's' | 'm' | 'h' | 'd'] : NaN;
  if (!(seconds >= 1 && seconds <= maxSeconds)) {
    throw new CatintelError('invalid_parameter', `ttl: "${v}" is not a lifetime from 1s to ${maxSeconds / 86_400}d (e.g. 15m, 1h, 7d)`, {
      errors: [{ field: 'ttl', message: 'a number with s, m, h or d' }],
    });
  }
  return seconds;
}
