/**
 * Landfall: the point where a track's centre crosses from open water to a US state's land (not from a
 * Great Lake). The category is
 * the Saffir-Simpson category of the wind at the last fix over water before the crossing (the record's
 * wind at the coast, before any inland decay). A storm that crosses into the same state more than once
 * (the Outer Banks, then the mainland across Pamlico Sound) counts once for that state, at its strongest,
 * as NOAA counts a state's hurricane strikes; a storm counts once for the US total, at its strongest US
 * landfall. The fixes must be hourly near the coast (the event set's are).
 */
import { saffirSimpsonCategory } from './intensity.js';
import type { LandMask } from './land-mask.js';

export interface Landfall {
  /** Two-letter state code. */
  state: string;
  windKt: number;
  /** Saffir-Simpson category at landfall, 0 for a tropical storm. */
  category: number;
  /** Index of the first fix over land. */
  fixIndex: number;
}

export interface PositionWind {
  lat: number;
  lng: number;
  windKt: number;
}

/** Every sea-to-land crossing at tropical-storm strength or more (34 kt), in track order. */
export function detectLandfalls(fixes: ArrayLike<PositionWind>, mask: LandMask): Landfall[] {
  const out: Landfall[] = [];
  let fromSea = fixes.length > 0 && mask.overSea(fixes[0].lat, fixes[0].lng);
  for (let i = 1; i < fixes.length; i++) {
    const here = mask.stateIndexAt(fixes[i].lat, fixes[i].lng);
    if (fromSea && here !== 0) {
      const windKt = fixes[i - 1].windKt;
      if (windKt >= 34) out.push({ state: mask.codes[here - 1], windKt, category: saffirSimpsonCategory(windKt), fixIndex: i });
    }
    fromSea = mask.overSea(fixes[i].lat, fixes[i].lng);
  }
  return out;
}

/** One landfall per state (the strongest), in order of first crossing. */
export function strongestByState(landfalls: Landfall[]): Landfall[] {
  const byState = new Map<string, Landfall>();
  for (const l of landfalls) {
    const seen = byState.get(l.state);
    if (!seen || l.windKt > seen.windKt) byState.set(l.state, seen ? { ...l, fixIndex: seen.fixIndex } : l);
  }
  return [...byState.values()];
}
