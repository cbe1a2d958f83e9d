/**
 * The model damage table (data/model-damage/damage-ratios.bin.gz): per peril with a model package, the
 * expected annual damage ratio of the reference building in every cell of the package's own grid, as the
 * loss engine computes it (src/epcurve/cell-damage-ratios.ts), with what it was computed from. The scores'
 * expected_annual_damage_ratio for those perils is read here: one floor() per axis and an array read, so
 * bulk work stays array reads. Pure: bytes in, bytes out (the loader is src/databuild/load-model-damage.ts).
 *
 * Layout, little-endian, the whole file gzip-compressed:
 *   bytes 0..7   magic "CIMDMG01"
 *   bytes 8..11  u32 header byte length H, then H bytes of UTF-8 JSON (the header), space-padded to 8
 *   body         per peril: one Uint16 ratio code a cell (row-major, row 0 southernmost; the hazard grid's
 *                log codec, 0.04 % steps, 65535 where no ratio was computed), then one Uint8 a cell: the
 *                index into the peril's reference_building.vulnerabilities of the id its building keyed to
 *                (255: none)
 * Quantised codes make the bytes the same on every machine (a rebuild from the same package is identical).
 */
import { LOG_CODEC, decodeValue, encodeValue } from './grid-format.js';

/** The perils whose damage ratio comes from a model package (storm surge is in the hurricane package, but its damage needs a building's elevation: docs/scoring.md §1.4). */
export const MODEL_DAMAGE_PERILS = ['hurricane_wind', 'earthquake'] as const;
export type ModelDamagePeril = (typeof MODEL_DAMAGE_PERILS)[number];

export const MODEL_DAMAGE_MAGIC = 'CIMDMG01';
export const MODEL_DAMAGE_FORMAT_VERSION = 1;
const NO_VULNERABILITY = 255;

/** What a peril's ratios were computed from, as the scores' provenance names it. */
export interface ModelDamagePackage {
  folder: string;
  model: string;
  years: number;
  seed: number;
  events: number;
  /** sha256 of the package's manifest.json (which records its build inputs). */
  manifest_sha256: string;
}

export interface ReferenceBuildingKeys {
  description: string;
  /** The vulnerability ids the reference building keyed to, most cells first, with the keys lookup's message. */
  vulnerabilities: { vulnerability_id: number; cells: number; message: string }[];
}

export interface ModelDamageGrid {
  peril: string;
  south: number;
  west: number;
  deg: number;
  rows: number;
  cols: number;
  /** Added to (lat - south) / deg before floor(), as the package's own keys lookup does (0 or 1e-9); a point on a cell edge lands where the package puts it. */
  floor_epsilon: number;
  /** Whether a point on the grid's north or east edge belongs to the last row or column (the earthquake grid's rule). */
  edges_inclusive: boolean;
  /** Damage ratio per cell (1/yr); NaN where none was computed. */
  ratio: Float32Array | Float64Array;
  /** Index into reference_building.vulnerabilities per cell (255: none); built from the keys when writing. */
  vulnerabilityIndex?: Uint8Array;
  package: ModelDamagePackage;
  reference_building: ReferenceBuildingKeys;
}

export interface ModelDamageTable {
  formatVersion: number;
  /** How the table was made, in one command line. */
  built_with: string;
  grids: Map<string, ModelDamageGrid>;
}

interface HeaderGrid extends Omit<ModelDamageGrid, 'ratio' | 'vulnerabilityIndex'> {
  offset: number;
}

