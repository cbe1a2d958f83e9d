/**
 * One event, several feeds of the same source: WFIGS publishes an incident's point (with its reported
 * size) and its mapped perimeter as separate layers; NHC publishes a storm's wind radii (advisories,
 * b-deck) and its forecast cone (GIS zip) separately. Each record draws only the ring kinds its feed
 * speaks for, so a new version of the event takes the rings of those kinds from the record and keeps
 * the event's other rings (docs/rings-alerts-fire-flood.md, "One event, several feeds"):
 *
 * - kinds the record does not speak for are kept as they are (a b-deck keeps the cone, a cone keeps the
 *   wind radii);
 * - an estimate (`Ring.estimate`: a stand-in we draw because the record carries no geometry, e.g. a fire
 *   drawn as a circle of its reported size) never replaces what a source drew itself for the same kind
 *   (the mapped perimeter); the record's attributes still update the event;
 * - an older record is not a new version of the event, but may still bring the source's own geometry
 *   for a kind the event only has estimates of (a perimeter mapped before the point's last update);
 * - the store (src/store/events-write.ts) takes a record of the same update time as the held version only
 *   when it changes the rings, so re-ingesting either feed changes nothing.
 * Pure.
 */
import type { Ring, RingInput } from '../event.js';
import { bboxOf } from '../../lib/geo.js';

/** The ring kinds each input speaks for, whether or not it draws any (a 30-kt fix has no wind rings). */
const KINDS: Record<Exclude<RingInput['kind'], 'polygon' | 'none'>, readonly string[]> = {
  earthquake: ['mmi'],
  hurricane: ['wind_kt'],
  wildfire: ['fire_perimeter', 'ember_zone'],
  gauge: ['flood_reach'],
};

/** The kinds a record speaks for; 'all' for an input that says the event has no rings at all. */
export function ringKindsOf(input: RingInput, drawn: readonly Ring[]): ReadonlySet<string> | 'all' {
  if (input.kind === 'none') return 'all';
  const own = input.kind === 'polygon' ? [input.ringKind ?? 'alert_area'] : KINDS[input.kind];
  return new Set([...own, ...drawn.map((r) => r.kind)]);
}

/**
 * The rings of the event after a record arrives. `newer`: the record is a new version of the event (its
 * update time is not before the held one's). Returns null when the held rings stand unchanged (an older
 * record that brings nothing better).
 */
export function mergeRings(
  held: readonly Ring[],
  incoming: readonly Ring[],
  spoken: ReadonlySet<string> | 'all',
  newer: boolean,
): Ring[] | null {
  if (held.length === 0) return newer ? [...incoming] : null;
  if (spoken === 'all') return newer ? [...incoming] : null;
  const kinds = [...new Set([...incoming.map((r) => r.kind), ...held.map((r) => r.kind), ...spoken])];
  const groups: Ring[][] = [];
  let changed = false;
  let keptHeld = false;
  for (const kind of kinds) {
    const mine = held.filter((r) => r.kind === kind);
    const theirs = incoming.filter((r) => r.kind === kind);
    let take: 'held' | 'incoming';
    if (!spoken.has(kind)) take = 'held';
    else if (newer) take = isEstimateOnly(theirs) && hasSourceGeometry(mine) ? 'held' : 'incoming';
    else take = hasSourceGeometry(theirs) && isEstimateOnly(mine) ? 'incoming' : 'held';
    if (take === 'incoming') changed = true;
    else if (mine.length > 0) keptHeld = true;
    const group = take === 'held' ? mine : theirs;
    if (group.length > 0) groups.push(group);
  }
  if (!newer && !changed) return null;
  if (newer && !keptHeld) return [...incoming]; // nothing kept: the builder's own order stands
  // Keep each feed's own order inside its group (innermost first); the groups go outermost last.
  return groups.sort((a, b) => extent(a) - extent(b)).flat();
}

/** Same rings, same order: nothing for the store to rewrite. */
export function sameRings(a: readonly Ring[], b: readonly Ring[]): boolean {
  const key = (r: Ring) =>
    JSON.stringify([r.kind, r.label, r.threshold, r.unit, r.radiusKm, r.estimate === true, r.geometry]);
  return a.length === b.length && a.every((r, i) => key(r) === key(b[i]));
}

const isEstimateOnly = (rings: readonly Ring[]) => rings.length > 0 && rings.every((r) => r.estimate === true);
const hasSourceGeometry = (rings: readonly Ring[]) => rings.some((r) => r.estimate !== true);

/** The largest bbox (degrees², longitude shrunk by the cosine of latitude) among a group's rings. */
function extent(rings: readonly Ring[]): number {
  let max = 0;
  for (const r of rings) {
    const [w, s, e, n] = bboxOf(r.geometry.coordinates);
    const area = (e - w) * (n - s) * Math.cos((((s + n) / 2) * Math.PI) / 180);
    if (area > max) max = area;
  }
  return max;
}
