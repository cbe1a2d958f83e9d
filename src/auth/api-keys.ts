/**
 * API keys (docs/contract.md#credentials, kind B): `ci_live_<43 base62>` for production, `ci_test_<43 base62>` for
 * sandbox integrations; 43 base62 characters carry 256 random bits. The store keeps only the SHA-256
 * of a key: with that much entropy a fast hash cannot be reversed by guessing, and it lets a request
 * be checked with one indexed lookup. The operator's admin token (`ci_admin_...`) has the same shape.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
export const API_KEY_RE = /^ci_(live|test)_[0-9A-Za-z]{43}$/;
export const ADMIN_TOKEN_RE = /^ci_admin_[0-9A-Za-z]{43}$/;
/** Characters of a key kept for display in `keys list` ("ci_live_3fA9"). */
const PREFIX_LENGTH = 12;

/** n uniformly random base62 characters (rejection sampling: bytes >= 248 are dropped to avoid bias). */
export function randomBase62(n: number): string {
  let out = '';
  while (out.length < n) {
    for (const b of randomBytes(n * 2)) {
      if (b < 248 && out.length < n) out += BASE62[b % 62];
    }
  }
  return out;
}

export interface NewApiKey {
  key: string;
  id: string;
  prefix: string;
  hash: string;
}

export function newApiKey(sandbox: boolean): NewApiKey {
  const key = `ci_${sandbox ? 'test' : 'live'}_${randomBase62(43)}`;
  return { key, id: `key_${randomBase62(16)}`, prefix: key.slice(0, PREFIX_LENGTH), hash: hashCredential(key) };
}

export function newAdminToken(): string {
  return `ci_admin_${randomBase62(43)}`;
}

export function hashCredential(credential: string): string {
  return createHash('sha256').update(credential).digest('hex');
}

/** Constant-time equality of two credentials (compares their digests, so lengths never leak). */
export function sameCredential(a: string, b: string): boolean {
  return timingSafeEqual(createHash('sha256').update(a).digest(), createHash('sha256').update(b).digest());
}
