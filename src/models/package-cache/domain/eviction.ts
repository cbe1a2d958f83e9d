/**
 * Which cache entries go once a new one is stored: of each model, all but the most recently used few. A
 * package of 1,000 hurricane years is about half a gigabyte, and every change of catintel's code makes new
 * keys, so a cache that only grew would fill a disk.
 */
export interface CachedEntry {
  name: string;
  model: string;
  /** When the entry was stored or last reused (ms since the epoch). */
  usedAt: number;
}

export const ENTRIES_KEPT_PER_MODEL = 3;

export function entriesToEvict(entries: readonly CachedEntry[], keep = ENTRIES_KEPT_PER_MODEL): string[] {
  const byModel = new Map<string, CachedEntry[]>();
  for (const e of entries) byModel.set(e.model, [...(byModel.get(e.model) ?? []), e]);
  const evicted: string[] = [];
  for (const list of byModel.values()) {
    list.sort((a, b) => b.usedAt - a.usedAt || a.name.localeCompare(b.name));
    evicted.push(...list.slice(keep).map((e) => e.name));
  }
  return evicted.sort();
}
