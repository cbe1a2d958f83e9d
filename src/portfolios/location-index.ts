/**
 * A portfolio's locations in memory for exposure: typed arrays by position and a flatbush R-tree over the
 * points, so a ring visits only the locations in its bbox and then tests each with point-in-polygon.
 *
 * Only the locations that can matter are read: given boxes (the bboxes of the rings at hand), the store
 * filters the rows and the index holds just those inside one of them, so a book of millions of locations
 * costs memory for what lies near an event, not for the book (a book no ring reaches is never read at all:
 * see portfolioExtent, which reads the portfolio row). Positions keep file order (seq), so sums run in the same order whatever was read.
 *
 * A portfolio never changes after its import (it can only be deleted), so a built index is kept, by id and
 * boxes, in a small cache bounded by the locations it holds (live rings change rarely, so the same boxes
 * come back); callers check ownership in the store before using it.
 */
import Flatbush from 'flatbush';
import type { Store, Tx } from '../store/db.js';

/** Store or the Tx of an open transaction (inside one, only the Tx may query). */
export type Queryable = Pick<Store, 'all'> | Pick<Tx, 'all'>;
import { eventTypeMask } from './domain/perils.js';

export interface LocationIndex {
  id: string;
  count: number;
  locNumber: string[];
  lat: Float64Array;
  lng: Float64Array;
  building: Float64Array;
  contents: Float64Array;
  bi: Float64Array;
  other: Float64Array;
  /** The event types each location is insured against (perils.ts eventTypeMask). */
  typeMask: Int32Array;
  /** perils_covered per location (shared strings). */
  perilsCovered: string[];
  /** The single OED codes covered per location, ';'-joined (shared strings). */
  perilCodes: string[];
  currency: string;
  tree: Flatbush | undefined;
  bbox: [number, number, number, number] | undefined;
}

/** At most this many locations are kept indexed across cached portfolios (~100 bytes each). */
const CACHE_LOCATIONS = 2_000_000;
const cache = new Map<string, LocationIndex>();
let cached = 0;

/** A box as [minLng, minLat, maxLng, maxLat]. */
export type Box = [number, number, number, number];

/** Past this many boxes, one box around them all filters the rows (a long SQL filter costs more than it saves). */
const MAX_BOXES = 64;

export function forgetIndex(id: string): void {
  for (const [key, hit] of cache) {
    if (hit.id !== id) continue;
    cached -= hit.count;
    cache.delete(key);
  }
}

export interface PortfolioExtent {
  count: number;
  /** Undefined for a portfolio without locations. */
  bbox: Box | undefined;
}

/**
 * How many locations a portfolio holds and the box around them, read from its row (written at import,
 * migration 11): enough to tell that no live ring reaches the book without reading a single location,
 * whatever the size of the book.
 */
export async function portfolioExtent(db: Queryable, id: string): Promise<PortfolioExtent> {
  const [r] = await (db as Store).all<{
    n: number;
    min_lng: number | null;
    min_lat: number | null;
    max_lng: number | null;
    max_lat: number | null;
  }>(`SELECT location_count AS n, min_lng, min_lat, max_lng, max_lat FROM portfolios WHERE id = $id`, { id });
  const count = Number(r?.n ?? 0);
  return { count, bbox: count > 0 && r.min_lng !== null ? [r.min_lng, r.min_lat!, r.max_lng!, r.max_lat!] : undefined };
}

/** The SQL filter keeping the rows inside one of the boxes (each bound a number of ours, never text from outside). */
function boxFilter(boxes: Box[]): string {
  const list =
    boxes.length > MAX_BOXES
      ? [
          boxes.reduce<Box>(
            (u, b) => [Math.min(u[0], b[0]), Math.min(u[1], b[1]), Math.max(u[2], b[2]), Math.max(u[3], b[3])],
            [Infinity, Infinity, -Infinity, -Infinity],
          ),
        ]
      : boxes;
  const num = (x: number) => {
    if (!Number.isFinite(x)) throw new Error(`a box bound is not a finite number: ${x}`);
    return `${x}::DOUBLE`;
  };
  return `(${list.map((b) => `(lng BETWEEN ${num(b[0])} AND ${num(b[2])} AND lat BETWEEN ${num(b[1])} AND ${num(b[3])})`).join(' OR ')})`;
}

interface Columns {
  loc_number: string[];
  lat: number[];
  lng: number[];
  building_tiv: number[];
  contents_tiv: number[];
  bi_tiv: number[];
  other_tiv: number[];
  /** The number of each location's LocPerilsCovered value in the dictionary. */
  cover: number[];
}

