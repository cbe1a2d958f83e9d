/**
 * A coarse "is this plausibly in the US or its territories" test for feed coordinates. It catches the
 * classic bad rows (0,0 "null island", swapped lat/lng, a lost minus sign) without a shape lookup:
 * the 50 states, PR, USVI, Guam, the Northern Marianas and American Samoa all fall in
 * lat -15..72 with lng <= -64 (west of the USVI) or lng >= 144 (Guam/CNMI and the Aleutians past 180).
 */
export function isPlausibleUsPoint(lat: unknown, lng: unknown): lat is number {
  if (typeof lat !== 'number' || typeof lng !== 'number' || !Number.isFinite(lat) || !Number.isFinite(lng))
    return false;
  if (lat < -15 || lat > 72 || lng < -180 || lng > 180) return false;
  return lng <= -64 || lng >= 144;
}
