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
import { EVENT_TYPES } from '../domain/event.js';
import { layOutFeatures, type Entry, type Layout } from './entry.js';
import { buildGrid, type Grid } from './grid.js';

/** What a snapshot remembers of the store it was read from, for the next build to read only what changed. */
export interface StoreVersions {
  /** Live event id -> version. */
  events: Map<string, string>;
  ended: string;
}

/**
 * The fields every request scans, one typed array each, by position (main then side): a scan of the whole
 * live set is a tight loop over numbers with no allocation. A missing instant is +Infinity (never passed).
 */
export interface Columns {
  knownUs: Float64Array; // least(started, updated): known by now from here
  updatedUs: Float64Array;
  monitoringUs: Float64Array;
  endedUs: Float64Array;
  lat: Float64Array;
  lng: Float64Array;
  /** Index in EVENT_TYPES; 15 for a type outside it (no filter names it). */
  type: Uint8Array;
  startedUs: Float64Array;
  /** greatest(started, updated): the sort key once both instants have passed (an entry's staticKeyUs). */
  keyUs: Float64Array;
  /** The entry's serial (what names its bytes in a collection's ETag, render.ts). */
  serial: Float64Array;
  /** Index in the snapshot's `sources`. */
  source: Uint8Array;
}

export interface Snapshot {
  builtAtUs: number;
  /** Entries whose sort key (greatest of start and version) is at or before the build: sorted newest first. */
  main: Entry[];
  /** Entries with a start or version after the build (announced onsets): their sort key depends on now. */
  side: Entry[];
  /** Over main then side: tree item i is main[i], or side[i - main.length]. */
  tree: Flatbush | undefined;
  /** The same points in cells, for radius searches (grid.ts). */
  grid: Grid;
  cols: Columns;
  /** The source names `cols.source` indexes. */
  sources: string[];
  /** Every feature's bytes at the build, by position, in one buffer (entry.ts layOutFeatures()). */
  layout: Layout;
  byId: Map<string, Entry>;
  bySlug: Map<string, Entry>;
  /** lower(source_id) and every id in details.ids -> entries. */
  bySourceKey: Map<string, Entry[]>;
  /** Slugs, lower(source_id)s and details.ids of the events ended before the build. */
  endedKeys: Set<string>;
  /** The versions of what it was read from (load.ts): the next build reads only what changed since. */
  versions: StoreVersions;
}

/** (sort key desc, id desc): the order of LAST_CHANGED_SQL DESC, id DESC (a UUID orders as its text). */
export const newestFirst = (ka: number, ida: string, kb: number, idb: string): number =>
  kb - ka || (ida < idb ? 1 : ida > idb ? -1 : 0);

export function buildSnapshot(
  entries: Entry[],
  endedKeys: Set<string>,
  builtAtUs: number,
  versions: StoreVersions,
): Snapshot {
  const main = entries
    .filter((e) => e.staticKeyUs <= builtAtUs)
    .sort((a, b) => newestFirst(a.staticKeyUs, a.id, b.staticKeyUs, b.id));
  const side = entries.filter((e) => e.staticKeyUs > builtAtUs);
  const all = [...main, ...side];
  const layout = layOutFeatures(all, builtAtUs);
  let tree: Flatbush | undefined;
  if (all.length > 0) {
    tree = new Flatbush(all.length);
    for (const e of all) tree.add(e.lng, e.lat, e.lng, e.lat);
    tree.finish();
  }
  const n = all.length;
  const cols: Columns = {
    knownUs: new Float64Array(n),
    updatedUs: new Float64Array(n),
    monitoringUs: new Float64Array(n),
    endedUs: new Float64Array(n),
    lat: new Float64Array(n),
    lng: new Float64Array(n),
    type: new Uint8Array(n),
    startedUs: new Float64Array(n),
    keyUs: new Float64Array(n),
    serial: new Float64Array(n),
    source: new Uint8Array(n),
  };
  const sources: string[] = [];
  all.forEach((e, i) => {
    cols.knownUs[i] = Math.min(e.startedUs, e.updatedUs);
    cols.updatedUs[i] = e.updatedUs;
    cols.monitoringUs[i] = e.monitoringUs ?? Infinity;
    cols.endedUs[i] = e.endedUs ?? Infinity;
    cols.lat[i] = e.lat;
    cols.lng[i] = e.lng;
    const t = (EVENT_TYPES as readonly string[]).indexOf(e.eventType);
    cols.type[i] = t < 0 ? 15 : t;
    cols.startedUs[i] = e.startedUs;
    cols.keyUs[i] = e.staticKeyUs;
    cols.serial[i] = e.serial;
    let source = sources.indexOf(e.source);
    if (source < 0) source = sources.push(e.source) - 1;
    if (source > 255) throw new Error('live index: more than 256 sources');
    cols.source[i] = source;
  });
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
  return {
    builtAtUs,
    main,
    side,
    tree,
    grid: buildGrid(cols),
    cols,
    sources,
    layout,
    byId,
    bySlug,
    bySourceKey,
    endedKeys,
    versions,
  };
}

export const entryAt = (s: Snapshot, i: number): Entry => (i < s.main.length ? s.main[i] : s.side[i - s.main.length]);
