/**
 * Wildfire rings (docs/methods.md#wildfire-rings): the fire itself, then ember/spotting bands around it.
 * - The fire: the mapped perimeter when WFIGS has one; otherwise a circle with the fire's reported area,
 *   r = sqrt(acres * 0.00404686 / pi) km (1 acre = 0.00404686 km2, exact by the US survey definition to
 *   6 digits). A circle of equal area is a placeholder: real fires are elongated downwind.
 * - Bands measured from the fire's edge: short-range spotting 0.1 km and long-range spotting 0.5 km
 *   (Beverly et al. 2010, Int. J. Wildland Fire 19:299-313, [U] in docs/methods.md#unverified-values: distances not re-checked
 *   against the paper), and a 2 km ember watch ring (upper end of the 1.5-2 km wind-driven ember range,
 *   grey literature, [U]). Beverly's 30 m radiant-heat band sits inside the 0.1 km band and is not drawn.
 * No wind is known here, so the bands are not stretched downwind (the LB ellipse of §4 is not applied).
 */
import type { Feature, MultiPolygon, Polygon } from 'geojson';
import { buffer } from '@turf/buffer';
import type { Ring, RingInput } from '../event.js';
import { circlePolygon } from '../../lib/geo.js';
import { normalizePolygon } from './polygon.js';

export const KM2_PER_ACRE = 0.00404686;

/** Ember/spotting bands: distance from the fire's edge (km), innermost first. */
export const EMBER_BANDS_KM = [
  { km: 0.1, label: 'Short-range spotting zone (within 0.1 km of the fire)' },
  { km: 0.5, label: 'Long-range spotting zone (within 0.5 km of the fire)' },
  { km: 2, label: 'Ember watch zone (within 2 km of the fire)' },
] as const;

/** Radius (km) of the circle whose area equals the fire's reported acres. */
export function areaEquivalentRadiusKm(acres: number): number {
  return Math.sqrt((acres * KM2_PER_ACRE) / Math.PI);
}

/**
 * Without a mapped perimeter every ring is an estimate (`estimate: true`): when the incident's perimeter
 * arrives from the other WFIGS layer it replaces them, and a later point update does not bring them back.
 */
export function wildfireRings(
  input: Extract<RingInput, { kind: 'wildfire' }>,
  center: { lat: number; lng: number },
): Ring[] {
  const perimeter = input.perimeter ? normalizePolygon(input.perimeter) : null;
  if (perimeter) return [perimeterRing(perimeter, input.acres), ...bandsAroundPerimeter(perimeter)];
  const acres = input.acres !== null && Number.isFinite(input.acres) && input.acres > 0 ? input.acres : null;
  const r0 = acres === null ? 0 : areaEquivalentRadiusKm(acres);
  const rings: Ring[] = [];
  if (acres !== null) {
    rings.push({
      kind: 'fire_perimeter',
      label: `Fire area as a circle of ${fmtAcres(acres)} acres (no mapped perimeter)`,
      threshold: null,
      unit: null,
      radiusKm: round3(r0),
      geometry: circlePolygon(center.lat, center.lng, r0),
      estimate: true,
    });
  }
  for (const b of EMBER_BANDS_KM) {
    rings.push({
      kind: 'ember_zone',
      label: acres === null ? `${b.label}; fire size unknown, measured from the point of origin` : b.label,
      threshold: b.km,
      unit: 'km',
      radiusKm: round3(r0 + b.km),
      geometry: circlePolygon(center.lat, center.lng, r0 + b.km),
      estimate: true,
    });
  }
  return rings;
}

function perimeterRing(geometry: Polygon | MultiPolygon, acres: number | null): Ring {
  const label =
    acres !== null && acres > 0 ? `Mapped fire perimeter (${fmtAcres(acres)} acres)` : 'Mapped fire perimeter';
  return { kind: 'fire_perimeter', label, threshold: null, unit: null, radiusKm: null, geometry };
}

function bandsAroundPerimeter(perimeter: Polygon | MultiPolygon): Ring[] {
  const f: Feature<Polygon | MultiPolygon> = { type: 'Feature', properties: {}, geometry: perimeter };
  const rings: Ring[] = [];
  for (const b of EMBER_BANDS_KM) {
    const out = buffer(f, b.km, { units: 'kilometers' }) as Feature<Polygon | MultiPolygon> | undefined;
    const geometry = out?.geometry ? normalizePolygon(out.geometry) : null;
    if (geometry)
      rings.push({ kind: 'ember_zone', label: b.label, threshold: b.km, unit: 'km', radiusKm: null, geometry });
  }
  return rings;
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;
const fmtAcres = (a: number) => (a >= 100 ? Math.round(a).toLocaleString('en-US') : String(Math.round(a * 100) / 100));
