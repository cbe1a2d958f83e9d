/**
 * HURDAT2 storms as the model's Track: the record's fixes (tropical and subtropical stages only, from
 * the first to the last such fix, so extratropical remnants far north do not paint footprints), the
 * record's RMW where HURDAT2 gives one (2021 on) and Vickery & Wadhera (2008) elsewhere, the central
 * pressure from Atkinson & Holliday (1977) where missing, overLand from the wind grid's land mask.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseHurdat2, type Storm } from '../../databuild/hurdat2.js';
import { KM_PER_NM } from '../../lib/geo.js';
import { cellOf, GRID_COLS, type LandGrid } from './domain/footprint/grid.js';
import { pressureFromWindHpa, vickeryWadheraRmKm } from './domain/rmw.js';
import type { Track, TrackFix } from './domain/track.js';

export const HURDAT2_ATLANTIC = path.join('hazard_history', 'hurricanes', 'hurdat2-1851-2024-040425_reassembled.txt');
const TROPICAL = new Set(['TD', 'TS', 'HU', 'SD', 'SS']);

export function readAtlanticStorms(dataDir: string): Storm[] {
  return parseHurdat2(fs.readFileSync(path.join(dataDir, HURDAT2_ATLANTIC), 'utf8'));
}

export function stormToTrack(storm: Storm, eventId: number, grid: LandGrid): Track | null {
  const tropical = storm.fixes.map((f) => TROPICAL.has(f.status));
  const first = tropical.indexOf(true);
  const last = tropical.lastIndexOf(true);
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