/** The portfolio's locations, all of them, or (given `within`) only those inside one of the boxes. */
export async function locationIndex(
  db: Queryable,
  id: string,
  currency: string,
  within?: Box[],
): Promise<LocationIndex> {
  const key = within ? `${id}|${JSON.stringify(within)}` : id;
  const hit = cache.get(key);
  if (hit) {
    cache.delete(key); // most recently used last
    cache.set(key, hit);
    return hit;
  }
  if (within && within.length === 0) return emptyIndex(id, currency);
  const inside = within ? ` AND ${boxFilter(within)}` : '';
  // One row of lists (one per column) converts to JS far faster than 100,000 row objects; the few distinct
  // LocPerilsCovered values travel once, each location holding the number of its value.
  const covers = `SELECT perils_covered, peril_codes, (row_number() OVER (ORDER BY perils_covered, peril_codes) - 1)::INTEGER AS k
    FROM (SELECT DISTINCT perils_covered, peril_codes FROM portfolio_locations WHERE portfolio_id = $id${inside})`;
  const dictionary = await (db as Store).all<{ perils_covered: string; peril_codes: string; k: number }>(
    `${covers} ORDER BY k`,
    { id },
  );
  const [c] = await (db as Store).all<Columns>(
    `WITH d AS (${covers})
     SELECT list(l.loc_number ORDER BY l.seq) AS loc_number, list(l.lat ORDER BY l.seq) AS lat, list(l.lng ORDER BY l.seq) AS lng,
            list(l.building_tiv ORDER BY l.seq) AS building_tiv, list(l.contents_tiv ORDER BY l.seq) AS contents_tiv,
            list(l.bi_tiv ORDER BY l.seq) AS bi_tiv, list(l.other_tiv ORDER BY l.seq) AS other_tiv, list(d.k ORDER BY l.seq) AS cover
       FROM portfolio_locations l JOIN d ON d.perils_covered = l.perils_covered AND d.peril_codes = l.peril_codes
      WHERE l.portfolio_id = $id${inside}`,
    { id },
  );
  for (const k of Object.keys(c) as (keyof Columns)[]) if (c[k] === null) (c[k] as unknown[]) = [];
  const n = c.lat.length;
  const maskOf = dictionary.map((d) => eventTypeMask(d.peril_codes.split(';')));
  const typeMask = new Int32Array(n);
  const perilsCovered = new Array<string>(n);
  const perilCodes = new Array<string>(n);
  for (let i = 0; i < n; i++) {
    const k = c.cover[i];
    typeMask[i] = maskOf[k];
    perilsCovered[i] = dictionary[k].perils_covered;
    perilCodes[i] = dictionary[k].peril_codes;
  }
  const lat = Float64Array.from(c.lat);
  const lng = Float64Array.from(c.lng);
  let tree: Flatbush | undefined;
  let bbox: [number, number, number, number] | undefined;
  if (n > 0) {
    tree = new Flatbush(n);
    bbox = [Infinity, Infinity, -Infinity, -Infinity];
    for (let i = 0; i < n; i++) {
      tree.add(lng[i], lat[i], lng[i], lat[i]);
      if (lng[i] < bbox[0]) bbox[0] = lng[i];
      if (lat[i] < bbox[1]) bbox[1] = lat[i];
      if (lng[i] > bbox[2]) bbox[2] = lng[i];
      if (lat[i] > bbox[3]) bbox[3] = lat[i];
    }
    tree.finish();
  }
  const index: LocationIndex = {
    id,
    count: n,
    locNumber: c.loc_number,
    lat,
    lng,
    building: Float64Array.from(c.building_tiv),
    contents: Float64Array.from(c.contents_tiv),
    bi: Float64Array.from(c.bi_tiv),
    other: Float64Array.from(c.other_tiv),
    typeMask,
    perilsCovered,
    perilCodes,
    currency,
    tree,
    bbox,
  };
  if (n <= CACHE_LOCATIONS) {
    cache.set(key, index);
    cached += n;
    for (const [k, v] of cache) {
      if (cached <= CACHE_LOCATIONS) break;
      cache.delete(k);
      cached -= v.count;
    }
  }
  return index;
}

function emptyIndex(id: string, currency: string): LocationIndex {
  const none = new Float64Array(0);
  return {
    id,
    count: 0,
    locNumber: [],
    lat: none,
    lng: none,
    building: none,
    contents: none,
    bi: none,
    other: none,
    typeMask: new Int32Array(0),
    perilsCovered: [],
    perilCodes: [],
    currency,
    tree: undefined,
    bbox: undefined,
  };
}
