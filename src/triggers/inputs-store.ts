/**
 * Reads what an evaluation round needs from the store: the live events of the triggers' perils (as of
 * now, the same status rules as /events/live) with their observations up to now, the stage readings of
 * gauges below flood categories (records not live) when a gauge trigger is active, and the values entered
 * by hand for the active triggers. Storm fixes are the stored wind_speed_kt / central_pressure_mb
 * observations of an NHC event (one pair per best-track or advisory fix).
 */
import type { EventType } from '../domain/event.js';
import type { Store } from '../store/db.js';
import { whereOf } from '../store/events-read.js';
import type { DuckDBValue } from '@duckdb/node-api';
import type { EnteredGroup, LiveEventInput } from './domain/evaluate-all.js';
import type { TrackFix } from './domain/track.js';

const iso = (col: string) => `strftime(${col}, '%Y-%m-%dT%H:%M:%SZ')`;
const READING_KINDS = ['magnitude', 'gauge_stage_ft', 'storm_surge_ft'] as const;
/** A fix's own size (the record's RMW and mean wind radii), read into its TrackFix for the wind profile. */
const SIZE_KINDS = ['radius_max_wind_nm', 'wind_radius_34kt_nm', 'wind_radius_50kt_nm', 'wind_radius_64kt_nm'] as const;
const RADIUS_KT: Record<string, 34 | 50 | 64> = {
  wind_radius_34kt_nm: 34,
  wind_radius_50kt_nm: 50,
  wind_radius_64kt_nm: 64,
};

interface ObsRow {
  event_id: string;
  kind: string;
  at: string;
  value: number;
  unit: string;
  lat: number | null;
  lng: number | null;
}

export async function liveEventInputs(
  db: Store,
  now: string,
  perils: EventType[],
  options: { gaugeReadings?: boolean } = {},
): Promise<LiveEventInput[]> {
  if (perils.length === 0) return [];
  const params: Record<string, DuckDBValue> = {};
  const where = whereOf({ now, statuses: ['active', 'monitoring'], eventTypes: perils }, params);
  const live = await inputsWhere(db, now, where.join(' AND '), params);
  if (!options.gaugeReadings) return live;
  // A gauge below the NWS action stage is no flood (its record is ended, off /events/live), but a gauge
  // trigger reads its gauge whatever the category: those records lend their stage readings only.
  const endedParams: Record<string, DuckDBValue> = {};
  const ended = whereOf({ now, statuses: ['ended'], eventTypes: ['flood'] }, endedParams);
  ended.push(`id IN (SELECT event_id FROM observations WHERE kind = 'gauge_stage_ft')`);
  const gauges = (await inputsWhere(db, now, ended.join(' AND '), endedParams)).map((e): LiveEventInput => ({
    ...e,
    fixes: [],
    readings: e.readings.gauge_stage_ft ? { gauge_stage_ft: e.readings.gauge_stage_ft } : {},
  }));
  return [...live, ...gauges].sort((a, b) => a.event_id.localeCompare(b.event_id));
}

async function inputsWhere(
  db: Store,
  now: string,
  where: string,
  params: Record<string, DuckDBValue>,
): Promise<LiveEventInput[]> {
  const events = await db.all<Omit<LiveEventInput, 'fixes' | 'readings'> & { lat: number; lng: number }>(
    `SELECT id::VARCHAR AS event_id, source, source_id, title, event_type, content_hash AS source_version, lat, lng FROM events WHERE ${where}`,
    params,
  );
  if (events.length === 0) return [];
  const obs = await eventObservations(db, now, `event_id IN (SELECT id FROM events WHERE ${where})`, params);
  const byEvent = groupObservations(obs);
  return events
    .map((e) => ({ ...e, ...(byEvent.get(e.event_id) ?? { fixes: [], readings: {} }) }))
    .sort((a, b) => a.event_id.localeCompare(b.event_id));
}

/** The observations of one event up to `until` (verify re-reads the inputs an entry was computed from). */
export async function eventInputsOf(
  db: Store,
  eventId: string,
  until: string,
): Promise<Pick<LiveEventInput, 'fixes' | 'readings'>> {
  const obs = await eventObservations(db, until, 'event_id = $eid::UUID', { eid: eventId });
  return groupObservations(obs).get(eventId) ?? { fixes: [], readings: {} };
}

