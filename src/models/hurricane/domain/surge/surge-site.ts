/**
 * Where a location stands for the surge model: its wind-grid cell (the same areaperil as the wind) and its
 * ground elevation, or a keys error saying why surge is not modelled there. The shape is the model
 * package's keys error (status and message), so a book's surge keys can report each location the way the
 * wind keys do; surge at a location is never assumed from sea-level ground.
 */
import { areaperilId, cellOf } from '../footprint/grid.js';
import { groundElevationM, type GroundElevationFields } from './surge-depth.js';

/** OED peril code for storm surge (WSS, windstorm storm surge). */
export const SURGE_PERIL = 'WSS';

export interface SurgeLocationFields extends GroundElevationFields {
  Latitude?: number | string | null;
  Longitude?: number | string | null;
}

export type SurgeSite = { areaperil: number; elevationM: number } | { status: 'fail' | 'nomatch'; message: string };

export function surgeSiteOf(row: SurgeLocationFields): SurgeSite {
  const lat = row.Latitude === '' || row.Latitude == null ? NaN : Number(row.Latitude);
  const lng = row.Longitude === '' || row.Longitude == null ? NaN : Number(row.Longitude);
  if (!Number.isFinite(lat) || !Number.isFinite(lng)) return { status: 'fail', message: 'no Latitude/Longitude: the surge model places a location by its coordinates' };
  const cell = cellOf(lat, lng);
  if (!cell) return { status: 'nomatch', message: `(${lat}, ${lng}) is off the hurricane grid` };
  const ground = groundElevationM(row);
  if ('reason' in ground) return { status: 'nomatch', message: ground.reason };
  return { areaperil: areaperilId(cell.row, cell.col), elevationM: ground.elevationM };
}
