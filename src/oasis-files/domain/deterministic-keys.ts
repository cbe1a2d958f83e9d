/**
 * The keys Oasis's acceptance runner makes for its financial test cases: every location keyed for each
 * single peril its LocPerilsCovered names that the model covers (perils in code order), and each
 * coverage type of the book, whatever its TIV: 1-4 (buildings, other, contents, BI) for locations,
 * 7-15 for the accounts of an account-only cyber book, keyed by their PolPerilsCovered. AreaPerilID
 * and VulnerabilityID are the key's row number, so each key is its own hazard cell and curve.
 */
import { perilsCovered } from './peril-groups.js';
import { PROPERTY_COVERAGE_TYPES } from './coverage-types.js';
import type { KeysTable } from './keys-table.js';

export function deterministicKeys(
  locIds: Int32Array,
  perilsCoveredOfRow: readonly string[],
  modelPerils: readonly string[],
  coverageTypes: readonly number[] = PROPERTY_COVERAGE_TYPES,
): KeysTable {
  const model = new Set<string>();
  for (const code of modelPerils) for (const p of perilsCovered(code)) model.add(p);
  // One set of keys per location row: two rows that share a location number (and differ elsewhere) each
  // get their own keys, as Oasis's do; the items then take the first.
  const entries: { id: number; peril: string; cov: number }[] = [];
  for (let i = 0; i < locIds.length; i++) {
    const perils = [...perilsCovered(perilsCoveredOfRow[i])].filter((p) => model.has(p)).sort();
    for (const p of perils) for (const c of coverageTypes) entries.push({ id: locIds[i], peril: p, cov: c });
  }
  // Array.prototype.sort is stable: rows sharing a number keep their file order.
  entries.sort((a, b) => a.id - b.id || (a.peril < b.peril ? -1 : a.peril > b.peril ? 1 : 0) || a.cov - b.cov);
  const locId = entries.map((e) => e.id);
  const perilId = entries.map((e) => e.peril);
  const cov = entries.map((e) => e.cov);
  const seq = Float64Array.from({ length: locId.length }, (_, i) => i + 1);
  return {
    locId: Int32Array.from(locId),
    perilId,
    coverageTypeId: Int32Array.from(cov),
    areaPerilId: seq,
    vulnerabilityId: seq.slice(),
  };
}
