/**
 * The committed hazard-baseline file (data/baseline/hazard-grid.bin), shared by the build that writes
 * it (src/databuild/encode.ts) and the parser that reads it (grid.ts). Layout, little-endian:
 *
 *   bytes 0..7    magic "CIHGRID1"
 *   bytes 8..11   u32 header byte length H
 *   bytes 12..    H bytes of UTF-8 JSON (GridHeader), space-padded so the body starts 8-aligned
 *   body          sections, each at header.sections[i].offset bytes from the body start
 *
 * Sections: per region a Uint16 cell index (rows x cols, NO_CELL where uncovered) and a coverage bitmask
 * at fine resolution (rows*fine x cols*fine bits, row-major, LSB first, rows padded to whole bytes);
 * then one Uint16 per covered cell for its county, then one Uint16 per covered cell per channel.
 * Quantising channels to 16 bits keeps the file small and makes the bytes immune to last-bit float
 * differences between machines (the build must be byte-identical run to run).
 */

export const GRID_MAGIC = 'CIHGRID1';
export const GRID_FORMAT_VERSION = 1;
/** Uint16 sentinels: a dense-grid cell with no coverage, and a missing channel value. */
export const NO_CELL = 0xffff;
export const NULL_CODE = 0xffff;

/**
 * log10: code 0 = exactly zero; code c in 1..65534 = 10^(lo + (c-1)/stepsPerDecade); 65535 = null.
 * linear: code c = round(value * scale) for value >= 0; 65535 = null.
 */
export type Codec = { kind: 'log10'; lo: number; stepsPerDecade: number } | { kind: 'linear'; scale: number };

/** Frequencies from 1e-9/yr up to ~2.8e1/yr at 1/6000-decade steps (0.04 % relative precision). */
export const LOG_CODEC: Codec = { kind: 'log10', lo: -9, stepsPerDecade: 6000 };

export interface RegionHeader {
  name: string;
  south: number; // degrees, southern edge of row 0
  west: number; // degrees, western edge of column 0
  rows: number;
  cols: number;
}

export interface ChannelHeader {
  name: string; // '<peril>.<field>', e.g. 'hurricane_wind.lambda_damaging'
  codec: Codec;
}

export interface SectionHeader {
  name: string;
  offset: number; // bytes from the body start, 8-aligned
  byteLength: number;
}

export interface GridHeader {
  format: 'catintel-hazard-grid';
  formatVersion: number;
  dataVersion: string;
  modelVersion: string;
  /** The data build's time for provenance: the newest input vintage, fixed so rebuilds are identical. */
  ingestedAt: string;
  cellDeg: number;
  finePerCell: number;
  regions: RegionHeader[];
  nCells: number;
  channels: ChannelHeader[];
  /** County table indexed by the per-cell county section (2020 Census FIPS, population, land area). */
  counties: { fips: string[]; population: Array<number | null>; areaKm2: number[] };
  /** Named model constants measured by the build (e.g. 'hurricane_wind.cat45_share_of_tcs'). */
  params: Record<string, number>;
  /** Per peril, the baseline score at population-weighted national percentiles 0..100 (101 values). */
  percentiles: Record<string, number[]>;
  sections: SectionHeader[];
}

export function encodeValue(v: number | null, codec: Codec): number {
  if (v === null || Number.isNaN(v)) return NULL_CODE;
  if (codec.kind === 'linear') return Math.min(NULL_CODE - 1, Math.max(0, Math.round(v * codec.scale)));
  if (v <= 0) return 0;
  const c = Math.round((Math.log10(v) - codec.lo) * codec.stepsPerDecade) + 1;
  return Math.min(NULL_CODE - 1, Math.max(1, c));
}

/** NaN stands for null in decoded arrays. */
export function decodeValue(code: number, codec: Codec): number {
  if (code === NULL_CODE) return NaN;
  if (codec.kind === 'linear') return code / codec.scale;
  if (code === 0) return 0;
  return 10 ** (codec.lo + (code - 1) / codec.stepsPerDecade);
}

export function maskBytesPerRow(fineCols: number): number {
  return (fineCols + 7) >> 3;
}
