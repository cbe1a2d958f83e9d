/**
 * The words a hurricane's or an earthquake's product version goes by (docs/event-diff.md): the NHC
 * advisory a GIS forecast came with, else the best track through its latest fix, else the USGS origin's
 * update. The footprints of a live loss name it (docs/event-loss.md), and each stored event version keeps it.
 */
import { eventDetails } from './event-details.js';

export interface VersionedFix {
  kind: string;
  observed_at: string;
  lat: number | null;
  lng: number | null;
}

/** A storm's: `NHC advisory N issued T`, or `best track through T (n fixes)` from its wind fixes. */
export function stormProductVersion(details: Record<string, unknown>, fixTimes: readonly string[]): string {
  if (details.feed === 'nhc_gis_5day' && details.advisory_number !== undefined)
    return `NHC advisory ${String(details.advisory_number)}${details.advisory_issued_at ? ` issued ${String(details.advisory_issued_at)}` : ''}`;
  const latest = fixTimes.length ? fixTimes[fixTimes.length - 1] : 'no fix';
  return `best track through ${latest} (${fixTimes.length} fixes)`;
}

/** Any stored event's product version, from its row and observations. */
export function productVersionOf(
  row: { event_type: string; details: string; severity: number; lat: number; lng: number; updated_at: string },
  obs: readonly VersionedFix[],
): string {
  const d = eventDetails(row.details);
  if (row.event_type === 'hurricane') {
    const times = [
      ...new Set(obs.filter((o) => o.kind === 'wind_speed_kt' && o.lat !== null).map((o) => o.observed_at)),
    ].sort();
    return stormProductVersion(d, times);
  }
  return `USGS origin M${row.severity} at ${row.lat}, ${row.lng} (${String(d.usgs_status ?? 'status unstated')}, updated ${row.updated_at})`;
}
