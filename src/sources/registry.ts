/** The feeds catintel ingests, one module each. */
import type { SourceId } from '../domain/event.js';
import type { SourceModule } from './types.js';
import { parseSourceId } from './source-ids.js';
import { usgsEarthquakes } from './usgs-earthquakes.js';
import { nwsAlerts } from './nws-alerts.js';
import { nhc } from './nhc.js';
import { nifcWildfires } from './nifc-wildfires.js';
import { usgsGauges } from './usgs-gauges.js';

export const SOURCES: Record<SourceId, SourceModule> = {
  'usgs-earthquakes': usgsEarthquakes,
  'nws-alerts': nwsAlerts,
  nhc,
  'nifc-wildfires': nifcWildfires,
  'usgs-gauges': usgsGauges,
};

export function sourceById(id: string): SourceModule {
  return SOURCES[parseSourceId(id)];
}
