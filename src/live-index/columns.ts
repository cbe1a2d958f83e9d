/**
 * A page of hits as columns (src/domain/event-columns.ts), for its Arrow form: read from the entries'
 * values and the snapshot's coordinates, what depends on now (status, ended_at, upcoming) from asOf(), as
 * render.ts writes them into the JSON. No JSON is made or parsed: converting the page's JSON cost about ten
 * times the JSON itself (docs/arrow.md, "Memory and speed").
 */
import type { EventColumns, Utf8Column } from '../domain/event-columns.js';
import { asOf, type Entry } from './entry.js';
import { entryAt, type Snapshot } from './snapshot.js';

/** The texts that do not depend on now, by their JSON names, as the entry holds them. */
const TEXTS: Record<string, (e: Entry) => string> = {
  id: (e) => e.id,
  title: (e) => e.values.title,
  event_type: (e) => e.eventType,
  severity_label: (e) => e.values.severityLabel,
  source: (e) => e.source,
  source_url: (e) => e.values.sourceUrl,
  slug: (e) => e.slug,
};

/**
 * Each of TEXTS over every position of a snapshot, as UTF-8 in one buffer: made on the first Arrow page
 * asked of the snapshot (a server that answers only JSON never pays it); a page then copies its rows' bytes,
 * a run of neighbouring positions at once (a page of /events/live is mostly one run), instead of encoding
 * a thousand strings.
 */
const textsOf = new WeakMap<Snapshot, Record<string, Utf8Column>>();

function snapshotTexts(s: Snapshot): Record<string, Utf8Column> {
  let texts = textsOf.get(s);
  if (texts) return texts;
  const n = s.main.length + s.side.length;
  texts = {};
  for (const [name, of] of Object.entries(TEXTS)) {
    const strings = Array.from({ length: n }, (_, i) => of(entryAt(s, i)));
    const offsets = new Int32Array(n + 1);
    strings.forEach((t, i) => (offsets[i + 1] = offsets[i] + Buffer.byteLength(t)));
    const bytes = Buffer.alloc(offsets[n]);
    strings.forEach((t, i) => bytes.write(t, offsets[i], 'utf8'));
    texts[name] = { offsets, bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length) };
  }
  textsOf.set(s, texts);
  return texts;
}

/** The rows at `positions` (the first n) of an encoded column. */
function gather(col: Utf8Column, positions: ArrayLike<number>, n: number): Utf8Column {
  const offsets = new Int32Array(n + 1);
  let total = 0;
  for (let k = 0; k < n; k++) offsets[k + 1] = total += col.offsets[positions[k] + 1] - col.offsets[positions[k]];
  const bytes = new Uint8Array(total);
  for (let k = 0; k < n;) {
    let j = k;
    while (j + 1 < n && positions[j + 1] === positions[j] + 1) j++;
    bytes.set(col.bytes.subarray(col.offsets[positions[k]], col.offsets[positions[j] + 1]), offsets[k]);
    k = j + 1;
  }
  return { offsets, bytes };
}

export function pageColumns(
  s: Snapshot,
  nowUs: number,
  positions: ArrayLike<number>,
  n: number,
  distancesKm: ArrayLike<number> | undefined,
  o: { matched: number; now: string; next?: string },
): EventColumns {
  const number = () => new Float64Array(n);
  const [severity, confidence, startedAt, updatedAt, ingestedAt, lng, lat] = [0, 1, 2, 3, 4, 5, 6].map(number);
  const status = new Array<string>(n);
  const endedAt = new Array<number | null>(n);
  const upcoming = new Array<boolean>(n);
  for (let k = 0; k < n; k++) {
    const i = positions[k];
    const e = entryAt(s, i);
    const v = e.values;
    const a = asOf(e, nowUs);
    severity[k] = v.severity;
    status[k] = a.status;
    startedAt[k] = v.startedMs;
    endedAt[k] = a.endedAt === null ? null : v.endedMs;
    updatedAt[k] = v.updatedMs;
    ingestedAt[k] = v.ingestedMs;
    confidence[k] = v.confidence;
    upcoming[k] = a.upcoming;
    lng[k] = s.cols.lng[i];
    lat[k] = s.cols.lat[i];
  }
  const texts = snapshotTexts(s);
  const text = (name: string) => gather(texts[name], positions, n);
  // In the JSON's order (eventFeature()).
  const values: EventColumns['values'] = {
    id: text('id'),
    title: text('title'),
    event_type: text('event_type'),
    severity,
    severity_label: text('severity_label'),
    status,
    started_at: startedAt,
    ended_at: endedAt,
    updated_at: updatedAt,
    ingested_at: ingestedAt,
    source: text('source'),
    source_url: text('source_url'),
    confidence_score: confidence,
    slug: text('slug'),
    upcoming,
  };
  // As the JSON rounds it (eventFeature(), render.ts writeKm()): to the hundredth.
  if (distancesKm)
    values.distance_km = Float64Array.from({ length: n }, (_, k) => Math.round(distancesKm[k] * 100) / 100);
  return {
    of: 'events',
    length: n,
    values,
    points: { lng, lat },
    numberMatched: o.matched,
    numberReturned: n,
    timeStamp: o.now,
    next: o.next,
  };
}
