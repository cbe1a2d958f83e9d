/**
 * Whom a CLI command acts for (docs/contract.md#accounts): the CLI is the operator (enterprise tier), and its
 * account is, in order, `--account`, CATINTEL_ACCOUNT, the account of the JWT in CATINTEL_TOKEN, or
 * `local`. A token's account is derived exactly as the server derives it (issuer and subject, verified
 * with the same CATINTEL_JWT_* settings), so a user's CLI and HTTP views of their triggers, portfolios
 * and locations agree; a name given by hand can never be a token's account (src/auth/token-account.ts).
 */
import type { Env } from '../auth/config.js';
import { checkLocalAccount, tokenAccountOf } from '../auth/token-account.js';
import { CatintelError, asCatintelError } from '../errors.js';
import type { Caller } from '../handlers/types.js';

export const LOCAL_ACCOUNT = 'local';

export async function cliCaller(globals: { account?: string }, env: Env): Promise<Caller> {
  if (globals.account !== undefined)
    return { tier: 'enterprise', account: checkLocalAccount(globals.account, '--account') };
  if (env.CATINTEL_ACCOUNT)
    return { tier: 'enterprise', account: checkLocalAccount(env.CATINTEL_ACCOUNT, 'CATINTEL_ACCOUNT') };
  const token = env.CATINTEL_TOKEN?.trim();
  // An API key names no subject: its account is the one `keys list` shows, given with --account.
  if (!token || token.split('.').length !== 3) return { tier: 'enterprise', account: LOCAL_ACCOUNT };
  let account: string | undefined;
  let refused: CatintelError | undefined;
  try {
    account = await tokenAccountIn(token, env);
  } catch (err) {
    refused = asCatintelError(err);
  }
  // A token that does not verify fails the commands that act on its account, and only those: `events
  // live` works as before with a token kept for another server.
  return {
    tier: 'enterprise',
    get account(): string {
      if (refused) throw refused;
      return account!;
    },
  };
}

async function tokenAccountIn(token: string, env: Env): Promise<string> {
  // Verifying a token loads jose; the commands run without one (most of them) never do.
  const [{ authConfigFromEnv }, { verifyAccessToken }] = await Promise.all([
    import('../auth/config-from-env.js'),
    import('../auth/jwt.js'),
  ]);
  const auth = authConfigFromEnv(env);
  if (!auth.secret && !auth.jwks) {
    throw new CatintelError(
      'unauthorized',
      "CATINTEL_TOKEN holds a JWT, but neither CATINTEL_JWT_SECRET nor CATINTEL_JWKS is set: the CLI verifies the token as the server does to find its account; set the server's, or pass --account",
    );
  }
  try {
    const t = await verifyAccessToken(token, auth);
    return tokenAccountOf(t.iss, t.sub);
  } catch (err) {
    const e = asCatintelError(err);
    throw new CatintelError(e.code, `CATINTEL_TOKEN: ${e.message}`, { cause: err });
  }
}
