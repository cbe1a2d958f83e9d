/**
 * One event of the in-memory live index: its lifecycle instants (µs since epoch, as DuckDB's epoch_us) and its
 * JSON prebuilt. A feature's bytes depend on "now" only through `status`, `ended_at` and `upcoming`, so the
 * JSON is kept as the text between those three values and assembled per request; nothing is serialised
 * twice. The text is produced by the same eventFeature() the SQL path uses, so both give identical bytes.
 */
import { eventDetailFeature, eventFeature, type EventLike } from '../domain/features.js';
import type { EventStatus } from '../domain/event.js';
import type { ObservationRow } from '../store/events-read.js';

/** A row as src/live-index/load.ts reads it: the SQL path's EventRow columns that do not depend on now. */
export interface IndexRow extends Omit<EventLike, 'status' | 'ended_at' | 'upcoming'> {
  source_id: string;
  source_key: string; // lower(source_id), computed by DuckDB so that case folding matches the SQL lookup
  ids: string[] | null; // CAST(json_extract(details, '$.ids') AS VARCHAR[]), as the SQL lookup reads it
  monitoring_from: string | null;
  ended_at_iso: string | null;
  details: string;
  started_us: number;
  updated_us: number;
  monitoring_us: number | null;
  ended_us: number | null;
}

/** An observation as /events/{id} lists it (the store's row). */
export type ObservationJson = ObservationRow;

/** Text around the three now-dependent values: p0 STATUS p1 ENDED_AT p2 UPCOMING p3. */
type Parts = [string, string, string, string];

export interface Entry {
  id: string;
  slug: string;
  eventType: string;
  source: string;
  lat: number;
  lng: number;
  startedUs: number;
  updatedUs: number;
  monitoringUs: number | null;
  endedUs: number | null;
  endedIso: string | null;
  sourceKey: string;
  ids: string[];
  /** greatest(started, updated): the sort key once both instants have passed (LAST_CHANGED_SQL). */
  staticKeyUs: number;
  feature: Parts;
  show: Parts;
  /** Feature bytes up to the closing `}}`, per (status, upcoming), made on first use; only while ended_at is null. */
  open: (Buffer | undefined)[];
  /** The /events/{id} body per (status, upcoming), made on first use; only while ended_at is null. */
  shown: (Buffer | undefined)[];
  /** Unique in this process: with the slot, it names the bytes of openFeature() (ETags of collections, render.ts). */
  serial: number;
  /** The properties that do not depend on now, for a page's columns (columns.ts): times in ms since the epoch. */
  values: StaticValues;
}

export interface StaticValues {
  title: string;
  severity: number;
  severityLabel: string;
  sourceUrl: string;
  confidence: number;
  /** Date.parse() of the ISO texts the JSON shows, so that both forms hold the same instants. */
  startedMs: number;
  updatedMs: number;
  ingestedMs: number;
  endedMs: number | null;
}

let serials = 0;

// Strings no data can produce once JSON-encoded: a raw U+0001 is always escaped, so its escaped form
// inside quotes can come only from these markers.
const M_STATUS = '\u0001status\u0001';
const M_ENDED = '\u0001ended\u0001';
const M_UP = '\u0001upcoming\u0001';

function partsOf(json: string): Parts {
  const [a, rest1] = splitOnce(json, JSON.stringify(M_STATUS));
  const [b, rest2] = splitOnce(rest1, JSON.stringify(M_ENDED));
  const [c, d] = splitOnce(rest2, JSON.stringify(M_UP));
  return [a, b, c, d];
}

function splitOnce(s: string, marker: string): [string, string] {
  const i = s.indexOf(marker);
  if (i < 0 || s.indexOf(marker, i + 1) >= 0)
    throw new Error('live index: feature template marker not found exactly once');
  return [s.slice(0, i), s.slice(i + marker.length)];
}

export function entryOf(row: IndexRow, observations: ObservationJson[], ringCount: number): Entry {
  const marked = { ...row, status: M_STATUS, ended_at: M_ENDED, upcoming: M_UP as unknown as boolean };
  const feature = eventFeature(marked);
  // The same shape as the SQL path's events.show body (src/handlers/events.ts), key for key.
  const show = eventDetailFeature(feature, row, ringCount, observations);

  return {
    id: row.id,
    slug: row.slug,
    eventType: row.event_type,
    source: row.source,
    lat: row.lat,
    lng: row.lng,
    startedUs: row.started_us,
    updatedUs: row.updated_us,
    monitoringUs: row.monitoring_us,
    endedUs: row.ended_us,
    endedIso: row.ended_at_iso,
    sourceKey: row.source_key,
    ids: row.ids ?? [],
    staticKeyUs: Math.max(row.started_us, row.updated_us),
    feature: partsOf(JSON.stringify(feature)),
    show: partsOf(JSON.stringify(show)),
    open: [],
    shown: [],
    serial: ++serials,
    values: {
      title: row.title,
      severity: row.severity,
      severityLabel: row.severity_label,
      sourceUrl: row.source_url,
      confidence: row.confidence_score,
      startedMs: Date.parse(row.started_at),
      updatedMs: Date.parse(row.updated_at),
      ingestedMs: Date.parse(row.ingested_at),
      endedMs: row.ended_at_iso === null ? null : Date.parse(row.ended_at_iso),
    },
  };
}

