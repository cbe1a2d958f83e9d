/**
 * Who owns a saved location (docs/contract.md#client-address): an authenticated caller's account, or an anonymous caller's
 * client address (the pipeline names anonymous callers `ip:<address>`; behind a shared proxy they share
 * one address, so they should sign in). The two kinds never meet: an account is stored as `account:<name>`.
 */
import type { Caller } from '../caller.js';

export function ownerOf(caller: Caller): string {
  if (caller.tier === 'free' && caller.account.startsWith('ip:')) return caller.account;
  return `account:${caller.account}`;
}
