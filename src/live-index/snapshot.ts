/**
 * The live index at one build instant: every event not ended by then (those are the only ones that can be
 * live at any later "now"), sorted as /events/live lists them, in a flatbush tree over their points, with
 * the lookup keys of /events/{id}. Keys of the events already ended are kept too, so that a key which
 * also names an ended event is left to the SQL lookup (which answers 409 or finds the ended one).
 *
 * Valid for every now >= builtAtUs: an event ended before the build stays ended, and everything that
 * depends on now (known, status, upcoming, sort key) is computed per query from the instants held.
 */
import Flatbush from 'flatbush';
import type { Entry } from './entry.js';

export interface Snapshot {
  builtAtUs: number;
  /** Entries whose sort key (greatest of start and version) is at or before the build: sorted newest first. */
  main: Entry[];
  /** Entries with a start or version after the build (announced onsets): their sort key depends on now. */
  side: Entry[];
  /** Over main then side: tree item i is main[i], or side[i - main.length]. */
  tree: Flatbush | undefined;
  byId: Map<string, Entry>;
  bySlug: Map<string, Entry>;
  /** lower(source_id) and every id in details.ids -> entries. */
  bySourceKey: Map<string, Entry[]>;
  /** Slugs, lower(source_id)s and details.ids of the events ended before the build. */
  endedKeys: Set<string>;
}

/** (sort key desc, id desc): the order of LAST_CHANGED_SQL DESC, id DESC (a UUID orders as its text). */
export const newestFirst = (ka: number, ida: string, kb: number, idb: string): number => (kb - ka) || (ida < idb ? 1 : ida > idb ? -1 : 0);

export function buildSnapshot(entries: Entry[], endedKeys: Set<string>, builtAtUs: number): Snapshot {
  const main = entries.filter((e) => e.staticKeyUs <= builtAtUs).sort((a, b) => newestFirst(a.staticKeyUs, a.id, b.staticKeyUs, b.id));
  const side = entries.filter((e) => e.staticKeyUs > builtAtUs);
  const all = [...main, ...side];
  let tree: Flatbush | undefined;
  if (all.length > 0) {
    tree = new Flatbush(all.length);
    for (const e of all) tree.add(e.lng, e.lat, e.lng, e.lat);
    tree.finish();
  }
  const byId = new Map<string, Entry>();
  const bySlug = new Map<string, Entry>();
  const bySourceKey = new Map<string, Entry[]>();
  const addKey = (k: string, e: Entry) => {
    const list = bySourceKey.get(k);
    if (!list) bySourceKey.set(k, [e]);
    else if (!list.includes(e)) list.push(e);
  };
  for (const e of all) {
    byId.set(e.id, e);
    bySlug.set(e.slug, e);
    addKey(e.sourceKey, e);
    for (const k of e.ids) addKey(k, e);
  }
  return { builtAtUs, main, side, tree, byId, bySlug, bySourceKey, endedKeys };
}

export const entryAt = (s: Snapshot, i: number): Entry => (i < s.main.length ? s.main[i] : s.side[i - s.main.length]);