/** The event as of now: what the SQL path derives with STATUS_SQL, the ended_at CASE and `started_at > now`. */
export interface AsOf {
  status: EventStatus;
  endedAt: string | null;
  upcoming: boolean;
}

export function asOf(e: Entry, nowUs: number): AsOf {
  const upcoming = e.startedUs > nowUs;
  if (e.endedUs !== null && e.endedUs <= nowUs) return { status: 'ended', endedAt: e.endedIso, upcoming };
  // Not ended: one of four shared, frozen values (a page of a hundred events allocates none).
  return e.monitoringUs !== null && e.monitoringUs <= nowUs
    ? upcoming
      ? MONITORING_UPCOMING
      : MONITORING
    : upcoming
      ? ACTIVE_UPCOMING
      : ACTIVE;
}

const ACTIVE: AsOf = Object.freeze({ status: 'active', endedAt: null, upcoming: false });
const ACTIVE_UPCOMING: AsOf = Object.freeze({ status: 'active', endedAt: null, upcoming: true });
const MONITORING: AsOf = Object.freeze({ status: 'monitoring', endedAt: null, upcoming: false });
const MONITORING_UPCOMING: AsOf = Object.freeze({ status: 'monitoring', endedAt: null, upcoming: true });

function fill(p: Parts, a: AsOf, close: string): string {
  return p[0] + JSON.stringify(a.status) + p[1] + JSON.stringify(a.endedAt) + p[2] + String(a.upcoming) + close;
}

/**
 * Which of the feature's variants `a` is, 0-7: (status, upcoming), plus 8 when ended_at is set (then the
 * entry's one ended_at). With the entry, it determines the feature's bytes.
 */
export function slotOf(a: AsOf): number {
  return (
    (a.status === 'monitoring' ? 2 : a.status === 'active' ? 0 : 4) +
    (a.upcoming ? 1 : 0) +
    (a.endedAt === null ? 0 : 8)
  );
}

/** Where layOutFeatures() put each feature, by position: arena[at, at + length) is its `open` bytes in the variant `slot`. */
export interface Layout {
  /** A plain Uint8Array over the bytes: its subarray() is a builtin, where a Buffer's builds a FastBuffer (render.ts copies a subarray per feature). */
  arena: Uint8Array;
  at: Int32Array;
  length: Int32Array;
  /** slotOf() of the variant laid out; NOT_LAID_OUT for an event ended at the build. */
  slot: Uint8Array;
}

const NOT_LAID_OUT = 255;

/**
 * Lays out the features of `entries`, in their order, in one buffer, each in its variant at `nowUs` (the
 * snapshot's build) and followed by the `}},` that closes it within a list: a page of neighbouring events then
 * copies from neighbouring memory, not from bytes scattered over the heap, and a run of features that follow
 * one another here copies in one go, separators included (render.ts). Variants made later (as now moves on)
 * are made one by one, as before.
 */
export function layOutFeatures(entries: Entry[], nowUs: number): Layout {
  const n = entries.length;
  const texts: string[] = new Array(n);
  const layout = { at: new Int32Array(n), length: new Int32Array(n), slot: new Uint8Array(n).fill(NOT_LAID_OUT) };
  let size = 0;
  entries.forEach((e, i) => {
    const a = asOf(e, nowUs);
    if (a.endedAt !== null) return;
    texts[i] = fill(e.feature, a, FEATURE_SEPARATOR);
    size += Buffer.byteLength(texts[i]);
  });
  const arena = Buffer.allocUnsafeSlow(size);
  let at = 0;
  entries.forEach((e, i) => {
    if (texts[i] === undefined) return;
    const written = arena.write(texts[i], at);
    const slot = slotOf(asOf(e, nowUs));
    e.open[slot] = arena.subarray(at, at + written - FEATURE_SEPARATOR.length);
    layout.at[i] = at;
    layout.length[i] = written - FEATURE_SEPARATOR.length;
    layout.slot[i] = slot;
    at += written;
  });
  return { arena: new Uint8Array(arena.buffer, arena.byteOffset, arena.length), ...layout };
}

/** What follows a feature's open bytes within a list when another feature comes next. */
export const FEATURE_SEPARATOR = '}},';

/** The feature's bytes without its closing `}}` (so that distance_km can be added before it). */
export function openFeature(e: Entry, a: AsOf): Buffer {
  if (a.endedAt !== null) return Buffer.from(fill(e.feature, a, ''));
  return (e.open[slotOf(a)] ??= Buffer.from(fill(e.feature, a, '')));
}

export function showJson(e: Entry, a: AsOf): string {
  return fill(e.show, a, e.show[3]);
}

/** The /events/{id} bytes, kept once made while ended_at is null (the same Buffer for every request). */
export function showFeature(e: Entry, a: AsOf): Buffer {
  if (a.endedAt !== null) return Buffer.from(showJson(e, a));
  return (e.shown[slotOf(a)] ??= Buffer.from(showJson(e, a)));
}
