/**
 * A storm's footprint in Oasis form: rows (event_id, areaperil_id, intensity_bin_id, probability) sorted
 * by areaperil then bin, the intensity_bin_dict that names the bins, and the binary footprint.bin /
 * footprint.idx encoding oasislmf reads (an 8-byte header of num_intensity_bins and
 * has_intensity_uncertainty, then 12 bytes a row: uint32 areaperil_id, int32 intensity_bin_id,
 * float32 probability; the index holds int32 event_id, int64 byte offset from the file start, int64 size).
 */
import { INTENSITY_BIN_COUNT, intensityBins } from '../intensity-bins.js';
import type { PeakGustFootprint } from './peak-gust.js';
import { GUST_SIGMA_LN, gustBinProbabilities } from './intensity-uncertainty.js';

export interface FootprintRows {
  eventId: Int32Array;
  areaperil: Uint32Array;
  bin: Int32Array;
  probability: Float32Array;
}

export const FOOTPRINT_HEADER_BYTES = 8;
export const FOOTPRINT_ROW_BYTES = 12;

export function footprintRows(eventId: number, fp: PeakGustFootprint, sigmaLn = GUST_SIGMA_LN): FootprintRows {
  const ap: number[] = [];
  const bin: number[] = [];
  const prob: number[] = [];
  for (let i = 0; i < fp.areaperils.length; i++) {
    for (const b of gustBinProbabilities(fp.gustMph[i], sigmaLn)) {
      ap.push(fp.areaperils[i]);
      bin.push(b.bin);
      prob.push(b.probability);
    }
  }
  return { eventId: new Int32Array(ap.length).fill(eventId), areaperil: Uint32Array.from(ap), bin: Int32Array.from(bin), probability: Float32Array.from(prob) };
}

export function footprintCsv(rows: FootprintRows[]): string {
  const lines = ['event_id,areaperil_id,intensity_bin_id,probability'];
  for (const r of rows) for (let i = 0; i < r.areaperil.length; i++) lines.push(`${r.eventId[i]},${r.areaperil[i]},${r.bin[i]},${Number(r.probability[i].toPrecision(7))}`); // float32 holds 7 digits
  return lines.join('\n') + '\n';
}

/** intensity_bin_dict.csv: bin_index, bin_from, bin_to, interpolation (the representative gust), interval_type (1201 = [from, to)). */
export function intensityBinDictCsv(): string {
  const lines = ['bin_index,bin_from,bin_to,interpolation,interval_type'];
  for (const b of intensityBins()) lines.push(`${b.id},${b.fromMph},${b.toMph === Infinity ? 999 : b.toMph},${b.representativeMph},1201`);
  return lines.join('\n') + '\n';
}

/** footprint.bin and footprint.idx for events in ascending event_id order. */
export function footprintBinary(events: FootprintRows[]): { bin: Buffer; idx: Buffer } {
  const rows = events.reduce((n, e) => n + e.areaperil.length, 0);
  const bin = Buffer.alloc(FOOTPRINT_HEADER_BYTES + rows * FOOTPRINT_ROW_BYTES);
  bin.writeInt32LE(INTENSITY_BIN_COUNT, 0);
  bin.writeInt32LE(1, 4);
  const idx = Buffer.alloc(events.length * 20);
  let at = FOOTPRINT_HEADER_BYTES;
  events.forEach((e, k) => {
    const start = at;
    for (let i = 0; i < e.areaperil.length; i++) {
      bin.writeUInt32LE(e.areaperil[i], at);
      bin.writeInt32LE(e.bin[i], at + 4);
      bin.writeFloatLE(e.probability[i], at + 8);
      at += FOOTPRINT_ROW_BYTES;
    }
    idx.writeInt32LE(e.eventId[0] ?? 0, k * 20);
    idx.writeBigInt64LE(BigInt(start), k * 20 + 4);
    idx.writeBigInt64LE(BigInt(at - start), k * 20 + 12);
  });
  return { bin, idx };
}
