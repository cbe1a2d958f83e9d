/**
 * A page of events (or an event's rings) as columns: what the Arrow answer of /events/live, /events/nearby
 * and /events/{id}/rings is built from (src/columnar/event-table.ts). The JSON path makes it from a page's
 * features; the live index makes it from its entries (src/live-index/columns.ts), with no JSON between, so
 * an Arrow page costs about what its JSON does. Both give the same table: test/events-arrow.test.ts.
 */
export interface EventColumns {
  /**
   * Whose properties: an event's (`distance_km` too when `values` has it: nearby), a ring's, or a ring's as
   * an item of the OGC `rings` collection (with its event's type and title).
   */
  of: 'events' | 'rings' | 'ring-items';
  length: number;
  /**
   * Each property by its JSON name, one value a row: text as string or null, numbers as number (anything
   * else is null), booleans as boolean, times as milliseconds since the epoch (null: none). Text may come
   * already encoded (Utf8Column).
   */
  values: Record<string, ArrayLike<unknown> | Utf8Column>;
  /** Point geometries (events): longitude and latitude a row, the geometry being that point. */
  points?: { lng: ArrayLike<number>; lat: ArrayLike<number> };
  /** Other geometries (rings' polygons): WKB a row. */
  wkb?: Uint8Array[];
  /** The collection's own fields, for paging: they go into the schema's metadata. */
  numberMatched?: number;
  numberReturned?: number;
  timeStamp?: string;
  next?: string;
}

/** Text already as UTF-8, none null: row k's bytes are bytes[offsets[k], offsets[k + 1]). */
export interface Utf8Column {
  offsets: Int32Array;
  bytes: Uint8Array;
}

export const isUtf8Column = (v: ArrayLike<unknown> | Utf8Column): v is Utf8Column =>
  v instanceof Object && 'bytes' in v && v.bytes instanceof Uint8Array;
