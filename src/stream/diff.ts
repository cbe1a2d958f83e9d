/**
 * Two live sets -> the changes between them, in a stable order (ended, then new, updated, rings; each by
 * event id), so two servers diffing the same snapshots say the same thing.
 */
import type { ChangeBody, EventFeature } from './messages.js';
import type { LiveSnapshot } from './snapshot.js';

export interface Diffed {
  body: ChangeBody;
  subject?: EventFeature;
  account?: string;
}

const API = '/api/v1';

export function diffLive(
  before: LiveSnapshot,
  after: LiveSnapshot,
  endedFeature: (f: EventFeature) => EventFeature,
): Diffed[] {
  const out: Diffed[] = [];
  const byId = (m: LiveSnapshot) => [...m.keys()].sort();
  for (const id of byId(before)) {
    if (after.has(id)) continue;
    const event = endedFeature(before.get(id)!.feature);
    out.push({ body: { type: 'event.ended', event }, subject: event });
  }
  const rings: Diffed[] = [];
  for (const id of byId(after)) {
    const now = after.get(id)!;
    const was = before.get(id);
    if (!was) out.push({ body: { type: 'event.new', event: now.feature }, subject: now.feature });
    else if (was.key !== now.key)
      out.push({ body: { type: 'event.updated', event: now.feature }, subject: now.feature });
    // A new event's rings arrive with it; a ring message only says what changed on a known event.
    if (was && was.ringsKey !== now.ringsKey) {
      const p = now.feature.properties;
      rings.push({
        body: {
          type: 'rings.changed',
          event_id: p.id,
          slug: p.slug,
          rings: now.rings,
          rings_url: `${API}/events/${p.id}/rings`,
        },
        subject: now.feature,
      });
    }
  }
  return [...out, ...rings];
}
