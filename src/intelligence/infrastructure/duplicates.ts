/**
 * One facility, one count. HIFLD carries some facilities twice under two ids: the same school under two
 * NCES ids at one point, a hospital's psychiatric or rehabilitation unit as its own record a few metres from
 * the main building, ADVENTHEALTH WAUCHULA at its old and its new address 1 km apart (same type, same 25
 * beds). Counted as they come, a ring around Wauchula holds two hospitals where there is one. Records of a
 * kind with the same name (case and spacing aside) in the same state are one facility when
 *   - their points are within SAME_POINT_M of each other, or
 *   - they are hospitals of the same type and bed count within MOVED_M (one hospital at two addresses).
 * The record kept has the most beds, then the newest source date, then the lowest id; it lists the others
 * in `merged_ids`. Pure; applied at build time (build.ts), so every reader sees the merged file.
 */
import { haversineKm } from '../../lib/geo.js';
import type { FacilityLine } from './format.js';

export const SAME_POINT_M = 50;
export const MOVED_M = 2000;

const nameKey = (l: FacilityLine) => `${l[0]}|${l[4]}|${l[2].toUpperCase().replace(/\s+/g, ' ').trim()}`;
const metres = (a: FacilityLine, b: FacilityLine) => haversineKm(a[5], a[6], b[5], b[6]) * 1000;

function sameFacility(a: FacilityLine, b: FacilityLine): boolean {
  const m = metres(a, b);
  if (m <= SAME_POINT_M) return true;
  if (a[0] !== 'hospital' || m > MOVED_M) return false;
  return a[7].type !== null && a[7].type === b[7].type && typeof a[7].beds === 'number' && a[7].beds === b[7].beds;
}

/** Keep first: most beds, newest source date, lowest id. */
function rank(a: FacilityLine, b: FacilityLine): number {
  const beds = (l: FacilityLine) => (typeof l[7].beds === 'number' ? l[7].beds : -1);
  const date = (l: FacilityLine) => (typeof l[7].source_date === 'string' ? l[7].source_date : '');
  return (
    beds(b) - beds(a) ||
    (date(a) < date(b) ? 1 : date(a) > date(b) ? -1 : 0) ||
    (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0)
  );
}

export function mergeDuplicates(lines: readonly FacilityLine[]): { lines: FacilityLine[]; merged: number } {
  const groups = new Map<string, FacilityLine[]>();
  for (const l of lines) {
    const k = nameKey(l);
    const g = groups.get(k);
    if (g) g.push(l);
    else groups.set(k, [l]);
  }
  const out: FacilityLine[] = [];
  let merged = 0;
  for (const g of groups.values()) {
    if (g.length === 1) {
      out.push(g[0]);
      continue;
    }
    // Union-find over the pairs that are one facility (groups are a handful of records).
    const parent = g.map((_, i) => i);
    const root = (i: number): number => (parent[i] === i ? i : (parent[i] = root(parent[i])));
    for (let i = 0; i < g.length; i++)
      for (let j = i + 1; j < g.length; j++) if (sameFacility(g[i], g[j])) parent[root(j)] = root(i);
    const sets = new Map<number, FacilityLine[]>();
    g.forEach((l, i) => {
      const r = root(i);
      const s = sets.get(r);
      if (s) s.push(l);
      else sets.set(r, [l]);
    });
    for (const s of sets.values()) {
      if (s.length === 1) {
        out.push(s[0]);
        continue;
      }
      const [kept, ...others] = [...s].sort(rank);
      merged += others.length;
      out.push([
        kept[0],
        kept[1],
        kept[2],
        kept[3],
        kept[4],
        kept[5],
        kept[6],
        {
          ...kept[7],
          merged_ids: others
            .map((o) => o[1])
            .sort()
            .join(';'),
        },
      ]);
    }
  }
  return { lines: out, merged };
}
