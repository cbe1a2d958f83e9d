/** Stable identifiers: UUIDv5 per (source, source id), and URL-safe slugs. */
import { v5 as uuidv5 } from 'uuid';

/** catintel's own UUIDv5 namespace (a fixed random UUID); changing it would change every event id. */
const NAMESPACE = '3f1c5e0a-8a41-4b8e-9a0c-6f2d1b7e4c55';

export function eventIdOf(source: string, sourceId: string): string {
  return uuidv5(`${source}:${sourceId}`, NAMESPACE);
}

export function ringIdOf(eventId: string, ordinal: number): string {
  return uuidv5(`${eventId}:ring:${ordinal}`, NAMESPACE);
}

export function runIdOf(source: string, startedAt: string, salt: string): string {
  return uuidv5(`${source}:run:${startedAt}:${salt}`, NAMESPACE);
}

/**
 * "M 4.5 - 10km NE of Ridgecrest, CA" on 2020-07-01 -> "m-4-5-10km-ne-of-ridgecrest-ca-2020-07-01-1a2b3c".
 * Titles repeat (two M1.2 quakes at the same place on one day), so hex digits of the event's UUID end the
 * slug while the readable part stays derived from title and date. Six digits tell apart all but about one
 * pair in 16.7 million of the same title and date; the store gives such a pair's second event a longer
 * form (slugCandidates), so no two events ever share a slug.
 */
export function slugOf(title: string, startedAtIso: string, eventId: string, hexDigits = 6): string {
  const words = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
    .replace(/-+$/, '');
  return `${words || 'event'}-${startedAtIso.slice(0, 10)}-${eventId.replace(/-/g, '').slice(0, hexDigits)}`;
}

/**
 * The slugs a new event may take, first choice first: six hex digits of its UUID, then all 32 (unique,
 * as the UUID is the events table's primary key), then the bare UUID, which no title-and-date slug can
 * spell (its groups are 8-4-4-4-12 digits; a slug carries a 4-2-2 date). Each event takes the first one
 * free, so slugs stay short and readable and never collide, and an event keeps the slug it was given.
 */
export function slugCandidates(title: string, startedAtIso: string, eventId: string): string[] {
  return [slugOf(title, startedAtIso, eventId, 6), slugOf(title, startedAtIso, eventId, 32), eventId.toLowerCase()];
}

export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