export function encodeModelDamage(table: ModelDamageTable): Uint8Array {
  const grids = [...table.grids.values()];
  const parts: Uint8Array[] = [];
  const headerGrids: HeaderGrid[] = [];
  let offset = 0;
  for (const g of grids) {
    const n = g.rows * g.cols;
    const codes = new Uint16Array(n);
    for (let k = 0; k < n; k++) codes[k] = encodeValue(g.ratio[k], LOG_CODEC);
    const vi = g.vulnerabilityIndex ?? new Uint8Array(n).fill(NO_VULNERABILITY);
    const bytes = new Uint8Array(Math.ceil((3 * n) / 8) * 8);
    bytes.set(new Uint8Array(codes.buffer), 0);
    bytes.set(vi, 2 * n);
    const { ratio: _r, vulnerabilityIndex: _v, ...meta } = g;
    headerGrids.push({ ...meta, offset });
    parts.push(bytes);
    offset += bytes.length;
  }
  let json = JSON.stringify({
    format: 'catintel-model-damage',
    formatVersion: MODEL_DAMAGE_FORMAT_VERSION,
    built_with: table.built_with,
    grids: headerGrids,
  });
  while ((12 + Buffer.byteLength(json)) % 8 !== 0) json += ' ';
  const head = Buffer.from(json, 'utf8');
  const out = new Uint8Array(12 + head.length + offset);
  out.set(Buffer.from(MODEL_DAMAGE_MAGIC, 'latin1'), 0);
  new DataView(out.buffer).setUint32(8, head.length, true);
  out.set(head, 12);
  let at = 12 + head.length;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

export function parseModelDamage(bytes: Uint8Array): ModelDamageTable {
  const magic = new TextDecoder().decode(bytes.subarray(0, 8));
  if (magic !== MODEL_DAMAGE_MAGIC)
    throw new Error(`not a catintel model damage table (magic ${JSON.stringify(magic)})`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const headerLength = view.getUint32(8, true);
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(12, 12 + headerLength))) as {
    formatVersion: number;
    built_with: string;
    grids: HeaderGrid[];
  };
  if (header.formatVersion !== MODEL_DAMAGE_FORMAT_VERSION)
    throw new Error(
      `model damage table format ${header.formatVersion} is not supported (expected ${MODEL_DAMAGE_FORMAT_VERSION}); rebuild it with scripts/build-model-damage`,
    );
  const body = 12 + headerLength;
  const grids = new Map<string, ModelDamageGrid>();
  for (const h of header.grids) {
    const n = h.rows * h.cols;
    const start = body + h.offset;
    const codes = new Uint16Array(bytes.slice(start, start + 2 * n).buffer);
    const ratio = new Float64Array(n);
    for (let k = 0; k < n; k++) ratio[k] = decodeValue(codes[k], LOG_CODEC);
    const { offset: _o, ...meta } = h;
    grids.set(h.peril, { ...meta, ratio, vulnerabilityIndex: bytes.slice(start + 2 * n, start + 3 * n) });
  }
  return { formatVersion: header.formatVersion, built_with: header.built_with, grids };
}

/** The model's ratio for a peril at a point, with the package cell it came from; undefined off the package's grid or where none was computed. */
export function modelDamageAt(
  table: ModelDamageTable,
  peril: string,
  lat: number,
  lng: number,
):
  | {
      ratio: number;
      grid: ModelDamageGrid;
      areaperilId: number;
      vulnerability: ReferenceBuildingKeys['vulnerabilities'][number] | null;
    }
  | undefined {
  const g = table.grids.get(peril);
  if (!g) return undefined;
  let row = Math.floor((lat - g.south) / g.deg + g.floor_epsilon);
  let col = Math.floor((lng - g.west) / g.deg + g.floor_epsilon);
  if (g.edges_inclusive) {
    if (row === g.rows && lat <= g.south + g.rows * g.deg) row = g.rows - 1;
    if (col === g.cols && lng <= g.west + g.cols * g.deg) col = g.cols - 1;
  }
  if (!(row >= 0 && row < g.rows && col >= 0 && col < g.cols)) return undefined;
  const k = row * g.cols + col;
  const ratio = g.ratio[k];
  if (!Number.isFinite(ratio)) return undefined;
  const vi = g.vulnerabilityIndex?.[k] ?? NO_VULNERABILITY;
  return {
    ratio,
    grid: g,
    areaperilId: k + 1,
    vulnerability: vi === NO_VULNERABILITY ? null : (g.reference_building.vulnerabilities[vi] ?? null),
  };
}
