/**
 * Published USGS NSHM 2018 PGA hazard at ten of the NSHM test sites, Vs30 760 m/s: the end-to-end test curves
 * of the USGS hazard code (usgs/nshmp-haz, test/gov/usgs/earthquake/nshmp/eq/model/data/e2e-{wus,ceus}-2018-<SITE>.json,
 * commits c01508cec367f559192f2605d15ba9b0f84064b8 and 7ba5cdad3171e488ad89a7522793c70389c81464; the western
 * sites from the 2018 WUS model, the eastern ones from the 2018 CEUS model). The values here are derived from
 * those curves by the same log–log interpolation our curves use, at 2 % and 10 % in 50 years. New Madrid's
 * curve is 4.33e-4 at 2.19 g and zero at 3.28 g, so its 2 % value is given as 2.19 g (a lower bound).
 */
export interface ReferencePga {
  site: string; // as in the NSHM sites file
  lat: number;
  lng: number;
  pga2in50: number; // g
  pga10in50: number; // g
}

export const NSHM2018_REFERENCE_PGA: readonly ReferencePga[] = [
  { site: 'Los Angeles CA', lat: 34.05, lng: -118.25, pga2in50: 0.839, pga10in50: 0.435 },
  { site: 'San Francisco CA', lat: 37.75, lng: -122.4, pga2in50: 0.736, pga10in50: 0.423 },
  { site: 'Seattle WA', lat: 47.6, lng: -122.3, pga2in50: 0.611, pga10in50: 0.306 },
  { site: 'Salt Lake City UT', lat: 40.75, lng: -111.9, pga2in50: 0.715, pga10in50: 0.228 },
  { site: 'Reno NV', lat: 39.55, lng: -119.8, pga2in50: 0.654, pga10in50: 0.343 },
  { site: 'New Madrid MO', lat: 36.6, lng: -89.55, pga2in50: 2.19, pga10in50: 0.779 },
  { site: 'New York NY', lat: 40.75, lng: -74.0, pga2in50: 0.172, pga10in50: 0.0444 },
  { site: 'Boston MA', lat: 42.35, lng: -71.05, pga2in50: 0.149, pga10in50: 0.0455 },
  { site: 'Chicago IL', lat: 41.85, lng: -87.65, pga2in50: 0.0722, pga10in50: 0.0242 },
  { site: 'New Orleans LA', lat: 29.95, lng: -90.05, pga2in50: 0.0507, pga10in50: 0.0174 },
];
