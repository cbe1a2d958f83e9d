/**
 * The risk of each item, for the SELT's number of affected risks (sidx -4): Oasis counts a risk as a
 * location's building, the (loc_id, building_id) pair of gul_summary_map.csv, so a location whose
 * building, contents and BI are all hit counts once, not three times.
 */
import type { Items, RiskMap } from '../domain/types.js';

/** The risk of each item, from the gul summary map's item_id, loc_id and building_id columns. */
export function riskMap(itemId: Float64Array, loc: Float64Array, building: Float64Array, items: Items): RiskMap {
  const riskOfItemId = new Map<number, number>();
  const riskOfPair = new Map<string, number>();
  for (let r = 0; r < itemId.length; r++) {
    const key = `${loc[r]},${building[r]}`;
    let risk = riskOfPair.get(key);
    if (risk === undefined) riskOfPair.set(key, (risk = riskOfPair.size));
    riskOfItemId.set(itemId[r], risk);
  }
  const riskOf = new Int32Array(items.itemId.length);
  for (let i = 0; i < riskOf.length; i++) riskOf[i] = riskOfItemId.get(items.itemId[i]) ?? -1;
  return { riskOf, risks: riskOfPair.size };
}
