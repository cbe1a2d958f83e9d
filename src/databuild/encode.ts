/**
 * Write the hazard-grid bytes (layout in src/domain/scoring/grid-format.ts). Deterministic: sections in
 * a fixed order, header keys in a fixed order, every number in the header rounded to fixed decimals.
 */
import {
  GRID_FORMAT_VERSION,
  GRID_MAGIC,
  encodeValue,
  type Codec,
  type GridHeader,
  type SectionHeader,
} from '../domain/scoring/grid-format.js';
import { CELL_DEG, FINE_PER_CELL, REGIONS } from '../reference-data/regions.js';

export interface ChannelData {
  name: string;
  codec: Codec;
  values: ArrayLike<number>; // NaN = null
}

export interface EncodeInput {
  dataVersion: string;
  modelVersion: string;
  ingestedAt: string;
  index: Uint16Array[];
  mask: Uint8Array[];
  cellCounty: Uint16Array;
  counties: GridHeader['counties'];
  channels: ChannelData[];
  params: Record<string, number>;
  percentiles: Record<string, number[]>;
}

/** Round for the header so tiny float differences between machines cannot change the bytes. */
export function fixed(x: number, digits = 6): number {
  return Number(x.toPrecision(digits));
}

export function encodeGrid(input: EncodeInput): Uint8Array {
  const bodies: Array<{ name: string; bytes: Uint8Array }> = [];
  REGIONS.forEach((r, i) => {
    bodies.push({ name: `index.${r.name}`, bytes: u8(input.index[i]) });
    bodies.push({ name: `mask.${r.name}`, bytes: input.mask[i] });
  });
  bodies.push({ name: 'cell.county', bytes: u8(input.cellCounty) });
  for (const ch of input.channels) {
    const codes = new Uint16Array(input.cellCounty.length);
    for (let i = 0; i < codes.length; i++)
      codes[i] = encodeValue(Number.isNaN(ch.values[i]) ? null : ch.values[i], ch.codec);
    bodies.push({ name: `ch.${ch.name}`, bytes: u8(codes) });
  }

  const sections: SectionHeader[] = [];
  let offset = 0;
  for (const b of bodies) {
    sections.push({ name: b.name, offset, byteLength: b.bytes.byteLength });
    offset = align8(offset + b.bytes.byteLength);
  }
  const header: GridHeader = {
    format: 'catintel-hazard-grid',
    formatVersion: GRID_FORMAT_VERSION,
    dataVersion: input.dataVersion,
    modelVersion: input.modelVersion,
    ingestedAt: input.ingestedAt,
    cellDeg: CELL_DEG,
    finePerCell: FINE_PER_CELL,
    regions: REGIONS.map((r) => ({ ...r })),
    nCells: input.cellCounty.length,
    channels: input.channels.map((c) => ({ name: c.name, codec: c.codec })),
    counties: input.counties,
    params: Object.fromEntries(
      Object.keys(input.params)
        .sort()
        .map((k) => [k, fixed(input.params[k])]),
    ),
    percentiles: Object.fromEntries(
      Object.keys(input.percentiles)
        .sort()
        .map((k) => [k, input.percentiles[k].map((v) => fixed(v, 4))]),
    ),
    sections,
  };
  let json = new TextEncoder().encode(JSON.stringify(header));
  const padded = align8(12 + json.byteLength) - 12;
  const headerBytes = new Uint8Array(padded).fill(0x20);
  headerBytes.set(json);
  json = headerBytes;

  const out = new Uint8Array(12 + json.byteLength + offset);
  out.set(new TextEncoder().encode(GRID_MAGIC), 0);
  new DataView(out.buffer).setUint32(8, json.byteLength, true);
  out.set(json, 12);
  const body = 12 + json.byteLength;
  bodies.forEach((b, i) => out.set(b.bytes, body + sections[i].offset));
  return out;
}

function align8(n: number): number {
  return (n + 7) & ~7;
}

/** Little-endian bytes of a Uint16Array (explicit, so the file is the same on any host). */
function u8(a: Uint16Array): Uint8Array {
  const out = new Uint8Array(a.length * 2);
  const v = new DataView(out.buffer);
  for (let i = 0; i < a.length; i++) v.setUint16(i * 2, a[i], true);
  return out;
}
