/** Labels, names and record pieces shared by the NHC wire formats (docs/sources/nhc.md). */
import type { Observation, QuadrantRadiiNm } from '../domain/event.js';

/**
 * Severity label from 1-min sustained wind (kt): the Saffir–Simpson Hurricane Wind Scale (NHC; docs/methods.md
 * #hurricane-wind) for hurricanes, NHC's depression/storm classes below it.
 */
export function saffirSimpsonLabel(windKt: number): string {
  if (windKt >= 137) return 'Category 5';
  if (windKt >= 113) return 'Category 4';
  if (windKt >= 96) return 'Category 3';
  if (windKt >= 83) return 'Category 2';
  if (windKt >= 64) return 'Category 1';
  if (windKt >= 34) return 'Tropical Storm';
  return 'Tropical Depression';
}

/**
 * Names of system types: ATCF best-track TY codes (HU, TY, ST, TS, SS, TD, SD, EX, LO, DB, WV, ...) and
 * the CurrentStorms.json `classification` codes (HU, TS, TD, STS, STD, PTC).
 */
const TYPE_NAMES: Record<string, string> = {
  HU: 'Hurricane',
  TY: 'Typhoon',
  ST: 'Super Typhoon',
  TS: 'Tropical Storm',
  SS: 'Subtropical Storm',
  STS: 'Subtropical Storm',
  TD: 'Tropical Depression',
  SD: 'Subtropical Depression',
  STD: 'Subtropical Depression',
  PTC: 'Post-Tropical Cyclone',
  PT: 'Post-Tropical Cyclone',
  EX: 'Post-Tropical Cyclone',
  LO: 'Low',
  DB: 'Disturbance',
  WV: 'Tropical Wave',
};

export function typeName(code: string): string {
  return TYPE_NAMES[code] ?? 'Tropical Cyclone';
}

/** Tropical and subtropical cyclone types (ATCF TY), strongest first: the "peak" type names a best track. */
export const CYCLONE_TYPES_BY_RANK = ['ST', 'TY', 'HU', 'TS', 'SS', 'TD', 'SD'] as const;

/**
 * Types that say a once-tropical system is over or fading: extratropical (EX), post-tropical (PT, and
 * CurrentStorms' PTC), remnant low (LO), disturbance (DB), wave (WV), dissipating (DS), inland (IN).
 */
export const WINDING_TYPES: ReadonlySet<string> = new Set(['EX', 'PT', 'PTC', 'LO', 'DB', 'WV', 'DS', 'IN']);

/** "IAN" -> "Ian"; ATCF and NHC names are upper- or mixed-case single words. */
export function titleCase(name: string): string {
  return name
    .toLowerCase()
    .split(/([ -])/)
    .map((w) => (w.length > 0 ? w[0].toUpperCase() + w.slice(1) : w))
    .join('');
}

/** "Hurricane Ian (AL09 2022)" from type word, name and the ATCF id "al092022". */
export function stormTitle(typeWord: string, name: string | null, atcfId: string): string {
  const code = `${atcfId.slice(0, 4).toUpperCase()} ${atcfId.slice(4)}`;
  return name ? `${typeWord} ${titleCase(name)} (${code})` : `${typeWord} ${code}`;
}

/** One storm fix as observations: sustained wind always, central pressure when the source gives it. */
export function fixObservations(
  at: string,
  windKt: number,
  pressureMb: number | null,
  lat: number,
  lng: number,
): Observation[] {
  const out: Observation[] = [{ observedAt: at, kind: 'wind_speed_kt', value: windKt, unit: 'kt', lat, lng }];
  if (pressureMb !== null)
    out.push({ observedAt: at, kind: 'central_pressure_mb', value: pressureMb, unit: 'mb', lat, lng });
  return out;
}

/**
 * The storm's own size at one fix, when the record gives it: the radius of maximum wind and the 34/50/64-kt
 * wind radii, each the mean of its four quadrants (a quadrant with no such wind counts 0, as the rings'
 * calibration reads them). Trigger evaluation draws the site wind profile from these (docs/triggers.md).
 */
export function fixSizeObservations(
  at: string,
  rmwNm: number | null,
  radii: Partial<Record<34 | 50 | 64, QuadrantRadiiNm>>,
  lat: number,
  lng: number,
): Observation[] {
  if (rmwNm === null || !(rmwNm > 0)) return [];
  const out: Observation[] = [{ observedAt: at, kind: 'radius_max_wind_nm', value: rmwNm, unit: 'nm', lat, lng }];
  for (const kt of [34, 50, 64] as const) {
    const q = radii[kt];
    if (!q || !(q.ne > 0 || q.se > 0 || q.sw > 0 || q.nw > 0)) continue;
    out.push({
      observedAt: at,
      kind: `wind_radius_${kt}kt_nm`,
      value: (q.ne + q.se + q.sw + q.nw) / 4,
      unit: 'nm',
      lat,
      lng,
    });
  }
  return out;
}

/** What an ATCF storm id ('al092022') says: basin, storm number, year. */
export function atcfIdDetails(id: string): { atcf_id: string; basin: string; storm_number: number; year: number } {
  return {
    atcf_id: id,
    basin: id.slice(0, 2).toUpperCase(),
    storm_number: Number(id.slice(2, 4)),
    year: Number(id.slice(4)),
  };
}
