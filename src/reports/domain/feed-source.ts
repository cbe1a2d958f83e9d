/**
 * Where a figure of a report comes from: the feed that published the event, by the name its publisher uses,
 * with its URL and when catintel ingested it. The briefing and the ICS-209 both cite it.
 */
import type { EventProps } from './inputs.js';

export interface BlockSource {
  name: string;
  url?: string;
  ingested_at?: string;
}

export const FEED_NAMES: Record<string, string> = {
  'usgs-earthquakes': 'USGS Earthquake Hazards Program',
  nhc: 'NOAA National Hurricane Center (ATCF best track)',
  'nws-alerts': 'NOAA National Weather Service alerts',
  'nifc-wildfires': 'NIFC WFIGS (IRWIN)',
  'usgs-gauges': 'USGS Water Services (gauge readings)',
};

export function feedSource(e: EventProps): BlockSource {
  return { name: FEED_NAMES[e.source] ?? e.source, url: e.source_url, ingested_at: e.ingested_at };
}
