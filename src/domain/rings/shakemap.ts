/**
 * Earthquake rings from a USGS ShakeMap (docs/rings-earthquake-hurricane.md). A ShakeMap is the USGS's
 * own estimate of shaking, built from the recorded stations, "Did You Feel It?" reports, site amplification
 * and the finite fault; when one exists its MMI contours are far better rings than our intensity equation.
 * Two inputs, both reduced here to "the area where MMI >= level" for the ring levels VIII, VI and IV:
 *   - the MMI grid of `grid.xml`, contoured with d3-contour (marching squares, linear interpolation);
 *   - the contour lines of `cont_mmi.json`, closed into polygons.
 * Pure: no I/O.
 */
import { contours } from 'd3-contour';
import type { MultiPolygon, Polygon, Position } from 'geojson';
import type { Ring, ShakeMapAreas } from '../event.js';
import { normalizePolygon } from './polygon.js';
import type { GridGeometry } from '../grid-geometry.js';

/**
 * An MMI grid as ShakeMap's grid.xml lays it out: nx columns west to east starting at lonMin, ny rows north
 * to south starting at latMax, one value per node (row-major, north row first). NaN = no value.
 */
export interface MmiGrid extends GridGeometry {
  mmi: Float64Array;
}

/** 1e-5° ≈ 1 m: far finer than any ShakeMap (~1 km nodes), and it keeps the stored GeoJSON small. */
const round5 = (x: number) => Math.round(x * 1e5) / 1e5;

/**
 * The area where the grid's MMI >= each level, as one MultiPolygon per level (absent when the map never
 * reaches it). d3-contour puts node (i, j) at pixel (i + 0.5, j + 0.5), y down; the all-above case reaches
 * the pixel edges half a node beyond the grid, which we clamp to the grid's own extent.
 */
export function areasFromGrid(grid: MmiGrid, levels: readonly number[]): ShakeMapAreas['levels'] {
  const { nx, ny, lonMin, latMax, dLonDeg, dLatDeg } = grid;
  const lonMax = lonMin + (nx - 1) * dLonDeg;
  const latMin = latMax - (ny - 1) * dLatDeg;
  const values = Array.from(grid.mmi, (v) => (Number.isFinite(v) ? v : -1)); // missing nodes count as "below"
  const toLngLat = ([x, y]: Position): Position => [
    round5(Math.min(lonMax, Math.max(lonMin, lonMin + (x - 0.5) * dLonDeg))),
    round5(Math.min(latMax, Math.max(latMin, latMax - (y - 0.5) * dLatDeg))),
  ];
  const out: ShakeMapAreas['levels'] = [];
  for (const mmi of levels) {
    const [shape] = contours().size([nx, ny]).thresholds([mmi])(values);
    if (!shape || shape.coordinates.length === 0) continue;
    const geometry = normalizePolygon<MultiPolygon>({
      type: 'MultiPolygon',
      coordinates: shape.coordinates.map((poly) => poly.map((ring) => ring.map(toLngLat))),
    });
    if (geometry) out.push({ mmi, geometry });
  }
  return out;
}

/**
 * The area inside the contour lines drawn at one MMI value (cont_mmi.json). Lines cut by the map's edge
 * are first joined end to end, then closed with a straight segment. Which side is "above" is decided by
 * nesting (even-odd): a line inside no other line encloses the stronger shaking, a line inside one other is
 * a hole of it, and so on. That holds for ShakeMaps, whose intensity falls away from the rupture; a closed
 * contour around a pocket of weaker shaking that touches nothing else would be read the wrong way round.
 */
export function areaFromContourLines(lines: Position[][]): Polygon | MultiPolygon | null {
  const rings = chain(lines.map((l) => l.map((p) => [round5(p[0]), round5(p[1])])))
    .map(closeRing)
    .filter((r): r is Position[] => r !== null);
  if (rings.length === 0) return null;
  const depth = rings.map((r, i) => rings.filter((other, j) => j !== i && insideRing(r[0], other)).length);
  const polygons: Position[][][] = [];
  const polygonOf = new Map<number, Position[][]>();
  rings.forEach((r, i) => {
    if (depth[i] % 2 === 0) {
      const poly = [r];
      polygons.push(poly);
      polygonOf.set(i, poly);
    }
  });
  rings.forEach((r, i) => {
    if (depth[i] % 2 === 0) return;
    // The hole's parent is the innermost exterior that contains it: the container one level shallower.
    const parent = rings.findIndex((other, j) => j !== i && depth[j] === depth[i] - 1 && insideRing(r[0], other));
    polygonOf.get(parent)?.push(r);
  });
  return normalizePolygon<MultiPolygon>({ type: 'MultiPolygon', coordinates: polygons });
}

const same = (a: Position, b: Position) => a[0] === b[0] && a[1] === b[1];

/** Joins open lines that share an end point, so a contour cut into pieces becomes one line again. */
function chain(lines: Position[][]): Position[][] {
  const open = lines.filter((l) => l.length >= 2);
  const out: Position[][] = [];
  while (open.length > 0) {
    let line = open.shift()!;
    for (let joined = true; joined && !same(line[0], line[line.length - 1]);) {
      joined = false;
      for (let k = 0; k < open.length; k++) {
        const o = open[k];
        const [head, tail] = [line[0], line[line.length - 1]];
        if (same(tail, o[0])) line = line.concat(o.slice(1));
        else if (same(tail, o[o.length - 1])) line = line.concat(o.slice(0, -1).reverse());
        else if (same(head, o[o.length - 1])) line = o.concat(line.slice(1));
        else if (same(head, o[0])) line = o.slice().reverse().concat(line.slice(1));
        else continue;
        open.splice(k, 1);
        joined = true;
        break;
      }
    }
    out.push(line);
  }
  return out;
}

function closeRing(line: Position[]): Position[] | null {
  const ring = same(line[0], line[line.length - 1]) ? line : [...line, line[0]];
  return new Set(ring.map((p) => `${p[0]},${p[1]}`)).size >= 3 ? ring : null;
}

/** Ray casting in the [lng, lat] plane (contours span a few degrees: planar is exact enough). */
function insideRing([x, y]: Position, ring: Position[]): boolean {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i];
    const [xj, yj] = ring[j];
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/**
 * Rings innermost (VIII) to outermost (IV) from a ShakeMap's areas, labelled with the product's version so a
 * map legend shows where a ring comes from. No radius: these are not circles.
 */
export function shakemapRings(areas: ShakeMapAreas, labelOf: (mmi: number) => string): Ring[] {
  const suffix = areas.version ? `, USGS ShakeMap v${areas.version}` : ', USGS ShakeMap';
  return [...areas.levels]
    .sort((a, b) => b.mmi - a.mmi)
    .map((level) => ({
      kind: 'mmi',
      label: `${labelOf(level.mmi)}${suffix}`,
      threshold: level.mmi,
      unit: 'MMI',
      radiusKm: null,
      geometry: level.geometry,
    }));
}
