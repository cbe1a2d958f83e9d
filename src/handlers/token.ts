/**
 * `catintel token issue`: mints a JWT access token with the local HS256 secret (docs/contract.md#credentials), for
 * development and tests; in production an identity provider issues them. CLI only and storeless, so it
 * works while `catintel serve` holds the store. The secret, issuer and audience come from the same
 * CATINTEL_* variables the server reads (src/auth/config.ts), passed in by the CLI as ctx.config.env.
 */
import { authDefaults, formatDuration, maxLifetimeFromEnv, secretBytes } from '../auth/config.js';
import { PAID_TIERS, issueAccessToken, parseTtl, type PaidTier } from '../auth/jwt.js';
import { tokenAccountOf } from '../auth/token-account.js';
import { CatintelError } from '../errors.js';
import { str } from './params.js';
import { defineHandler } from './types.js';

export const tokenIssue = defineHandler({
  name: 'token.issue',
  summary: 'Mint a JWT access token with CATINTEL_JWT_SECRET (development and tests)',
  storeless: true,
  cli: {
    command: ['token', 'issue'],
    options: [
      { flags: '--tier <tier>', description: `the token's tier: ${PAID_TIERS.join(', ')}` },
      { flags: '--sub <account>', description: 'the account (sub claim), e.g. alice@example.com' },
      {
        flags: '--ttl <duration>',
        description: `lifetime: 15m, 1h or seconds (default 1h; at most the server's CATINTEL_JWT_MAX_LIFETIME, default ${formatDuration(authDefaults.maxLifetimeSeconds)})`,
      },
    ],
    examples: [
      'export CATINTEL_JWT_SECRET=$(openssl rand -base64 48)',
      'catintel token issue --tier analyst --sub alice@example.com',
      'TOKEN=$(catintel token issue --tier agency --sub ops@county.gov --ttl 15m --json | jq -r .token)',
    ],
  },
  parse(raw) {
    const tier = str(raw, 'tier');
    if (!tier || !(PAID_TIERS as readonly string[]).includes(tier)) {
      throw new CatintelError('invalid_parameter', `--tier: "${tier ?? ''}" must be one of ${PAID_TIERS.join(', ')}`, {
        errors: [{ field: 'tier', message: PAID_TIERS.join(', ') }],
      });
    }
    const sub = str(raw, 'sub');
    if (!sub || sub.length > 320)
      throw new CatintelError(
        'invalid_parameter',
        '--sub: name the account the token acts for, e.g. alice@example.com',
        { errors: [{ field: 'sub', message: 'required, at most 320 characters' }] },
      );
    const ttl = str(raw, 'ttl');
    // The syntax and the widest bound here; the configured maximum (an env value) in run().
    const ttlSeconds =
      ttl === undefined ? authDefaults.tokenTtlSeconds : parseTtl(ttl, authDefaults.maxLifetimeRange[1]);
    return { tier: tier as PaidTier, sub, ttl, ttlSeconds };
  },
  async run(ctx, input) {
    const env = ctx.config.env ?? {};
    if (!env.CATINTEL_JWT_SECRET) {
      throw new CatintelError(
        'invalid_parameter',
        'set CATINTEL_JWT_SECRET (at least 32 characters, the same value the server has) to mint tokens',
      );
    }
    // Never mint what the server would refuse (CATINTEL_JWT_MAX_LIFETIME, the same variable it reads).
    const maxSeconds = maxLifetimeFromEnv(env);
    if (input.ttlSeconds > maxSeconds) parseTtl(input.ttl ?? String(input.ttlSeconds), maxSeconds);
    const cfg = {
      secret: secretBytes(env.CATINTEL_JWT_SECRET),
      issuer: env.CATINTEL_JWT_ISSUER || authDefaults.issuer,
      audience: env.CATINTEL_JWT_AUDIENCE || authDefaults.audience,
    };
    // Token lifetimes are real time, even when CATINTEL_NOW pins the event clock for a replay.
    const { token, expiresAt } = await issueAccessToken(input, cfg, Date.now());
    return {
      body: {
        token,
        token_type: 'Bearer',
        sub: input.sub,
        account: tokenAccountOf(cfg.issuer, input.sub),
        tier: input.tier,
        issuer: cfg.issuer,
        audience: cfg.audience,
        expires_at: expiresAt,
      },
    };
  },
});
