/**
 * Probability to trigger now, computed in each evaluation round (src/triggers/run.ts) for every live
 * hurricane and every active wind or pressure trigger its ensemble can reach: the storm's ensemble (the
 * observed track and ENSEMBLE_MEMBERS perturbations of its remaining forecast, src/event-loss/
 * hurricane-ensemble.ts, the same members a live loss band runs) read by each trigger's own rule
 * (domain/ensemble-fire.ts), with the advisory or best track it came from. Stored, one row per (trigger,
 * storm), replaced each round; GET /triggers reads them (docs/basis-risk.md#probability-to-trigger-now).
 */
import type { Store, Tx } from '../store/db.js';
import { cols, insertRows } from '../store/bulk.js';
import { WINDING_TYPES } from '../sources/nhc-common.js';
import type { LiveEventInput } from './domain/evaluate-all.js';
import { fireShare, memberFixes, type FireShare } from './domain/ensemble-fire.js';
import { eventDetails } from '../domain/event-details.js';
import { stormProductVersion } from '../domain/product-version.js';
import { forecastPointsOf } from '../event-loss/forecast-points.js';
import type { TriggerSpec } from './domain/types.js';

/** Members of a storm's ensemble (the default of `portfolio event-loss`) and its seed: same advisory, same answer. */
const ENSEMBLE_MEMBERS = 50;
const ENSEMBLE_SEED = 1;
const KM_PER_DEG_LAT = 111.2;

export interface FireProbability {
  trigger_id: string;
  event_id: string;
  source_id: string;
  /** The event record's content hash the ensemble was made from. */
  source_version: string;
  probability: number;
  members: number;
  members_firing: number;
  /** The product the ensemble came from: `NHC advisory N issued T`, or `best track through T (n fixes)`. */
  advisory: string;
  forecast: 'nhc' | 'persistence' | 'none';
  computed_at: string;
}

interface StormRow {
  id: string;
  details: string;
}

export async function fireProbabilities(
  db: Store,
  now: string,
  triggers: readonly TriggerSpec[],
  events: readonly LiveEventInput[],
  radiusScale: number,
): Promise<FireProbability[]> {
  const watching = triggers.filter(
    (t) =>
      t.peril === 'hurricane' && (t.threshold_type === 'wind_speed_kt' || t.threshold_type === 'central_pressure_mb'),
  );
  const storms = events.filter((e) => e.event_type === 'hurricane' && e.fixes.length > 0);
  if (watching.length === 0 || storms.length === 0) return [];
  const rows = await db.all<StormRow>(
    `SELECT id::VARCHAR AS id, details FROM events WHERE id::VARCHAR IN (${storms.map((_, i) => `$e${i}`).join(', ')})`,
    Object.fromEntries(storms.map((e, i) => [`e${i}`, e.event_id])),
  );
  const rowOf = new Map(rows.map((r) => [r.id, r]));
  const [{ stormEnsemble }, { landGrid }] = await Promise.all([
    import('../event-loss/hurricane-ensemble.js'),
    import('../models/hurricane/land-grid.js'),
  ]);
  const out: FireProbability[] = [];
  for (const e of storms) {
    const row = rowOf.get(e.event_id);
    if (!row) continue;
    const d = eventDetails(row.details);
    const latestMs = Date.parse(e.fixes[e.fixes.length - 1].at);
    // The storms are live (evaluate-all's events); one no longer tropical has no rest to forecast: every member is its observed track.
    const over = WINDING_TYPES.has(String(d.classification ?? ''));
    const ens = stormEnsemble(
      e.fixes.map((f) => ({ ...f, rmwNm: f.rmwNm ?? null })),
      forecastPointsOf(d, latestMs),
      { members: ENSEMBLE_MEMBERS, seed: ENSEMBLE_SEED, grid: landGrid(), forecast: !over },
    );
    const members = ens.members.map((m) => memberFixes(e.fixes, m));
    let [south, north, west, east] = [Infinity, -Infinity, Infinity, -Infinity];
    for (const fixes of members)
      for (const f of fixes) {
        south = Math.min(south, f.lat);
        north = Math.max(north, f.lat);
        west = Math.min(west, f.lng);
        east = Math.max(east, f.lng);
      }
    // Triggers of the same rule at the same site (an account's copies of one trigger) read the members alike:
    // the share is pure in the rule, so each distinct rule walks the ensemble once a storm.
    const shares = new Map<string, FireShare>();
    for (const t of watching) {
      // Only positions within radius_km count: a trigger whose circle no member's box reaches is left out.
      const dLat = t.radius_km / KM_PER_DEG_LAT;
      const dLng = dLat / Math.max(0.01, Math.cos((Math.min(89, Math.abs(t.lat) + dLat) * Math.PI) / 180));
      if (t.lat + dLat < south || t.lat - dLat > north || t.lng + dLng < west || t.lng - dLng > east) continue;
      const rule = ruleKey(t);
      let share = shares.get(rule);
      if (!share) shares.set(rule, (share = fireShare(t, members, radiusScale)));
      out.push({
        trigger_id: t.id,
        event_id: e.event_id,
        source_id: e.source_id,
        source_version: e.source_version,
        probability: Math.round(share.probability * 1000) / 1000,
        members: share.members,
        members_firing: share.firing,
        advisory: stormProductVersion(
          d,
          e.fixes.map((f) => f.at),
        ),
        forecast: ens.forecast,
        computed_at: now,
      });
    }
  }
  return out;
}

