/**
 * USGS ShakeMap products (https://usgs.github.io/shakemap/manual4_0/ug_products.html) read for the rings:
 *   - `cont_mmi.json`: GeoJSON FeatureCollection of MMI contour (Multi)LineStrings, `properties.value` = MMI,
 *     at whole and half intensities; `metadata.eventid` names the event (ShakeMap 4 and the Atlas);
 *   - `grid.xml`: the ShakeMap grid (ShakeMap 3.5 and 4): `<shakemap_grid shakemap_version=...>`, `<event>`,
 *     `<grid_specification>`, `<grid_field name="MMI" index=...>` and whitespace-separated `<grid_data>` rows.
 * Both are reduced to the MMI areas the rings need (domain/rings/shakemap.ts). Pure: text in, areas out.
 */
import fs from 'node:fs/promises';
import { gunzipSync } from 'node:zlib';
import { XMLParser } from 'fast-xml-parser';
import type { Position } from 'geojson';
import type { ShakeMapAreas } from '../domain/event.js';
import type { GridGeometry } from '../domain/grid-geometry.js';
import { areaFromContourLines, areasFromGrid, type MmiGrid } from '../domain/rings/shakemap.js';
import type { PgaGrid } from '../domain/pga-grid.js';
import { CatintelError } from '../errors.js';

/** The MMI levels the earthquake rings use (VIII, VI, IV; domain/rings/earthquake.ts). */
export const RING_MMI_LEVELS = [8, 6, 4] as const;

/** A parsed ShakeMap: its areas plus what identifies its event, to attach it to the right feed record. */
export interface ShakeMap {
  areas: ShakeMapAreas;
  /** The ShakeMap's own event id (may be an old network id, e.g. 19891018000415 for nc216859). */
  eventId: string | null;
  epicentre: { lat: number; lng: number } | null;
  /** Origin time (ms), when the product gives it (grid.xml). */
  originMs: number | null;
  /** A grid.xml's PGA and STDPGA, when it has them: ingest keeps them for the event's live loss. */
  pga?: PgaGrid;
}

const EXPECTED = 'expected a USGS ShakeMap cont_mmi.json (GeoJSON MMI contours) or grid.xml';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v: unknown): number =>
  typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;

/** `name` is the file or URL, for messages. `version` overrides the product's own (ComCat knows it for cont_mmi.json). */
export function parseShakeMap(text: string, name: string, version: string | null = null): ShakeMap {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const start = body.trimStart();
  if (start.startsWith('{')) return parseContMmi(start, name, version);
  if (start.startsWith('<')) return parseGridXml(start, name, version);
  throw new CatintelError('invalid_input', `--shakemap ${name}: ${EXPECTED}; got neither JSON nor XML`);
}

/** Reads and parses `--shakemap FILE` (gzipped or not); errors name the file and what was expected. */
export async function readShakeMapFile(file: string): Promise<ShakeMap> {
  let bytes: Buffer;
  try {
    bytes = await fs.readFile(file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : 'unreadable';
    throw new CatintelError(
      'invalid_input',
      `cannot read --shakemap ${file}: ${why}; pass a ShakeMap cont_mmi.json or grid.xml`,
    );
  }
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) bytes = gunzipSync(bytes); // ShakeMap grids are often kept as grid.xml.gz
  return parseShakeMap(bytes.toString('utf8'), file);
}

function parseContMmi(text: string, name: string, version: string | null): ShakeMap {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    throw new CatintelError('invalid_input', `--shakemap ${name}: ${EXPECTED}; got JSON that does not parse`);
  }
  if (!isObject(doc) || !Array.isArray(doc.features)) {
    throw new CatintelError(
      'invalid_input',
      `--shakemap ${name}: ${EXPECTED}; got JSON that is not a FeatureCollection`,
    );
  }
  const linesAt = new Map<number, Position[][]>();
  for (const f of doc.features) {
    const value = isObject(f) && isObject(f.properties) ? num(f.properties.value) : NaN;
    const g = isObject(f) && isObject(f.geometry) ? f.geometry : null;
    if (!Number.isFinite(value) || !g || !Array.isArray(g.coordinates)) continue;
    const lines = g.type === 'LineString' ? [g.coordinates] : g.type === 'MultiLineString' ? g.coordinates : [];
    linesAt.set(value, [...(linesAt.get(value) ?? []), ...(lines as Position[][])]);
  }
  if (linesAt.size === 0) {
    throw new CatintelError(
      'invalid_input',
      `--shakemap ${name}: ${EXPECTED}; got a FeatureCollection without MMI contour lines (properties.value)`,
    );
  }
  const levels: ShakeMapAreas['levels'] = [];
  for (const mmi of RING_MMI_LEVELS) {
    const lines = linesAt.get(mmi);
    const geometry = lines ? areaFromContourLines(lines) : null;
    if (geometry) levels.push({ mmi, geometry });
  }
  const meta = isObject(doc.metadata) ? doc.metadata : {};
  const lat = num(meta.latitude);
  const lng = num(meta.longitude);
  const ownVersion = meta.version ?? meta.shakemap_version;
  return {
    areas: {
      version: version ?? (ownVersion !== undefined ? String(ownVersion) : null),
      product: 'cont_mmi.json',
      levels,
    },
    eventId: typeof meta.eventid === 'string' ? meta.eventid : null,
    epicentre: Number.isFinite(lat) && Number.isFinite(lng) ? { lat, lng } : null,
    originMs: null,
  };
}

