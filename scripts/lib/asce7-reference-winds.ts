/**
 * Published design wind speeds at the coastal cities of the hurricane wind check: Risk Category II basic
 * wind speeds (the 700-year peak 3-s gust at 33 ft / 10 m in open terrain, Exposure C), mph, as a
 * building code quotes them. Only values with a source we can name are here; the ASCE 7 maps themselves
 * (Figure 26.5-1B of ASCE 7-16 / 7-22, or the ASCE Hazard Tool) are not in the repository or the shared
 * data in a citable form, and a contour read from memory is not a reference. No city has a published
 * 100-year value here: ASCE 7-16 maps the 10-, 25-, 50- and 100-year MRIs only in its commentary
 * (Figure CC.2-1 ff., serviceability), which we do not have either.
 */
export interface Asce7Reference {
  /** City name as in COASTAL_CITIES (src/models/hurricane/wind-validation.ts). */
  city: string;
  /** Risk Category II basic wind speed, mph (700-year MRI). */
  mph700: number;
  source: string;
}

export const ASCE7_REFERENCE_WINDS: readonly Asce7Reference[] = [
  {
    city: 'Miami, FL',
    mph700: 175,
    source:
      'Florida Building Code, Building, 7th ed. (2020), §1620.2: Miami-Dade County Risk Category II ultimate design wind speed (the county-wide value of the High-Velocity Hurricane Zone, from the ASCE 7-16 map)',
  },
  {
    city: 'Houston, TX',
    mph700: 139,
    source:
      'City of Houston Public Works, Building Code Design Criteria (form CE-1110, rev. 09/2017): Risk Category II V_ult, ASCE 7-10 map',
  },
];