/** What fireShare reads of a trigger (domain/rules.ts TriggerCriteria). */
const ruleKey = (t: TriggerSpec) =>
  JSON.stringify([t.lat, t.lng, t.radius_km, t.threshold_type, t.threshold_value, t.alert_at_pct]);

/** The columns of trigger_fire_probability, in the order of FireProbability's fields as stored. */
const PROBABILITY_COLS =
  cols(`trigger_id, event_id:UUID, source_id, source_version, probability:DOUBLE, members:INTEGER,
  members_firing:INTEGER, advisory, forecast, computed_at:TIMESTAMP`);

/**
 * The round's probabilities replace the last round's (a storm no longer live leaves none). Appended in one
 * batch (src/store/bulk.ts): a statement a row took most of a round over a thousand triggers.
 */
export async function replaceFireProbabilities(tx: Tx, rows: readonly FireProbability[]): Promise<void> {
  await tx.run('DELETE FROM trigger_fire_probability');
  await insertRows(
    tx,
    'trigger_fire_probability',
    PROBABILITY_COLS,
    rows.map((r) => PROBABILITY_COLS.map((c) => r[c.name as keyof FireProbability])),
  );
}

/** The stored probabilities of these triggers, highest first per trigger. */
export async function fireProbabilitiesOf(
  db: Store,
  triggerIds: readonly string[],
): Promise<Map<string, Omit<FireProbability, 'trigger_id' | 'source_version'>[]>> {
  const out = new Map<string, Omit<FireProbability, 'trigger_id' | 'source_version'>[]>();
  if (triggerIds.length === 0) return out;
  const rows = await db.all<FireProbability>(
    `SELECT trigger_id, event_id::VARCHAR AS event_id, source_id, source_version, probability, members, members_firing, advisory, forecast,
       strftime(computed_at, '%Y-%m-%dT%H:%M:%SZ') AS computed_at
     FROM trigger_fire_probability WHERE trigger_id IN (${triggerIds.map((_, i) => `$t${i}`).join(', ')})
     ORDER BY trigger_id, probability DESC, event_id`,
    Object.fromEntries(triggerIds.map((id, i) => [`t${i}`, id])),
  );
  for (const r of rows) {
    const { trigger_id, source_version: _v, ...rest } = r;
    void _v;
    out.set(trigger_id, [
      ...(out.get(trigger_id) ?? []),
      { ...rest, members: Number(rest.members), members_firing: Number(rest.members_firing) },
    ]);
  }
  return out;
}