const xml = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseAttributeValue: false,
  parseTagValue: false,
});

function parseGridXml(text: string, name: string, version: string | null): ShakeMap {
  const root = gridRoot(text, name);
  const ev = isObject(root.event) ? root.event : {};
  const lat = num(ev.lat);
  const lng = num(ev.lon);
  // "1989-10-18T00:04:15UTC" (ShakeMap 3) or "...Z" (ShakeMap 4).
  const originMs = Date.parse(String(ev.event_timestamp ?? '').replace(/UTC$/, 'Z'));
  const ownVersion = root.shakemap_version !== undefined ? String(root.shakemap_version) : null;
  return {
    areas: {
      version: version ?? ownVersion,
      product: 'grid.xml',
      levels: areasFromGrid(gridOf(root, name), RING_MMI_LEVELS),
    },
    eventId: typeof ev.event_id === 'string' ? ev.event_id : typeof root.event_id === 'string' ? root.event_id : null,
    epicentre: Number.isFinite(lat) && Number.isFinite(lng) ? { lat, lng } : null,
    originMs: Number.isFinite(originMs) ? originMs : null,
    pga: pgaOfRoot(root) ?? undefined,
  };
}

/** The MMI grid of a grid.xml (validation compares rings with it node by node). */
export function parseShakeMapGrid(text: string, name: string): MmiGrid {
  return gridOf(gridRoot(text, name), name);
}

/**
 * Named columns of a grid.xml's nodes (e.g. LON, LAT, PGA, SVEL), in the file's own units (PGA in %g):
 * for comparing a model's median ground motion with the map node by node.
 */
export function shakeMapGridColumns(
  text: string,
  name: string,
  fields: readonly string[],
): Record<string, Float64Array> {
  const root = gridRoot(text, name);
  const all = (Array.isArray(root.grid_field) ? root.grid_field : [root.grid_field]).filter(isObject);
  const index = fields.map((f) => {
    const i = num(all.find((g) => String(g.name).toUpperCase() === f.toUpperCase())?.index) - 1;
    if (!(i >= 0)) throw new CatintelError('invalid_input', `--shakemap ${name}: grid.xml has no ${f} grid field`);
    return i;
  });
  const rows = String(root.grid_data)
    .split('\n')
    .map((r) => r.trim().split(/\s+/))
    .filter((v) => v.length > Math.max(...index));
  return Object.fromEntries(fields.map((f, k) => [f, Float64Array.from(rows, (v) => Number(v[index[k]]))]));
}

function gridRoot(text: string, name: string): Json {
  let doc: Json;
  try {
    doc = xml.parse(text) as Json;
  } catch {
    throw new CatintelError('invalid_input', `--shakemap ${name}: ${EXPECTED}; got XML that does not parse`);
  }
  const root = doc.shakemap_grid;
  if (!isObject(root) || !isObject(root.grid_specification) || typeof root.grid_data !== 'string') {
    throw new CatintelError(
      'invalid_input',
      `--shakemap ${name}: ${EXPECTED}; got XML without <shakemap_grid>, <grid_specification> and <grid_data>`,
    );
  }
  return root;
}

/** A grid.xml's layout: its node spacing, and the columns of LON, LAT and the named fields (null when any is missing). */
interface GridLayout extends GridGeometry {
  iLon: number;
  iLat: number;
  /** The named fields' columns, in the order asked for. */
  columns: number[];
}

function gridLayoutOf(root: Json, names: readonly string[]): GridLayout | null {
  const spec = root.grid_specification as Json;
  const fields = (Array.isArray(root.grid_field) ? root.grid_field : [root.grid_field]).filter(isObject);
  const at = (field: string) => num(fields.find((f) => String(f.name).toUpperCase() === field)?.index) - 1;
  const [iLon, iLat, ...columns] = ['LON', 'LAT', ...names].map(at);
  const nx = num(spec.nlon);
  const ny = num(spec.nlat);
  const lonMin = num(spec.lon_min);
  const latMax = num(spec.lat_max);
  const dLonDeg = (num(spec.lon_max) - lonMin) / (nx - 1);
  const dLatDeg = (latMax - num(spec.lat_min)) / (ny - 1);
  if (
    ![iLon, iLat, ...columns].every((i) => i >= 0) ||
    !(nx >= 2 && ny >= 2) ||
    ![lonMin, latMax, dLonDeg, dLatDeg].every(Number.isFinite)
  )
    return null;
  return { nx, ny, lonMin, latMax, dLonDeg, dLatDeg, iLon, iLat, columns };
}