async function eventObservations(
  db: Store,
  now: string,
  filter: string,
  params: Record<string, DuckDBValue>,
): Promise<ObsRow[]> {
  return db.all<ObsRow>(
    `SELECT event_id::VARCHAR AS event_id, kind, ${iso('observed_at')} AS at, value, unit, lat, lng FROM observations
      WHERE ${filter} AND observed_at <= $obsNow::TIMESTAMP
        AND kind IN ('wind_speed_kt', 'central_pressure_mb', ${SIZE_KINDS.map((k) => `'${k}'`).join(', ')}, 'magnitude', 'gauge_stage_ft', 'storm_surge_ft')`,
    { ...params, obsNow: now },
  );
}

function groupObservations(rows: ObsRow[]): Map<string, Pick<LiveEventInput, 'fixes' | 'readings'>> {
  const out = new Map<string, Pick<LiveEventInput, 'fixes' | 'readings'>>();
  const fixesBy = new Map<string, Map<string, TrackFix>>();
  for (const r of rows) {
    let g = out.get(r.event_id);
    if (!g) out.set(r.event_id, (g = { fixes: [], readings: {} }));
    if (
      r.kind === 'wind_speed_kt' ||
      r.kind === 'central_pressure_mb' ||
      (SIZE_KINDS as readonly string[]).includes(r.kind)
    ) {
      if (r.lat === null || r.lng === null) continue;
      let m = fixesBy.get(r.event_id);
      if (!m) fixesBy.set(r.event_id, (m = new Map()));
      const f: TrackFix = m.get(r.at) ?? { at: r.at, lat: r.lat, lng: r.lng, windKt: 0, pressureMb: null };
      if (r.kind === 'wind_speed_kt') f.windKt = r.value;
      else if (r.kind === 'central_pressure_mb') f.pressureMb = r.value;
      else if (r.kind === 'radius_max_wind_nm') f.rmwNm = r.value;
      else (f.radiiNm ??= {})[RADIUS_KT[r.kind]] = r.value;
      m.set(r.at, f);
    } else if ((READING_KINDS as readonly string[]).includes(r.kind) && r.lat !== null && r.lng !== null) {
      const kind = r.kind as (typeof READING_KINDS)[number];
      (g.readings[kind] ??= []).push({ at: r.at, value: r.value, unit: r.unit, lat: r.lat, lng: r.lng });
    }
  }
  for (const [id, m] of fixesBy) out.get(id)!.fixes = [...m.values()].sort((a, b) => a.at.localeCompare(b.at));
  for (const g of out.values())
    for (const list of Object.values(g.readings)) list!.sort((a, b) => a.at.localeCompare(b.at) || a.value - b.value);
  return out;
}

/** Values entered for these triggers up to now, grouped by trigger and by the event (or source) they name. */
export async function enteredInputs(db: Store, now: string): Promise<Map<string, EnteredGroup[]>> {
  const rows = await db.all<{
    id: string;
    seq: number;
    trigger_id: string;
    event_id: string | null;
    event_ref: string | null;
    value: number;
    unit: string;
    source: string;
    at: string;
  }>(
    `SELECT o.id, o.seq, o.trigger_id, o.event_id, o.event_ref, o.value, o.unit, o.source, ${iso('o.observed_at')} AS at FROM trigger_observations o
      JOIN triggers t ON t.id = o.trigger_id WHERE t.status = 'active' AND o.entered_at <= $now::TIMESTAMP AND o.observed_at <= $now::TIMESTAMP`,
    { now },
  );
  const out = new Map<string, EnteredGroup[]>();
  for (const r of rows) {
    // One series per event: ours when linked, else as the reporter named it; unnamed values form one series.
    const key = r.event_id ?? (r.event_ref !== null ? `ref:${r.event_ref}` : 'entered');
    const groups = out.get(r.trigger_id) ?? [];
    out.set(r.trigger_id, groups);
    let g = groups.find((x) => x.event_key === key);
    if (!g) groups.push((g = { event_key: key, event_id: r.event_id, source: r.source, readings: [] }));
    g.readings.push({ id: r.id, seq: r.seq, at: r.at, value: r.value, unit: r.unit, source: r.source });
  }
  for (const groups of out.values()) {
    groups.sort((a, b) => a.event_key.localeCompare(b.event_key));
    for (const g of groups) g.readings.sort((a, b) => a.at.localeCompare(b.at) || a.seq - b.seq);
  }
  return out;
}
