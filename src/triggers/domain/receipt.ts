/**
 * Receipts: what makes a history entry new, and the fingerprint of the inputs it was computed from.
 * An entry is keyed by (trigger, event, rule version, inputs hash) (docs/triggers.md#receipts): a re-run over the
 * same data finds the key and adds nothing; a new fix, a revised magnitude or a new reading changes the
 * inputs and so records a new entry. The hash is over a canonical JSON (keys sorted), so it does not
 * depend on the order a database returned the columns in.
 */
import { createHash } from 'node:crypto';
import type { EvalInputs } from './rules.js';

export function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o)
      .sort()
      .filter((k) => o[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonicalJson(o[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v);
}

/** SHA-256 (hex) of the canonical inputs. */
export function inputsHash(inputs: EvalInputs): string {
  return createHash('sha256').update(canonicalJson(inputs)).digest('hex');
}

export function observationKey(eventKey: string, ruleVersion: string, hash: string): string {
  return `${eventKey}|${ruleVersion}|${hash}`;
}
