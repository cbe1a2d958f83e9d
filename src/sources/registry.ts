/** The feeds catintel ingests, one module each. */
import type { SourceId } from '../domain/event.js';
import { SOURCE_IDS } from '../domain/event.js';
import { CatintelError } from '../errors.js';
import type { SourceModule } from './types.js';
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
  if ((SOURCE_IDS as readonly string[]).includes(id)) return SOURCES[id as SourceId];
  throw new CatintelError('invalid_parameter', `unknown source "${id}"; choose from ${SOURCE_IDS.join(', ')}`, {
    errors: [{ field: 'source', message: `must be one of ${SOURCE_IDS.join(', ')}` }],
  });
}