/**
 * Calls `node(k, row)` for every data row with its node index k (row 0 the northernmost), placing
 * each row by its own LON/LAT rather than trusting the row order.
 */
function eachNode(root: Json, g: GridLayout, node: (k: number, row: string[]) => void): void {
  const width = Math.max(g.iLon, g.iLat, ...g.columns);
  for (const line of String(root.grid_data).split('\n')) {
    const v = line.trim().split(/\s+/);
    if (v.length <= width) continue;
    const i = Math.round((Number(v[g.iLon]) - g.lonMin) / g.dLonDeg);
    const j = Math.round((g.latMax - Number(v[g.iLat])) / g.dLatDeg);
    if (i >= 0 && i < g.nx && j >= 0 && j < g.ny) node(j * g.nx + i, v);
  }
}

function gridOf(root: Json, name: string): MmiGrid {
  const g = gridLayoutOf(root, ['MMI']);
  if (!g)
    throw new CatintelError(
      'invalid_input',
      `--shakemap ${name}: grid.xml needs LON, LAT and MMI grid fields and a complete <grid_specification>`,
    );
  const [iMmi] = g.columns;
  const mmi = new Float64Array(g.nx * g.ny).fill(NaN);
  eachNode(root, g, (k, v) => (mmi[k] = Number(v[iMmi])));
  return { nx: g.nx, ny: g.ny, lonMin: g.lonMin, latMax: g.latMax, dLonDeg: g.dLonDeg, dLatDeg: g.dLatDeg, mmi };
}

/**
 * The PGA and STDPGA fields of a grid.xml (loss footprints read them). PGA is in %g in every ShakeMap
 * grid.xml, STDPGA in ln units; a grid without STDPGA is refused, since its uncertainty is what the loss
 * spreads over.
 */
export function parseShakeMapPga(text: string, name: string): PgaGrid {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const grid = pgaOfRoot(gridRoot(body.trimStart(), name));
  if (!grid)
    throw new CatintelError(
      'invalid_input',
      `--shakemap ${name}: a loss needs a ShakeMap grid.xml with LON, LAT, PGA and STDPGA grid fields and a complete <grid_specification>`,
    );
  return grid;
}

/** The PGA grid of a parsed grid.xml, or null when it lacks PGA or STDPGA (or a complete grid specification). */
function pgaOfRoot(root: Json): PgaGrid | null {
  const g = gridLayoutOf(root, ['PGA', 'STDPGA']);
  if (!g) return null;
  const [iPga, iStd] = g.columns;
  const { nx, ny, lonMin, latMax, dLonDeg, dLatDeg } = g;
  const pgaG = new Float64Array(nx * ny).fill(NaN);
  const sigmaLn = new Float64Array(nx * ny).fill(NaN);
  eachNode(root, g, (k, v) => {
    pgaG[k] = Number(v[iPga]) / 100;
    sigmaLn[k] = Number(v[iStd]);
  });
  const ev = isObject(root.event) ? root.event : {};
  const lat = num(ev.lat);
  const lng = num(ev.lon);
  const magnitude = num(ev.magnitude);
  const depthKm = num(ev.depth);
  return {
    nx,
    ny,
    lonMin,
    latMax,
    dLonDeg,
    dLatDeg,
    pgaG,
    sigmaLn,
    version: root.shakemap_version !== undefined ? String(root.shakemap_version) : null,
    processedAt: typeof root.process_timestamp === 'string' ? root.process_timestamp : null,
    eventId: typeof ev.event_id === 'string' ? ev.event_id : typeof root.event_id === 'string' ? root.event_id : null,
    event: [lat, lng, magnitude].every(Number.isFinite)
      ? { lat, lng, magnitude, depthKm: Number.isFinite(depthKm) ? depthKm : NaN }
      : null,
  };
}

/** Reads `--shakemap FILE` (gzipped or not) as a PGA grid. */
export async function readShakeMapPgaFile(file: string): Promise<PgaGrid> {
  let bytes: Buffer;
  try {
    bytes = await fs.readFile(file);
  } catch {
    throw new CatintelError('invalid_input', `cannot read --shakemap ${file}; pass a USGS ShakeMap grid.xml`);
  }
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) bytes = gunzipSync(bytes);
  const text = bytes.toString('utf8');
  if (
    !text
      .trimStart()
      .replace(/^\uFEFF/, '')
      .startsWith('<')
  )
    throw new CatintelError(
      'invalid_input',
      `--shakemap ${file}: a loss needs the ShakeMap grid.xml (its PGA and STDPGA); cont_mmi.json holds contours only`,
    );
  return parseShakeMapPga(text, file);
}
