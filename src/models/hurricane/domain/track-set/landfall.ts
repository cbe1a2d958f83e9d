/**
 * Landfall: the point where a track's centre crosses from open water to a US state's land (not from a
 * Great Lake), followed between fixes in steps of DETECTION_STEP_KM. The category is the Saffir-Simpson
 * category of the wind at the last fix over water before the crossing (the wind at the coast, before any
 * inland decay). A storm that crosses into the same state more than once
 * (the Outer Banks, then the mainland across Pamlico Sound) counts once for that state, at its strongest,
 * as NOAA counts a state's hurricane strikes; a storm counts once for the US total, at its strongest US
 * landfall. The fixes must be hourly near the coast (the event set's are).
 */
import { saffirSimpson } from '../../../../intelligence/domain/inland-decay.js';
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

/**
 * Between two fixes the centre is followed in steps of at most this length (km): a storm moving 60 km/h
 * crosses Long Island (25 km) between two hourly fixes.
 */
export const DETECTION_STEP_KM = 5;

/** Every sea-to-land crossing at tropical-storm strength or more (34 kt), in track order. */
export function detectLandfalls(fixes: ArrayLike<PositionWind>, mask: LandMask): Landfall[] {
  const out: Landfall[] = [];
  if (fixes.length === 0) return out;
  let fromSea = mask.overSea(fixes[0].lat, fixes[0].lng);
  let seaWind = fixes[0].windKt;
  for (let i = 1; i < fixes.length; i++) {
    const a = fixes[i - 1];
    const b = fixes[i];
    const km = Math.hypot((b.lat - a.lat) * 111.2, (b.lng - a.lng) * 111.2 * Math.cos((a.lat * Math.PI) / 180));
    const steps = Math.max(1, Math.ceil(km / DETECTION_STEP_KM));
    for (let s = 1; s <= steps; s++) {
      const f = s / steps;
      const lat = a.lat + (b.lat - a.lat) * f;
      const lng = a.lng + (b.lng - a.lng) * f;
      const here = mask.stateIndexAt(lat, lng);
      if (fromSea && here !== 0 && seaWind >= 34) {
        out.push({ state: mask.codes[here - 1], windKt: seaWind, category: saffirSimpson(seaWind), fixIndex: i });
      }
      fromSea = mask.overSea(lat, lng);
      // The wind at the coast is the wind over water just before it, the last fix's where the segment is
      // still at sea when it starts (the next fix may already carry inland decay).
      if (fromSea) seaWind = s === steps ? b.windKt : a.windKt;
    }
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
