/**
 * The keys Oasis's acceptance runner makes for its financial test cases: every location keyed for each
 * single peril its LocPerilsCovered names that the model covers (perils in code order), and each
 * coverage type 1-4 (buildings, other, contents, BI), whatever its TIV; AreaPerilID and
 * VulnerabilityID are the key's row number, so each key is its own hazard cell and curve. The
 * acceptance cases are run with a model covering WTC (their expected keys hold only WTC rows).
 */
import { perilsCovered } from './peril-groups.js';
import type { KeysTable } from './keys-table.js';

export const PROPERTY_COVERAGE_TYPES = [1, 2, 3, 4] as const;

export function deterministicKeys(locIds: Int32Array, locPerilsCovered: readonly string[], modelPerils: readonly string[]): KeysTable {
  const model = new Set<string>();
  for (const code of modelPerils) for (const p of perilsCovered(code)) model.add(p);
  // One set of keys per location row: two rows that share a location number (and differ elsewhere) each
  // get their own keys, as Oasis's do; the items then take the first.
  const entries: { id: number; peril: string; cov: number }[] = [];
  for (let i = 0; i < locIds.length; i++) {
    const perils = [...perilsCovered(locPerilsCovered[i])].filter((p) => model.has(p)).sort();
    for (const p of perils) for (const c of PROPERTY_COVERAGE_TYPES) entries.push({ id: locIds[i], peril: p, cov: c });
  }
  // Array.prototype.sort is stable: rows sharing a number keep their file order.
  entries.sort((a, b) => a.id - b.id || (a.peril < b.peril ? -1 : a.peril > b.peril ? 1 : 0) || a.cov - b.cov);
  const locId = entries.map((e) => e.id);
  const perilId = entries.map((e) => e.peril);
  const cov = entries.map((e) => e.cov);
  const seq = Float64Array.from({ length: locId.length }, (_, i) => i + 1);
  return { locId: Int32Array.from(locId), perilId, coverageTypeId: Int32Array.from(cov), areaPerilId: seq, vulnerabilityId: seq.slice() };
}
