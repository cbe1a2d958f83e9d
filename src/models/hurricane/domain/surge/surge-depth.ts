/**
 * Depth of surge water at a building: the storm's surge height at its cell less the ground's elevation,
 * from the location's OED GroundElevation and GroundElevationUnit. There is no elevation model (DEM) in
 * the project's data, so a location without a usable GroundElevation gets no surge at all, with the
 * reason, never a depth that takes the ground to be at sea level.
 *
 * OED: GroundElevation is the grade at the building relative to the datum (Datum, e.g. NAVD88), default
 * -999 (unknown); GroundElevationUnit is OED's unit-of-measure code, 1 feet (OED's default) or 2 metres.
 * The surge heights are above mean sea level; NAVD88 differs from local mean sea level by a few tenths of
 * a metre on the Gulf and Atlantic coasts, which the model ignores.
 */

export const FEET_TO_M = 0.3048;
/** OED unit-of-measure codes for lengths that ground elevations are given in. */
const ELEVATION_UNIT_M: Record<number, number> = { 1: FEET_TO_M, 2: 1 };
/** OED's "unknown" for GroundElevation. */
const OED_UNKNOWN = -999;
/** The lowest ground on the US Gulf and Atlantic coasts is a few metres below sea level (New Orleans). */
const LOWEST_PLAUSIBLE_M = -10;

export interface GroundElevationFields {
  GroundElevation?: number | string | null;
  GroundElevationUnit?: number | string | null;
}

export type GroundElevation = { elevationM: number } | { reason: string };

/** The location's ground elevation in metres, or why surge cannot be modelled there. */
export function groundElevationM(fields: GroundElevationFields): GroundElevation {
  const raw = fields.GroundElevation;
  const value = raw === null || raw === undefined || raw === '' ? NaN : Number(raw);
  if (!Number.isFinite(value) || value === OED_UNKNOWN) {
    return { reason: 'storm surge not modelled: GroundElevation is not given (no elevation model is available; give GroundElevation and GroundElevationUnit, 1 feet or 2 metres)' };
  }
  const unitRaw = fields.GroundElevationUnit;
  const unit = unitRaw === null || unitRaw === undefined || unitRaw === '' ? 1 : Number(unitRaw);
  const toM = ELEVATION_UNIT_M[unit];
  if (toM === undefined) {
    return { reason: `storm surge not modelled: GroundElevationUnit ${String(unitRaw)} is not a length unit for elevations (use 1 feet or 2 metres)` };
  }
  const elevationM = value * toM;
  if (elevationM < LOWEST_PLAUSIBLE_M) {
    return { reason: `storm surge not modelled: GroundElevation ${value} (${elevationM.toFixed(1)} m) is below any US coastal ground; check its value and GroundElevationUnit` };
  }
  return { elevationM };
}

export type SurgeDepth = { depthM: number } | { reason: string };

/** Water depth (m) above the ground for a surge height (m above mean sea level); 0 where the ground is higher. */
export function surgeDepthAtLocation(surgeHeightM: number, fields: GroundElevationFields): SurgeDepth {
  const ground = groundElevationM(fields);
  if ('reason' in ground) return ground;
  return { depthM: Math.max(0, surgeHeightM - ground.elevationM) };
}

export interface FirstFloorFields extends GroundElevationFields {
  FirstFloorHeight?: number | string | null;
  FirstFloorHeightUnit?: number | string | null;
}

/**
 * The HAZUS flood curves read depth above the first floor. Where OED's FirstFloorHeight is not given the
 * floor is taken DEFAULT_FIRST_FLOOR_FT above the ground [judgement: a slab-on-grade floor one step up,
 * the commonest foundation of the Gulf and Florida housing stock; a floor raised on piers gives its
 * FirstFloorHeight].
 */
export const DEFAULT_FIRST_FLOOR_FT = 1;

export type FirstFloorElevation = { elevationM: number; groundM: number; firstFloorM: number; firstFloorGiven: boolean } | { reason: string };

/** The first floor's elevation above the datum (m): ground elevation plus first-floor height, or why surge is not modelled. */
export function firstFloorElevationM(fields: FirstFloorFields): FirstFloorElevation {
  const ground = groundElevationM(fields);
  if ('reason' in ground) return ground;
  const raw = fields.FirstFloorHeight;
  const value = raw === null || raw === undefined || raw === '' ? NaN : Number(raw);
  if (!Number.isFinite(value) || value === OED_UNKNOWN || value < 0) {
    const firstFloorM = DEFAULT_FIRST_FLOOR_FT * FEET_TO_M;
    return { elevationM: ground.elevationM + firstFloorM, groundM: ground.elevationM, firstFloorM, firstFloorGiven: false };
  }
  const unitRaw = fields.FirstFloorHeightUnit;
  const unit = unitRaw === null || unitRaw === undefined || unitRaw === '' ? 1 : Number(unitRaw);
  const toM = ELEVATION_UNIT_M[unit];
  if (toM === undefined) return { reason: `storm surge not modelled: FirstFloorHeightUnit ${String(unitRaw)} is not a length unit (use 1 feet or 2 metres)` };
  return { elevationM: ground.elevationM + value * toM, groundM: ground.elevationM, firstFloorM: value * toM, firstFloorGiven: true };
}
