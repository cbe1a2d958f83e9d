/**
 * NHC's local advisory times. Advisories state their time in the local zone of the basin's coast, as
 * the product header does: "200 PM PDT Mon Oct 08 2018" (GIS ADVDATE), "2:00 PM PDT Mon Oct 8" (RSS
 * nhc:datetime, which carries no year). We turn them into UTC with the zone abbreviation's fixed offset.
 */

/** UTC offsets (hours) of the zones NHC and CPHC products use (NWS Directive 10-601 product headers). */
const ZONE_OFFSET_H: Record<string, number> = {
  UTC: 0,
  GMT: 0,
  Z: 0,
  AST: -4,
  ADT: -3,
  EDT: -4,
  EST: -5,
  CDT: -5,
  CST: -6,
  MDT: -6,
  MST: -7,
  PDT: -7,
  PST: -8,
  HST: -10,
  HDT: -9,
  AKDT: -8,
  AKST: -9,
  CHST: 10,
  SST: -11,
};
const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];

// "200 PM PDT Mon Oct 08 2018", "2:00 PM PDT Mon Oct 8", "1100 AM HST SAT AUG 10 2019".
const LOCAL_TIME =
  /^(\d{1,2}):?(\d{2})\s*(AM|PM)\s+([A-Z]{1,4})\s+(?:[A-Z]{3}\s+)?([A-Z]{3})\s+(\d{1,2})(?:\s+(\d{4}))?$/i;

/**
 * ISO 8601 UTC for an NHC local time; null when unreadable. Without a year in the text, `yearOf` gives
 * it: the year that puts the time nearest to that instant (an advisory near New Year may be a year off).
 */
export function nhcLocalTime(text: string, yearOf?: Date): string | null {
  const m = LOCAL_TIME.exec(text.trim().replace(/\s+/g, ' '));
  if (!m) return null;
  const [, hh, mm, ampm, zone, mon, day, year] = m;
  const offsetH = ZONE_OFFSET_H[zone.toUpperCase()];
  const month = MONTHS.indexOf(mon.toUpperCase());
  const hour12 = Number(hh);
  if (offsetH === undefined || month < 0 || hour12 < 1 || hour12 > 12 || Number(mm) > 59) return null;
  const hour = (hour12 % 12) + (ampm.toUpperCase() === 'PM' ? 12 : 0);
  const at = (y: number) => Date.UTC(y, month, Number(day), hour - offsetH, Number(mm));
  let ms: number;
  if (year) ms = at(Number(year));
  else if (yearOf) {
    const y = yearOf.getUTCFullYear();
    ms = [y - 1, y, y + 1]
      .map(at)
      .reduce((best, t) => (Math.abs(t - yearOf.getTime()) < Math.abs(best - yearOf.getTime()) ? t : best));
  } else return null;
  return Number.isFinite(ms) ? new Date(ms).toISOString() : null;
}

/** 16-point compass direction ("NNE") -> degrees the storm moves toward; null when not one. */
export function compassDeg(dir: string): number | null {
  const points = ['N', 'NNE', 'NE', 'ENE', 'E', 'ESE', 'SE', 'SSE', 'S', 'SSW', 'SW', 'WSW', 'W', 'WNW', 'NW', 'NNW'];
  const i = points.indexOf(dir.trim().toUpperCase());
  return i < 0 ? null : i * 22.5;
}
