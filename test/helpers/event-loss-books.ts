/**
 * The small OED books the live-loss tests run: masonry homes across Lee County, Florida (Ian 2022) and wood
 * homes around the San Francisco Bay (Loma Prieta 1989). One definition, so every test that names a home
 * means the same building at the same place.
 */
export const OED_LOCATION_HEADER =
  'PortNumber,AccNumber,LocNumber,Latitude,Longitude,CountryCode,OccupancyCode,ConstructionCode,LocPerilsCovered,BuildingTIV,ContentsTIV,BITIV,LocCurrency';

/** Cape Coral, Fort Myers, Fort Myers Beach, Iona, Bonita Springs, Lehigh Acres, Estero: masonry homes. */
const LEE_COUNTY: [string, number, number][] = [
  ['CC1', 26.5629, -81.9495],
  ['CC2', 26.64, -81.98],
  ['FM1', 26.6406, -81.8723],
  ['FM2', 26.58, -81.85],
  ['FMB', 26.452, -81.948],
  ['ION', 26.52, -81.93],
  ['BON', 26.3398, -81.7787],
  ['LEH', 26.625, -81.624],
  ['EST', 26.4381, -81.8068],
  ['NFM', 26.68, -81.9],
];

/** Santa Cruz, Watsonville, San Jose, Oakland, San Francisco Marina, Hollister, Los Gatos, Palo Alto: wood homes. */
const BAY_AREA: [string, number, number][] = [
  ['SCZ', 36.9741, -122.0308],
  ['WAT', 36.9102, -121.7569],
  ['SJ', 37.3382, -121.8863],
  ['OAK', 37.8044, -122.2712],
  ['SFM', 37.8037, -122.4368],
  ['HOL', 36.8525, -121.4016],
  ['LGT', 37.2358, -121.9624],
  ['PA', 37.4419, -122.143],
];

/** The Lee County homes' coordinates (latitude, longitude). */
export const LEE_HOMES: [number, number][] = LEE_COUNTY.map(([, lat, lng]) => [lat, lng]);

const pick = (homes: [string, number, number][], names?: string[]) =>
  names ? names.map((n) => homes.find((h) => h[0] === n)!) : homes;

/** The Lee County homes as OED rows (all ten, or those named, in the order named). */
export function leeCountyRows(names?: string[]): string[] {
  return pick(LEE_COUNTY, names).map(
    ([n, lat, lng]) => `1,LEE,${n},${lat},${lng},US,1050,5100,WTC;WSS,400000,100000,0,USD`,
  );
}

/** The Bay Area homes as OED rows (all eight, or those named). */
export function bayAreaRows(names?: string[]): string[] {
  return pick(BAY_AREA, names).map(([n, lat, lng]) => `1,BAY,${n},${lat},${lng},US,1050,5050,QQ1,500000,100000,0,USD`);
}
