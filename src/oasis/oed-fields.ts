/**
 * The OED 5.0.0 location-file fields (`input_fields.Loc` of OpenExposureData_5.0.0Spec.json as shipped in
 * ods-tools 5.0.9, BSD-3-Clause, github.com/OasisLMF/ODS_Tools), so the bulk scorer can tell an OED
 * column from a foreign one: ods-tools rejects a column that is not an OED field (OED, ODS_OpenExposureData), so a
 * foreign input column is written as FlexiLoc<Name>. Regenerate with the ods-tools venv of
 * scripts/conformance-oasis.sh when the OED version moves:
 *   .venv/bin/python -c "import json,ods_tools,os; p=os.path.join(os.path.dirname(ods_tools.__file__),'data','OpenExposureData_5.0.0Spec.json'); print([v['Input Field Name'] for v in json.load(open(p))['input_fields']['Loc'].values()])"
 */
export const OED_VERSION = '5.0.0';

export const OED_LOCATION_FIELDS: readonly string[] = [
  'PortNumber', 'AccNumber', 'LocNumber', 'LocName', 'LocGroup', 'CorrelationGroup', 'IsPrimary', 'IsTenant',
  'BuildingID', 'LocInceptionDate', 'LocExpiryDate', 'PercentComplete', 'CompletionDate', 'CountryCode', 'Latitude',
  'Longitude', 'StreetAddress', 'PostalCode', 'City', 'AreaCode', 'AreaName', 'GeogSchemeXX', 'GeogNameXX',
  'AddressMatch', 'GeocodeQuality', 'Geocoder', 'OrgOccupancyScheme', 'OrgOccupancyCode', 'OrgConstructionScheme',
  'OrgConstructionCode', 'OccupancyCode', 'ConstructionCode', 'YearBuilt', 'NumberOfStoreys', 'NumberOfBuildings',
  'FloorArea', 'FloorAreaUnit', 'LocUserDef1', 'LocUserDef2', 'LocUserDef3', 'LocUserDef4', 'LocUserDef5',
  'FlexiLocZZZ', 'LocPerilsCovered', 'BuildingTIV', 'OtherTIV', 'ContentsTIV', 'BITIV', 'BIPOI', 'LocCurrency',
  'LocGrossPremium', 'LocTax', 'LocBrokerage', 'LocNetPremium', 'NonCatGroundUpLoss', 'LocParticipation',
  'PayoutBasis', 'ReinsTag', 'LocDedCode1Building', 'LocDedType1Building', 'LocDed1Building', 'LocMinDed1Building',
  'LocMaxDed1Building', 'LocDedCode2Other', 'LocDedType2Other', 'LocDed2Other', 'LocMinDed2Other', 'LocMaxDed2Other',
  'LocDedCode3Contents', 'LocDedType3Contents', 'LocDed3Contents', 'LocMinDed3Contents', 'LocMaxDed3Contents',
  'LocDedCode4BI', 'LocDedType4BI', 'LocDed4BI', 'LocMinDed4BI', 'LocMaxDed4BI', 'LocDedCode5PD', 'LocDedType5PD',
  'LocDed5PD', 'LocMinDed5PD', 'LocMaxDed5PD', 'LocDedCode6All', 'LocDedType6All', 'LocDed6All', 'LocMinDed6All',
  'LocMaxDed6All', 'LocLimitCode1Building', 'LocLimitType1Building', 'LocLimit1Building', 'LocLimitCode2Other',
  'LocLimitType2Other', 'LocLimit2Other', 'LocLimitCode3Contents', 'LocLimitType3Contents', 'LocLimit3Contents',
  'LocLimitCode4BI', 'LocLimitType4BI', 'LocLimit4BI', 'LocLimitCode5PD', 'LocLimitType5PD', 'LocLimit5PD',
  'LocLimitCode6All', 'LocLimitType6All', 'LocLimit6All', 'BIWaitingPeriod', 'LocPeril', 'YearUpgraded',
  'SurgeLeakage', 'SprinklerType', 'PercentSprinklered', 'RoofCover', 'RoofYearBuilt', 'RoofGeometry',
  'RoofEquipment', 'RoofFrame', 'RoofMaintenance', 'BuildingCondition', 'RoofAttachedStructures', 'RoofDeck',
  'RoofPitch', 'RoofAnchorage', 'RoofDeckAttachment', 'RoofCoverAttachment', 'GlassType', 'LatticeType', 'FloodZone',
  'SoftStory', 'Basement', 'BasementLevelCount', 'WindowProtection', 'FoundationType', 'WallAttachedStructure',
  'AppurtenantStructure', 'ConstructionQuality', 'GroundEquipment', 'EquipmentBracing', 'Flashing', 'BuildingShape',
  'ShapeIrregularity', 'Pounding', 'Ornamentation', 'SpecialEQConstruction', 'Retrofit', 'CrippleWall',
  'FoundationConnection', 'ShortColumn', 'Fatigue', 'Cladding', 'BIPreparedness', 'BIRedundancy', 'FirstFloorHeight',
  'FirstFloorHeightUnit', 'Datum', 'GroundElevation', 'GroundElevationUnit', 'Tank', 'Redundancy',
  'InternalPartition', 'ExternalDoors', 'Torsion', 'MechanicalEquipmentSide', 'ContentsWindVuln',
  'ContentsFloodVuln', 'ContentsQuakeVuln', 'SmallDebris', 'FloorsOccupied', 'FloodDefenseHeight',
  'FloodDefenseHeightUnit', 'FloodDebrisResilience', 'BaseFloodElevation', 'BaseFloodElevationUnit',
  'BuildingHeight', 'BuildingHeightUnit', 'BuildingValuation', 'TreeExposure', 'Chimney', 'BuildingType',
  'Packaging', 'Protection', 'SalvageProtection', 'ValuablesStorage', 'DaysHeld', 'BrickVeneer', 'FEMACompliance',
  'CustomFloodSOP', 'CustomFloodZone', 'MultiStoryHall', 'BuildingExteriorOpening', 'ServiceEquipmentProtection',
  'TallOneStory', 'TerrainRoughness', 'Payroll', 'StaticMotorVehicle', 'CondTag', 'OEDVersion', 'IsAggregate',
  'OccupantPeriod', 'SoilType', 'SoilValue', 'NumberOfOccupants', 'OccupantUnderfive', 'OccupantOver65',
  'OccupantAge5to65', 'OccupantFemale', 'OccupantMale', 'OccupantOther', 'OccupantUrban', 'OccupantRural',
  'OccupantPoverty', 'OccupantRefugee', 'OccupantUnemployed', 'OccupantDisability', 'OccupantEthnicMinority',
  'OccupantTemporary', 'OriginalCurrency', 'RateOfExchange', 'OffshoreWaterDepth', 'SectionLength', 'PowerCapacity',
  'VulnerabilitySetID', 'BuildingFloodVuln', 'BIFloodVuln', 'Geom', 'CodeProvision', 'Anchorage',
  'DiameterOfPipeline', 'VoltageOfEnergy', 'PumpingCapacity', 'SoilLiquefiable', 'CommoditySchemeXX',
  'CommodityCodeXX', 'CommodityVintageXX', 'PVMounting', 'PVMaterial', 'PVStowing', 'PVTiltAngle', 'PVControlType',
  'PVGlassThickness', 'PVPanelArea', 'PVPanelAreaUnit', 'PVPanelYear',
];

