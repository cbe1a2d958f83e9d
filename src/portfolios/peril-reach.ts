/**
 * Which of an event's OED peril codes reach a portfolio location inside one of its rings. A location counts
 * for an event when it covers one of the event's codes (domain/perils.ts EVENT_TYPE_CODES); a hurricane's
 * wind rings reach every location inside them for wind (WTC), but surge (WSS) only where surge can reach:
 * inside a surge ring or in the surge-prone coastal zone (surge-zone.ts). An inland location covered for
 * WSS alone is then inside the ring but not covered for what reaches it.
 */
import type { EventType } from '../domain/event.js';
import { EVENT_TYPE_CODES, eventTypeBit } from './domain/perils.js';
import type { LocationIndex } from './location-index.js';
import { isSurgeProne, isSurgeRing } from './surge-zone.js';

const SURGE_CODE = 'WSS';

/** Per index, whether each location is surge-prone: 0 not yet asked, 1 no, 2 yes (the index is cached, so this is too). */
const surgeCache = new WeakMap<LocationIndex, Uint8Array>();

function surgeProneAt(ix: LocationIndex, i: number): boolean {
  let held = surgeCache.get(ix);
  if (!held) surgeCache.set(ix, (held = new Uint8Array(ix.count)));
  if (held[i] === 0) held[i] = isSurgeProne(ix.lat[i], ix.lng[i]) ? 2 : 1;
  return held[i] === 2;
}

const codeSets = new Map<string, ReadonlySet<string>>();
function codesOf(s: string): ReadonlySet<string> {
  let set = codeSets.get(s);
  if (!set) {
    set = new Set(s.split(';'));
    if (codeSets.size < 10_000) codeSets.set(s, set);
  }
  return set;
}

/** The question one event's ring asks of each location. */
export interface RingReach {
  /** The location covers a code of the event that reaches it in this ring. */
  covered(ix: LocationIndex, i: number): boolean;
  /** This code of the event reaches the location (which covers it) in this ring. */
  reaches(ix: LocationIndex, i: number, code: string): boolean;
}

export function ringReach(eventType: EventType, ring: { kind: string; label: string }): RingReach {
  const bit = eventTypeBit(eventType);
  const codes = EVENT_TYPE_CODES[eventType] ?? [];
  const surgeRing = isSurgeRing(ring);
  const reaches = (ix: LocationIndex, i: number, code: string) =>
    code !== SURGE_CODE || surgeRing || surgeProneAt(ix, i);
  if (!codes.includes(SURGE_CODE)) {
    return { covered: (ix, i) => (ix.typeMask[i] & bit) !== 0, reaches: () => true };
  }
  return {
    covered(ix, i) {
      if ((ix.typeMask[i] & bit) === 0) return false;
      const have = codesOf(ix.perilCodes[i]);
      return codes.some((c) => have.has(c) && reaches(ix, i, c));
    },
    reaches,
  };
}
