/**
 * Turns an `Authorization` header into who is calling (docs/contract.md#credentials). No header: anonymous (free tier,
 * limited per client address). A header that does not verify: `unauthorized`, whatever the path, so a
 * client with an expired token finds out at once instead of being silently served as anonymous.
 */
import { CatintelError } from '../errors.js';
import type { Store } from '../store/db.js';
import { activeApiKeyByHash } from '../store/keys.js';
import { ADMIN_TOKEN_RE, API_KEY_RE, hashCredential, sameCredential } from './api-keys.js';
import type { AuthConfig } from './config.js';
import { InvalidCredential, verifyAccessToken, type PaidTier } from './jwt.js';
import { tokenAccountOf } from './token-account.js';

export type Principal =
  | { kind: 'jwt'; tier: PaidTier; account: string; credentialId: string }
  | { kind: 'api_key'; tier: PaidTier; account: string; credentialId: string; keyId: string; sandbox: boolean }
  | { kind: 'admin'; tier: 'enterprise'; account: string; credentialId: 'admin' };

export interface AuthDeps {
  db: Store;
  auth: AuthConfig;
  /** The operator's token for the /admin endpoints, when the server has one. */
  adminToken?: string;
  /** Real time (ms) for `exp`; never the pinned event clock. */
  nowMs?: () => number;
}

/** RFC 6750 §3: a bare challenge when no credential was sent. */
export const BEARER_CHALLENGE = 'Bearer realm="catintel"';
const MAX_CREDENTIAL_LENGTH = 8192;

export function missingCredential(message: string): CatintelError {
  return new CatintelError('unauthorized', message, { headers: { 'www-authenticate': BEARER_CHALLENGE } });
}

/** null: no credential was sent. Throws `unauthorized` for one that does not verify. */
export async function authenticate(header: string | null, deps: AuthDeps): Promise<Principal | null> {
  if (header === null || header.trim() === '') return null;
  const m = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
  if (!m) throw new InvalidCredential('send the credential as `Authorization: Bearer <token or API key>`');
  const credential = m[1];
  if (credential.length > MAX_CREDENTIAL_LENGTH)
    throw new InvalidCredential('the credential is too long to be a token or API key');

  if (credential.startsWith('ci_admin_')) {
    if (deps.adminToken && ADMIN_TOKEN_RE.test(credential) && sameCredential(credential, deps.adminToken)) {
      return { kind: 'admin', tier: 'enterprise', account: 'local', credentialId: 'admin' };
    }
    throw new InvalidCredential('the admin token is not valid for this server run');
  }
  if (credential.startsWith('ci_')) {
    if (!API_KEY_RE.test(credential))
      throw new InvalidCredential('malformed API key; keys look like ci_live_... or ci_test_...');
    const key = await activeApiKeyByHash(deps.db, hashCredential(credential));
    if (!key) throw new InvalidCredential('unknown or revoked API key');
    return {
      kind: 'api_key',
      tier: key.tier,
      account: key.account,
      credentialId: `key:${key.id}`,
      keyId: key.id,
      sandbox: key.sandbox,
    };
  }
  if (credential.split('.').length === 3) {
    const t = await verifyAccessToken(credential, deps.auth, deps.nowMs?.() ?? Date.now());
    // Issuer-qualified, so a subject can never name a local or API-key account (src/auth/token-account.ts).
    const account = tokenAccountOf(t.iss, t.sub);
    return { kind: 'jwt', tier: t.tier, account, credentialId: account };
  }
  throw new InvalidCredential('not a catintel credential: send a JWT access token or an API key (ci_live_...)');
}
