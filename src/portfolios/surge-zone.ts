/**
 * Where storm surge can reach a location, for surge (OED WSS) exposure: a hurricane's wind rings reach far
 * inland, surge does not. A location counts for WSS only inside a surge ring (an NWS Storm Surge Warning or
 * Watch area) or in the surge-prone zone: within SURGE_REACH_KM of the sea coast, the reach of the hazard
 * scores' storm_surge taper (src/reference-data/coast.ts, docs/scoring.md), measured here from the location itself
 * to the same coastline (the outer boundary of the us-atlas county mesh, less land borders and Great Lakes
 * shores). A distance proxy, not an elevation model: it is generous (60 km takes in Lakeland, 48 km from the
 * Gulf) so that it never drops a coastal location, and it keeps Orlando (69 km) out.
 */
import Flatbush from 'flatbush';
import { coastVertices, SURGE_REACH_KM } from '../reference-data/coast.js';
import { flatDistanceKm } from '../reference-data/cell-query.js';

export { SURGE_REACH_KM };

interface CoastIndex {
  vertices: Array<[number, number]>;
  tree: Flatbush;
}

let coast: CoastIndex | undefined;

/** The coastline's vertices in an R-tree, built once (about 0.4 s) on the first surge question. */
function coastIndex(): CoastIndex {
  if (coast) return coast;
  const vertices = coastVertices();
  const tree = new Flatbush(vertices.length);
  for (const [lng, lat] of vertices) tree.add(lng, lat, lng, lat);
  tree.finish();
  coast = { vertices, tree };
  return coast;
}

/** Distance (km) from a point to the nearest coast vertex, or Infinity beyond SURGE_REACH_KM. */
export function coastDistanceKmAt(lat: number, lng: number): number {
  const { vertices, tree } = coastIndex();
  const dLat = SURGE_REACH_KM / 111;
  const dLng = dLat / Math.max(0.1, Math.cos((lat * Math.PI) / 180));
  let best = Infinity;
  for (const k of tree.search(lng - dLng, lat - dLat, lng + dLng, lat + dLat)) {
    const d = flatDistanceKm(lat, lng, vertices[k][1], vertices[k][0]);
    if (d < best) best = d;
  }
  return best <= SURGE_REACH_KM ? best : Infinity;
}

export function isSurgeProne(lat: number, lng: number): boolean {
  return coastDistanceKmAt(lat, lng) <= SURGE_REACH_KM;
}

/** A ring that is itself a surge area: an NWS Storm Surge Warning/Watch polygon, or a ring of kind storm_surge. */
export function isSurgeRing(ring: { kind: string; label: string }): boolean {
  return ring.kind === 'storm_surge' || /storm surge/i.test(ring.label);
}
