/**
 * The continental shelf in front of each stretch of the US Gulf and Atlantic coast, as a depth profile
 * (depth in metres at distances offshore in km). The shared data holds no bathymetry, so each coast
 * segment carries one documented profile: round values for the character of its shelf as the surge
 * literature describes it (Irish, Resio & Ratcliff 2008 contrast the wide, shallow Gulf shelf with
 * steep ones; the northern Gulf and the South Atlantic Bight are wide and shallow, the shelf off
 * south-east Florida and Cape Hatteras is a few km wide). The values are judgement, not read from a
 * chart or a bathymetry grid: a segment's surge is as good as its profile, and the profile is the first
 * thing to replace when a DEM/bathymetry source joins the shared data.
 */

export interface ShelfSegment {
  name: string;
  /** Which coast cells it covers (the first matching segment wins). */
  contains: (lat: number, lng: number) => boolean;
  /** [km offshore, depth m], increasing in both; the first point is the shoreline (0, 0). */
  profile: ReadonlyArray<readonly [number, number]>;
}

export const SHELF_SEGMENTS: readonly ShelfSegment[] = [
  {
    // Biscayne Bay: a shallow lagoon (2-4 m) some 15 km wide behind the keys and the reef, then the narrow
    // Atlantic shelf. Andrew's 1992 surge built across the bay onto the mainland shore of south Dade.
    name: 'Biscayne Bay (south Miami-Dade)',
    contains: (lat, lng) => lat >= 25.25 && lat < 25.85 && lng > -80.55 && lng < -80.1,
    profile: [[0, 0], [1, 2], [14, 3], [18, 15], [22, 200]],
  },
  {
    name: 'Florida Bay and the Keys',
    contains: (lat, lng) => lat < 25.25 || (lat < 25.9 && lng <= -80.45),
    profile: [[0, 0], [10, 2], [40, 5], [100, 30], [200, 100]],
  },
  {
    name: 'south-east Florida (Miami to Jupiter)',
    contains: (lat, lng) => lat < 27.2 && lng > -80.45,
    profile: [[0, 0], [1, 10], [5, 30], [15, 200]],
  },
  {
    name: 'east Florida (Jupiter to Jacksonville)',
    contains: (lat, lng) => lat < 30.7 && lng > -81.7,
    profile: [[0, 0], [3, 10], [40, 30], [100, 60], [130, 200]],
  },
  {
    name: 'west Florida shelf (Naples to Tampa Bay)',
    contains: (lat, lng) => lat < 28.6 && lng <= -81.7,
    profile: [[0, 0], [15, 10], [60, 20], [150, 50], [250, 100]],
  },
  {
    name: 'Big Bend of Florida (very wide and shallow)',
    contains: (lat, lng) => lat < 30.5 && lng > -84.6 && lng <= -82.5,
    profile: [[0, 0], [30, 10], [100, 25], [200, 60]],
  },
  {
    name: 'Florida Panhandle and Alabama',
    contains: (lat, lng) => lng > -88.4 && lng <= -84.6,
    profile: [[0, 0], [5, 10], [30, 30], [80, 100]],
  },
  {
    // Mississippi Sound and the Louisiana marsh lakes: 3-5 m of water behind the barrier islands, then the
    // wide, shallow northern Gulf shelf.
    name: 'Mississippi, Louisiana (wide, shallow northern Gulf shelf)',
    contains: (lat, lng) => lng > -93.8 && lng <= -88.4,
    profile: [[0, 0], [15, 4], [40, 10], [100, 25], [170, 100]],
  },
  {
    name: 'Texas',
    contains: (lat, lng) => lng <= -93.8,
    profile: [[0, 0], [10, 10], [60, 30], [130, 100]],
  },
  {
    name: 'Georgia and South Carolina (South Atlantic Bight)',
    contains: (lat) => lat < 33.85,
    profile: [[0, 0], [10, 10], [50, 20], [120, 50], [140, 200]],
  },
  {
    name: 'North Carolina (narrow at Cape Hatteras)',
    contains: (lat) => lat < 36.6,
    profile: [[0, 0], [5, 10], [30, 30], [60, 100]],
  },
  {
    name: 'Virginia to Maine (Mid-Atlantic Bight and New England)',
    contains: () => true,
    profile: [[0, 0], [5, 10], [40, 30], [120, 100]],
  },
];

export function shelfSegmentAt(lat: number, lng: number): ShelfSegment {
  return SHELF_SEGMENTS.find((s) => s.contains(lat, lng)) ?? SHELF_SEGMENTS[SHELF_SEGMENTS.length - 1];
}

/** Depth (m) at xKm offshore: linear between the profile's points, its last depth beyond them. */
export function depthAt(profile: ShelfSegment['profile'], xKm: number): number {
  if (xKm <= 0) return 0;
  for (let i = 1; i < profile.length; i++) {
    const [x1, d1] = profile[i];
    if (xKm <= x1) {
      const [x0, d0] = profile[i - 1];
      return d0 + ((d1 - d0) * (xKm - x0)) / (x1 - x0);
    }
  }
  return profile[profile.length - 1][1];
}