/** Property-class fields with status R in OED 5.0.0: present and not blank in every row. */
export const OED_REQUIRED_LOCATION_FIELDS = ['PortNumber', 'AccNumber', 'LocNumber', 'CountryCode', 'LocPerilsCovered', 'LocCurrency'] as const;

/**
 * Repeating fields: the spec names them with an XX or ZZZ suffix (GeogSchemeXX, FlexiLocZZZ) and the
 * validator accepts any column whose name is such a stem followed by at least one character
 * (ods_tools OedSchema.column_to_field: case-insensitive, trimmed).
 */
const STEMS = OED_LOCATION_FIELDS.filter((f) => /(XX|ZZZ)$/.test(f)).map((f) => f.replace(/(XX|ZZZ)$/, '').toLowerCase());
const EXACT = new Set(OED_LOCATION_FIELDS.map((f) => f.toLowerCase()));

export function isOedLocationField(column: string): boolean {
  const c = column.trim().toLowerCase();
  if (EXACT.has(c)) return true;
  return STEMS.some((s) => c.length > s.length && c.startsWith(s));
}

const CANONICAL = new Map(OED_LOCATION_FIELDS.map((f) => [f.toLowerCase(), f]));

/** The spec's spelling of an OED field named in any case (`latitude` -> `Latitude`), or null. */
export function oedFieldName(column: string): string | null {
  return CANONICAL.get(column.trim().toLowerCase()) ?? null;
}

/** The OED location TIV field of each coverage type, in CoverageTypeID order (1 buildings, 2 other, 3 contents, 4 BI). */
export const COVERAGE_TIV_FIELDS = ['BuildingTIV', 'OtherTIV', 'ContentsTIV', 'BITIV'] as const;
