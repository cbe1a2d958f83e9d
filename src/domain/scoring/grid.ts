/**
 * Parse the committed hazard-baseline bytes (grid-format.ts) into typed arrays, and find the cell of a
 * point in O(1): a bounding-box test over a handful of regions, one bit of the fine coverage mask, one
 * read of the region's cell index. Channels are decoded once at parse time into Float64Arrays (NaN =
 * null) so scoring a million rows is array reads, not string or object work. Pure: no I/O here; the
 * loader in src/reference-data/load-baseline.ts reads the file.
 */
import {
  GRID_FORMAT_VERSION,
  GRID_MAGIC,
  NO_CELL,
  decodeValue,
  maskBytesPerRow,
  type GridHeader,
  type RegionHeader,
} from './grid-format.js';

export interface GridRegion extends RegionHeader {
  fineRows: number;
  fineCols: number;
  index: Uint16Array;
  mask: Uint8Array;
}

export interface HazardGrid {
  header: GridHeader;
  regions: GridRegion[];
  nCells: number;
  /** County table index per cell (into header.counties). */
  county: Uint16Array;
  /** Decoded channel values per cell, keyed '<peril>.<field>'. */
  channels: Map<string, Float64Array>;
}

export function parseHazardGrid(bytes: Uint8Array): HazardGrid {
  const magic = new TextDecoder().decode(bytes.subarray(0, 8));
  if (magic !== GRID_MAGIC) throw new Error(`not a catintel hazard grid (magic ${JSON.stringify(magic)})`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const headerLength = view.getUint32(8, true);
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(12, 12 + headerLength))) as GridHeader;
  if (header.formatVersion !== GRID_FORMAT_VERSION) {
    throw new Error(
      `hazard grid format ${header.formatVersion} is not supported (expected ${GRID_FORMAT_VERSION}); rebuild with catintel data build`,
    );
  }
  const bodyStart = 12 + headerLength;
  const section = (name: string): Uint8Array => {
    const s = header.sections.find((x) => x.name === name);
    if (!s) throw new Error(`hazard grid has no section ${name}`);
    // Copy into a fresh, aligned buffer: typed-array views need 2-byte alignment of the source offset.
    return bytes.slice(bodyStart + s.offset, bodyStart + s.offset + s.byteLength);
  };
  const u16 = (name: string): Uint16Array => {
    const b = section(name);
    return new Uint16Array(b.buffer, b.byteOffset, b.byteLength / 2);
  };

  const regions: GridRegion[] = header.regions.map((r) => ({
    ...r,
    fineRows: r.rows * header.finePerCell,
    fineCols: r.cols * header.finePerCell,
    index: u16(`index.${r.name}`),
    mask: section(`mask.${r.name}`),
  }));
  const channels = new Map<string, Float64Array>();
  for (const ch of header.channels) {
    const codes = u16(`ch.${ch.name}`);
    const values = new Float64Array(codes.length);
    for (let i = 0; i < codes.length; i++) values[i] = decodeValue(codes[i], ch.codec);
    channels.set(ch.name, values);
  }
  return { header, regions, nCells: header.nCells, county: u16('cell.county'), channels };
}

/**
 * The covered cell containing (lat, lng), or -1 when the point is outside US states and territories
 * (to the resolution of the fine mask, header.cellDeg / header.finePerCell degrees).
 */
export function cellAt(grid: HazardGrid, lat: number, lng: number): number {
  if (!Number.isFinite(lat) || !Number.isFinite(lng) || lat < -90 || lat > 90) return -1;
  const x = lng >= 180 || lng < -180 ? ((((lng + 180) % 360) + 360) % 360) - 180 : lng;
  const d = grid.header.cellDeg;
  const f = grid.header.finePerCell;
  for (const r of grid.regions) {
    const fr = Math.floor(((lat - r.south) / d) * f);
    const fc = Math.floor(((x - r.west) / d) * f);
    if (fr < 0 || fc < 0 || fr >= r.fineRows || fc >= r.fineCols) continue;
    const bit = r.mask[fr * maskBytesPerRow(r.fineCols) + (fc >> 3)] & (1 << (fc & 7));
    if (bit === 0) return -1;
    const cell = r.index[Math.floor(fr / f) * r.cols + Math.floor(fc / f)];
    return cell === NO_CELL ? -1 : cell;
  }
  return -1;
}
