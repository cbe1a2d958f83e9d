/**
 * The small binary files of an Oasis model_data directory, in the layouts oasislmf 2.5.8 reads
 * (little-endian): events.bin (int32 event_id a row), occurrence.bin (int32 date options, int32 number
 * of periods, then int32 event_id, int32 period_no, int32 occ_date_id a row, the date id by oasislmf's
 * csvtobin day-count algorithm), returnperiods.bin (int32 a row), quantile.bin (float32 a row) and damage_bin_dict.bin (int32 bin_index,
 * float32 bin_from, bin_to, interpolation, int32 damage_type).
 */
import type { OccurrenceRow } from './occurrence-row.js';

export function eventsBin(eventIds: ArrayLike<number>): Buffer {
  const b = Buffer.alloc(eventIds.length * 4);
  for (let i = 0; i < eventIds.length; i++) b.writeInt32LE(eventIds[i], i * 4);
  return b;
}

/** The day number oasislmf's csvtobin gives (year, month, day): days since a fixed epoch, Gregorian. */
export function occurrenceDateId(year: number, month: number, day: number): number {
  const m = (month + 9) % 12;
  const y = year - Math.floor(m / 10);
  return 365 * y + Math.floor(y / 4) - Math.floor(y / 100) + Math.floor(y / 400) + Math.floor((m * 306 + 5) / 10) + (day - 1);
}

export function occurrenceBin(rows: readonly OccurrenceRow[], periods: number): Buffer {
  const b = Buffer.alloc(8 + rows.length * 12);
  b.writeInt32LE(1, 0); // date algorithm on, dates not granular
  b.writeInt32LE(periods, 4);
  rows.forEach((r, i) => {
    const at = 8 + i * 12;
    b.writeInt32LE(r.eventId, at);
    b.writeInt32LE(r.periodNo, at + 4);
    b.writeInt32LE(occurrenceDateId(r.occYear, r.occMonth, r.occDay), at + 8);
  });
  return b;
}

export function int32Bin(values: readonly number[]): Buffer {
  const b = Buffer.alloc(values.length * 4);
  values.forEach((v, i) => b.writeInt32LE(v, i * 4));
  return b;
}

export function float32Bin(values: readonly number[]): Buffer {
  const b = Buffer.alloc(values.length * 4);
  values.forEach((v, i) => b.writeFloatLE(v, i * 4));
  return b;
}

export function damageBinDictBin(bins: readonly { index: number; from: number; to: number; interpolation: number }[]): Buffer {
  const b = Buffer.alloc(bins.length * 20);
  bins.forEach((d, i) => {
    const at = i * 20;
    b.writeInt32LE(d.index, at);
    b.writeFloatLE(d.from, at + 4);
    b.writeFloatLE(d.to, at + 8);
    b.writeFloatLE(d.interpolation, at + 12);
    b.writeInt32LE(0, at + 16);
  });
  return b;
}
