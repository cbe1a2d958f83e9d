/** API keys and tokens as text. The secret (key, token) sits on its own line so it can be copied whole. */
import { keyValues, table } from './text.js';

type Rec = Record<string, unknown>;
const KEY_FIELDS = ['id', 'name', 'tier', 'account', 'sandbox', 'prefix', 'created_at', 'revoked_at'];

export function keyCreated(b: Rec): string {
  const { key, note, ...rest } = b;
  return [`key: ${key}`, ...(note ? [String(note)] : []), '', ...keyValues(rest, 0, KEY_FIELDS)].join('\n') + '\n';
}

export function keyRecord(b: Rec): string {
  return (
    [b.revoked_at ? `Revoked ${b.id} at ${b.revoked_at}.` : `Key ${b.id}:`, ...keyValues(b, 2, KEY_FIELDS)].join('\n') +
    '\n'
  );
}

export function keysTable(b: { keys: Rec[] }): string {
  if (!b.keys.length) return 'No API keys (create one with `catintel keys create --tier T --name N`).\n';
  const rows = b.keys.map(
    (k) =>
      [
        k.id,
        k.name,
        k.tier,
        k.account,
        k.sandbox ? 'sandbox' : 'live',
        `${k.prefix}...`,
        k.created_at,
        k.revoked_at,
      ] as (string | null)[],
  );
  return (
    [
      ...table(['id', 'name', 'tier', 'account', 'kind', 'prefix', 'created (UTC)', 'revoked'], rows),
      `${b.keys.length} keys`,
    ].join('\n') + '\n'
  );
}

export function tokenIssued(b: Rec): string {
  const { token, ...rest } = b;
  return (
    [
      `token: ${token}`,
      '',
      ...keyValues(rest, 0, ['token_type', 'sub', 'account', 'tier', 'expires_at', 'issuer', 'audience']),
    ].join('\n') + '\n'
  );
}
