/**
 * Where an NWS alert is. Storm-based warnings (flash flood, severe thunderstorm, tornado, ...) carry
 * their own Polygon and we keep it. Zone-based products (heat, winter, flood watches, ...) come with
 * geometry null and name forecast zones (UGC) and counties (SAME). We locate those by the counties
 * their SAME codes name, merged from us-atlas shapes. That is an approximation: a forecast zone is not
 * a county (zones split mountain and coastal counties), and a SAME code whose first digit is 1-9 means
 * only part of the county; we take the whole county either way.
 */
import type { MultiPolygon, Polygon } from 'geojson';
import { centerOfMass } from '@turf/center-of-mass';
import { normalizePolygon } from '../domain/rings/polygon.js';
import { round6 } from '../lib/geo.js';
import { countiesShape, countyId } from './reference/counties.js';

/**
 * SAME "state" numbers that are marine areas, not states (NWS Directive 10-1712 / NWR SAME code list):
 * 57 Pacific coast, 58 Alaska waters, 59 Hawaii waters, 61 American Samoa waters, 65 Marianas waters,
 * 73/75 western/south Atlantic, 77 Gulf of America, 91-98 Great Lakes and the St. Lawrence.
 */
const MARINE_STATES = new Set([
  '57',
  '58',
  '59',
  '61',
  '65',
  '73',
  '75',
  '77',
  '91',
  '92',
  '93',
  '94',
  '95',
  '96',
  '97',
  '98',
]);

export type AlertLocation =
  | {
      ok: true;
      geometry: Polygon | MultiPolygon;
      lat: number;
      lng: number;
      locatedBy: 'polygon' | 'counties';
      counties: string[];
      unresolvedSame: string[];
    }
  | { ok: false; reason: string };

export function locateAlert(geometry: unknown, same: unknown): AlertLocation {
  const geo = geometry as { type?: unknown; coordinates?: unknown } | null;
  if (geo && (geo.type === 'Polygon' || geo.type === 'MultiPolygon') && Array.isArray(geo.coordinates)) {
    const g = normalizePolygon(geo as Polygon | MultiPolygon);
    if (!g) return { ok: false, reason: 'alert polygon has no valid ring' };
    const [lng, lat] = centerOfMass(g).geometry.coordinates;
    return {
      ok: true,
      geometry: g,
      lat: round6(lat),
      lng: round6(lng),
      locatedBy: 'polygon',
      counties: [],
      unresolvedSame: [],
    };
  }
  const codes = Array.isArray(same) ? same.filter((s): s is string => typeof s === 'string' && /^\d{6}$/.test(s)) : [];
  if (!codes.length) return { ok: false, reason: 'no polygon and no SAME county codes to locate the alert' };
  const counties: string[] = [];
  const unresolved: string[] = [];
  for (const code of codes) {
    const id = countyId(code.slice(1));
    if (id) counties.push(id);
    else unresolved.push(code);
  }
  const shape = countiesShape(counties);
  if (!shape) {
    const marine = unresolved.every((c) => MARINE_STATES.has(c.slice(1, 3)));
    const list = unresolved.slice(0, 5).join(', ') + (unresolved.length > 5 ? ', ...' : '');
    return {
      ok: false,
      reason: marine ? `marine zones only (SAME ${list}): no land county shape` : `no county shape for SAME ${list}`,
    };
  }
  return {
    ok: true,
    geometry: shape.geometry,
    lat: shape.lat,
    lng: shape.lng,
    locatedBy: 'counties',
    counties: [...new Set(counties)],
    unresolvedSame: unresolved,
  };
}
