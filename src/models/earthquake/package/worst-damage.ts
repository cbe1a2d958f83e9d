/**
 * The most any of the model's vulnerabilities loses at each PGA intensity bin: the largest HAZUS mean
 * damage ratio over every building type, code level, occupancy and coverage. The footprint drops an
 * event's cell when even this building's expected damage there is negligible (event-footprint.ts), so
 * what is dropped is bounded for every location a package can key.
 */
import { intensityBins } from '../domain/intensity-bins.js';
import { BUILDING_TYPES, OCCUPANCIES } from '../domain/vulnerability/building-types.js';
import { hazusMeanDamageRatio } from '../domain/vulnerability/hazus-damage.js';
import { fragilityFor, stateDamageRatios, type HazusEarthquakeData } from '../domain/vulnerability/vulnerability-table.js';

/** worst[intensityBinId - 1]: the largest mean damage ratio of any vulnerability at the bin's PGA. */
export function worstMeanDamageByBin(data: HazusEarthquakeData): Float64Array {
  const bins = intensityBins();
  const worst = new Float64Array(bins.length);
  for (const buildingType of BUILDING_TYPES) {
    for (const codeLevel of buildingType.levels) {
      for (const occupancy of OCCUPANCIES) {
        for (const coverageType of [1, 3, 4]) {
          const key = { buildingType, codeLevel, occupancy, coverageType };
          const f = fragilityFor(key, data);
          const ratios = stateDamageRatios(key, data);
          bins.forEach((b, i) => (worst[i] = Math.max(worst[i], b.representativeG > 0 ? hazusMeanDamageRatio(f, ratios, b.representativeG) : 0)));
        }
      }
    }
  }
  return worst;
}
