/**
 * What an event footprint carries per site: the median ln PGA (g) and its σ (ln) for one rupture, from the same
 * ground-motion models and distances as the hazard curves. Probabilities over intensity bins follow from these
 * with the 3σ-truncated lognormal of exceedance.ts.
 */
import { flatDistanceKm } from '../../../reference-data/cell-query.js';
import { exceedanceProbability } from './exceedance.js';
import { groundMotion, REFERENCE_VS30, type GroundMotion } from './ground-motion.js';
import { faultDistances, pointRuptureDistances, type FaultRupture, type PointRupture } from './rupture-set.js';

export function siteGroundMotion(r: PointRupture | FaultRupture, lat: number, lng: number, vs30 = REFERENCE_VS30): GroundMotion {
  if ('planes' in r) return groundMotion(r.tectonic, r.magnitude, faultDistances(lat, lng, r), vs30);
  const repi = flatDistanceKm(r.lat, r.lng, lat, lng);
  // Angle between the rupture's strike and the direction to the site (north = 0°, east = 90°).
  const kx = Math.cos((((r.lat + lat) / 2) * Math.PI) / 180);
  const azimuth = Math.atan2((lng - r.lng) * kx, lat - r.lat);
  return groundMotion(r.tectonic, r.magnitude, pointRuptureDistances(repi, r.magnitude, azimuth - (r.strikeDeg * Math.PI) / 180), vs30);
}

/** Probability of each PGA bin [edges[i], edges[i+1]) (g) under the truncated lognormal; the last bin is open. */
export function binProbabilities(gm: GroundMotion, edgesG: readonly number[]): number[] {
  const exceed = edgesG.map((x) => exceedanceProbability(Math.log(x), gm.lnMedian, gm.sigma));
  return exceed.map((p, i) => p - (i + 1 < exceed.length ? exceed[i + 1] : 0));
}
