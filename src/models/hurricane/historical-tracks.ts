/**
 * HURDAT2 storms as the model's Track: the record's fixes from the first tropical or subtropical fix to
 * the last fix that is still tropical or still of hurricane force (Sandy 2012 came ashore as a
 * post-tropical storm of 70 kt; weaker extratropical remnants, whose broad wind fields a Holland vortex
 * does not describe, are left out), the
 * record's RMW where HURDAT2 gives one (2021 on) and Vickery & Wadhera (2008) elsewhere, the central
 * pressure from Atkinson & Holliday (1977) where missing, overLand from the wind grid's land mask.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseHurdat2, type Storm } from '../../reference-data/hurdat2.js';
import { KM_PER_NM } from '../../lib/geo.js';
import { cellOf, GRID_COLS, type LandGrid } from './domain/footprint/grid.js';
import { pressureFromWindHpa, vickeryWadheraRmKm } from './domain/rmw.js';
import type { Track, TrackFix } from './domain/track.js';

export const HURDAT2_ATLANTIC = path.join('hazard_history', 'hurricanes', 'hurdat2-1851-2024-040425_reassembled.txt');
const TROPICAL = new Set(['TD', 'TS', 'HU', 'SD', 'SS']);
const HURRICANE_FORCE_KT = 64;

export function readAtlanticStorms(dataDir: string): Storm[] {
  return parseHurdat2(fs.readFileSync(path.join(dataDir, HURDAT2_ATLANTIC), 'utf8'));
}

export function stormToTrack(storm: Storm, eventId: number, grid: LandGrid): Track | null {
  const tropical = storm.fixes.map((f) => TROPICAL.has(f.status));
  const first = tropical.indexOf(true);
  const last = storm.fixes.map((f, i) => tropical[i] || f.windKt >= HURRICANE_FORCE_KT).lastIndexOf(true);
  if (first < 0) return null;
  const t0 = storm.fixes[first].hours;
  const fixes: TrackFix[] = storm.fixes.slice(first, last + 1).map((f) => {
    const pressureMb = f.pressureMb ?? pressureFromWindHpa(f.windKt);
    const cell = cellOf(f.lat, f.lng);
    return {
      hours: f.hours - t0,
      lat: f.lat,
      lng: f.lng,
      windKt: f.windKt,
      pressureMb,
      rmwKm: f.rmwNm !== null ? f.rmwNm * KM_PER_NM : vickeryWadheraRmKm(pressureMb, f.lat),
      overLand: cell !== null && grid.land[cell.row * GRID_COLS + cell.col] === 1,
    };
  });
  return { eventId, parentId: storm.id, fixes };
}

/** Storms of the years [from, to] as tracks with dense event ids in storm-id order. */
export function historicalTracks(storms: Storm[], grid: LandGrid, from: number, to: number): Track[] {
  const out: Track[] = [];
  for (const s of storms) {
    if (s.year < from || s.year > to) continue;
    const t = stormToTrack(s, out.length + 1, grid);
    if (t) out.push(t);
  }
  return out;
}
