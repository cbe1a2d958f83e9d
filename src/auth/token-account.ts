/**
 * The account a JWT access token acts for (docs/contract.md#credentials). An identity provider chooses `sub`, so a bare
 * subject could name any local or API-key account (`local`, `acme`) and read its data. A token's account
 * is its issuer and subject under a prefix no local account may use: `jwt:<iss>|<sub>`, e.g.
 * `jwt:catintel|alice@example.com`. The issuer never holds a `|` (src/auth/config.ts), so the first one
 * ends it and two different (iss, sub) pairs never give the same account.
 *
 * A key and a token of the same organisation do not share data: a key acts for the local account it was
 * created for, a token for its own subject, and neither can be spelled as the other.
 */
import { CatintelError } from '../errors.js';

export const TOKEN_ACCOUNT_PREFIX = 'jwt:';

export function tokenAccountOf(issuer: string, subject: string): string {
  return `${TOKEN_ACCOUNT_PREFIX}${issuer}|${subject}`;
}

/** Whether a name is one only a verified token can act for. Case-blind, so `JWT:...` is not a look-alike. */
export function isTokenAccount(account: string): boolean {
  return account.slice(0, TOKEN_ACCOUNT_PREFIX.length).toLowerCase() === TOKEN_ACCOUNT_PREFIX;
}

/**
 * A local account name (`--account`, CATINTEL_ACCOUNT, an API key's account) as `where` gave it; one in
 * the token namespace is refused, naming the way to act for a token's account instead.
 */
export function checkLocalAccount(account: string, where: string): string {
  if (isTokenAccount(account)) {
    throw new CatintelError(
      'invalid_parameter',
      `${where} "${account}": names starting with "${TOKEN_ACCOUNT_PREFIX}" are the accounts of JWT access tokens and cannot be given by name; set CATINTEL_TOKEN to the token to act for its account`,
      { errors: [{ field: 'account', message: `a local account name, not starting with "${TOKEN_ACCOUNT_PREFIX}"` }] },
    );
  }
  return account;
}
