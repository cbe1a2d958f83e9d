/**
 * Probability to trigger now on the stream (docs/stream.md, docs/basis-risk.md#probability-to-trigger-now):
 * each evaluation round stores, for every active hurricane wind or pressure trigger a live storm's ensemble
 * can reach, the share of members in which it fires (src/triggers/fire-probability.ts). After a store change
 * that can move them (a round, or a trigger created, paused or deleted: src/stream/store-change.ts) the feed
 * reads those rows and pushes `trigger.probability` to the trigger's account for each
 * (trigger, storm) whose probability is new or changed, with the members, the advisory or best track it came
 * from and the storm's provenance. A round that leaves the number as it was pushes nothing.
 */
import type { Store } from '../store/db.js';
import type { ChangeBody } from './messages.js';

interface ProbabilityRow {
  trigger_id: string;
  account: string;
  name: string;
  event_id: string;
  source_id: string;
  probability: number;
  members: number;
  members_firing: number;
  advisory: string;
  forecast: string;
  computed_at: string;
  source: string | null;
  source_url: string | null;
  ingested_at: string | null;
}

/** The stored probabilities of active triggers, by `trigger_id event_id`. */
export type ProbabilitySnapshot = Map<string, ProbabilityRow>;

const iso = (col: string) => `strftime(${col}, '%Y-%m-%dT%H:%M:%SZ')`;

export async function probabilitySnapshot(db: Store): Promise<ProbabilitySnapshot> {
  const rows = await db.all<ProbabilityRow>(
    `SELECT p.trigger_id, t.account, t.name, p.event_id::VARCHAR AS event_id, p.source_id, p.probability, p.members,
            p.members_firing, p.advisory, p.forecast, ${iso('p.computed_at')} AS computed_at,
            e.source, e.source_url, ${iso('e.ingested_at')} AS ingested_at
       FROM trigger_fire_probability p JOIN triggers t ON t.id = p.trigger_id AND t.status = 'active'
       LEFT JOIN events e ON e.id = p.event_id
      ORDER BY p.trigger_id, p.event_id`,
  );
  return new Map(
    rows.map((r) => [
      `${r.trigger_id} ${r.event_id}`,
      {
        ...r,
        probability: Number(r.probability),
        members: Number(r.members),
        members_firing: Number(r.members_firing),
      },
    ]),
  );
}

/** A `trigger.probability` for each (trigger, storm) whose probability is new since `before` or changed. */
export function diffProbabilities(
  before: ProbabilitySnapshot,
  after: ProbabilitySnapshot,
): { body: ChangeBody; account: string }[] {
  const out: { body: ChangeBody; account: string }[] = [];
  for (const [key, r] of after) {
    const was = before.get(key);
    if (was && was.probability === r.probability) continue;
    out.push({
      account: r.account,
      body: {
        type: 'trigger.probability',
        trigger_id: r.trigger_id,
        name: r.name,
        event_id: r.event_id,
        source_id: r.source_id,
        probability: r.probability,
        previous_probability: was ? was.probability : null,
        members: r.members,
        members_firing: r.members_firing,
        advisory: r.advisory,
        forecast: r.forecast,
        computed_at: r.computed_at,
        triggers_url: '/api/v1/triggers',
        source: r.source,
        source_url: r.source_url,
        ingested_at: r.ingested_at,
      },
    });
  }
  return out;
}
