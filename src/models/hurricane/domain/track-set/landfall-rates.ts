/**
 * Landfall counts and annual rates by state and Saffir-Simpson category, for a catalog or for the record,
 * and the record's own landfall points (HURDAT2 'L' records) placed on states.
 */
import type { Storm } from '../../../../reference-data/hurdat2.js';
import type { Track } from '../track.js';
import { HISTORICAL_PERIOD } from './build.js';
import { saffirSimpson } from '../../../../intelligence/domain/inland-decay.js';
import { detectLandfalls, strongestByState, type Landfall } from './landfall.js';
import type { LandMask } from './land-mask.js';

/** Gulf and Atlantic coast states, Texas to Maine. */
export const COASTAL_STATES = ['TX', 'LA', 'MS', 'AL', 'FL', 'GA', 'SC', 'NC', 'VA', 'MD', 'DE', 'NJ', 'NY', 'CT', 'RI', 'MA', 'NH', 'ME'] as const;
/** Territories the mask holds, reported apart from the US (50-state) total. */
export const TERRITORIES = ['PR'] as const;

/** A record landfall point within this distance of a state's land is that state's (positions are to 0.1°, about 11 km). */
export const RECORD_LANDFALL_SNAP_KM = 25;

export interface LandfallTally {
  years: number;
  /** counts[state][category], category 0 (tropical storm) to 5; one per storm and state, at its strongest. */
  byState: Map<string, number[]>;
  /** Storms with a landfall on a state (not a territory), by their strongest category there. */
  us: number[];
}

export function tallyLandfalls(perStorm: Landfall[][], years: number): LandfallTally {
  const byState = new Map<string, number[]>();
  const us = [0, 0, 0, 0, 0, 0];
  for (const landfalls of perStorm) {
    let strongest = -1;
    for (const l of strongestByState(landfalls)) {
      const row = byState.get(l.state) ?? [0, 0, 0, 0, 0, 0];
      row[l.category]++;
      byState.set(l.state, row);
      if (!(TERRITORIES as readonly string[]).includes(l.state)) strongest = Math.max(strongest, l.category);
    }
    if (strongest >= 0) us[strongest]++;
  }
  return { years, byState, us };
}

/** Hurricane (category >= minCategory, default 1) landfalls in a state, or in the US for state 'US'. */
export function countOf(t: LandfallTally, state: string, minCategory = 1, maxCategory = 5): number {
  const row = state === 'US' ? t.us : t.byState.get(state);
  if (!row) return 0;
  let n = 0;
  for (let c = minCategory; c <= maxCategory; c++) n += row[c];
  return n;
}

export function catalogLandfalls(tracks: Track[], mask: LandMask): Landfall[][] {
  return tracks.map((t) => detectLandfalls(t.fixes, mask));
}

/**
 * The record's own landfalls: every 'L' record of a storm of the historical period, on the state whose land
 * is within RECORD_LANDFALL_SNAP_KM (none: a landfall outside the US), category from its wind. Also the
 * years that have 'L' records at all: HURDAT2 has none for 1971-1982, so those years are left out of the
 * record's count and rate (the detector, run on the tracks, covers every year).
 */
export function recordLandfalls(storms: Storm[], mask: LandMask): { perStorm: Landfall[][]; years: number; missingYears: number[] } {
  const perStorm: Landfall[][] = [];
  const withRecords = new Set<number>();
  for (const s of storms) {
    if (s.year < HISTORICAL_PERIOD.firstYear || s.year > HISTORICAL_PERIOD.lastYear) continue;
    const out: Landfall[] = [];
    s.fixes.forEach((f, i) => {
      if (f.record !== 'L') return;
      withRecords.add(s.year);
      const state = mask.nearestStateIndex(f.lat, f.lng, RECORD_LANDFALL_SNAP_KM);
      if (state && f.windKt >= 34) out.push({ state: mask.codes[state - 1], windKt: f.windKt, category: saffirSimpson(f.windKt), fixIndex: i });
    });
    perStorm.push(out);
  }
  const missingYears: number[] = [];
  for (let y = HISTORICAL_PERIOD.firstYear; y <= HISTORICAL_PERIOD.lastYear; y++) if (!withRecords.has(y)) missingYears.push(y);
  return { perStorm, years: HISTORICAL_PERIOD.lastYear - HISTORICAL_PERIOD.firstYear + 1 - missingYears.length, missingYears };
}
