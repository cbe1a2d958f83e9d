/** An Oasis keys table (LocID, PerilID, CoverageTypeID, AreaPerilID, VulnerabilityID) as columns. */
export interface KeysTable {
  locId: Int32Array;
  perilId: string[];
  coverageTypeId: Int32Array;
  areaPerilId: Float64Array;
  vulnerabilityId: Float64Array;
}

export const KEYS_HEADER = 'LocID,PerilID,CoverageTypeID,AreaPerilID,VulnerabilityID';
