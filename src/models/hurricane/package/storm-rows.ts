/**
 * One storm's footprint rows as the package writes them: the bin of its peak gust on every land cell it
 * reaches (probability 1: the gust's spread is in the vulnerability), then its peak surge height on every
 * near-coast cell, under the surge areaperils. Shared by the catalog build and by a live event's footprints,
 * so a storm that is happening is run exactly as a simulated one.
 */
import { binOfGust } from '../domain/intensity-bins.js';
import { peakGustFootprint } from '../domain/footprint/peak-gust.js';
import type { LandGrid } from '../domain/footprint/grid.js';
import type { Track } from '../domain/track.js';
import { surgeHeightsForTrack } from '../domain/surge/surge-heights.js';
import { surgeAreaperil, surgeBinId } from '../domain/surge/surge-bins.js';

export interface StormRows {
  /** 12 bytes a row (uint32 areaperil_id, int32 intensity_bin_id, float32 probability), wind rows then surge rows. */
  rows: Buffer;
  windRows: number;
  surgeRows: number;
}

/**
 * The storm's rows; `seen` is told each row's grid cell areaperil (the wind grid's), bin and peril, for the
 * build's record of the highest bin each cell sees.
 */
export function stormFootprintRows(track: Track, grid: LandGrid, seen?: (cellAreaperil: number, bin: number, surge: boolean) => void): StormRows {
  const fp = peakGustFootprint(track, grid);
  const surge = surgeHeightsForTrack(track, grid);
  const n = fp.areaperils.length;
  const m = surge.areaperils.length;
  const b = Buffer.alloc((n + m) * 12);
  for (let i = 0; i < n; i++) {
    const bin = binOfGust(fp.gustMph[i]);
    b.writeUInt32LE(fp.areaperils[i], i * 12);
    b.writeInt32LE(bin, i * 12 + 4);
    b.writeFloatLE(1, i * 12 + 8);
    seen?.(fp.areaperils[i], bin, false);
  }
  // Surge rows after the wind's: their areaperils are all higher, so the event's rows stay in areaperil order.
  for (let i = 0; i < m; i++) {
    const bin = surgeBinId(surge.heightM[i]);
    const at = (n + i) * 12;
    b.writeUInt32LE(surgeAreaperil(surge.areaperils[i]), at);
    b.writeInt32LE(bin, at + 4);
    b.writeFloatLE(1, at + 8);
    seen?.(surge.areaperils[i], bin, true);
  }
  return { rows: b, windRows: n, surgeRows: m };
}
