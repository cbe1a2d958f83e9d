/**
 * US state outlines for the event set's land mask, read from the us-atlas package (Census cartographic
 * boundaries at 1:10 million, clipped to the shoreline, so sounds and bays are water).
 */
import { createRequire } from 'node:module';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import type { StateShape } from './domain/track-set/land-mask.js';

const POSTAL_BY_FIPS: Record<string, string> = {
  '01': 'AL', '02': 'AK', '04': 'AZ', '05': 'AR', '06': 'CA', '08': 'CO', '09': 'CT', '10': 'DE', '11': 'DC', '12': 'FL',
  '13': 'GA', '15': 'HI', '16': 'ID', '17': 'IL', '18': 'IN', '19': 'IA', '20': 'KS', '21': 'KY', '22': 'LA', '23': 'ME',
  '24': 'MD', '25': 'MA', '26': 'MI', '27': 'MN', '28': 'MS', '29': 'MO', '30': 'MT', '31': 'NE', '32': 'NV', '33': 'NH',
  '34': 'NJ', '35': 'NM', '36': 'NY', '37': 'NC', '38': 'ND', '39': 'OH', '40': 'OK', '41': 'OR', '42': 'PA', '44': 'RI',
  '45': 'SC', '46': 'SD', '47': 'TN', '48': 'TX', '49': 'UT', '50': 'VT', '51': 'VA', '53': 'WA', '54': 'WV', '55': 'WI',
  '56': 'WY', '72': 'PR',
};

/** The contiguous states, DC and Puerto Rico (the land mask's box holds no others). */
export function usStateShapes(): StateShape[] {
  const require = createRequire(import.meta.url);
  const topo = require('us-atlas/states-10m.json') as Topology<{ states: GeometryCollection }>;
  const fc = feature(topo, topo.objects.states) as unknown as {
    features: Array<{ id: string; geometry: { type: string; coordinates: unknown } }>;
  };
  const out: StateShape[] = [];
  for (const f of fc.features) {
    const code = POSTAL_BY_FIPS[f.id];
    if (!code || code === 'AK' || code === 'HI') continue;
    const polygons = (f.geometry.type === 'Polygon' ? [f.geometry.coordinates] : f.geometry.coordinates) as Array<Array<Array<[number, number]>>>;
    out.push({ code, rings: polygons.flat() });
  }
  return out.sort((a, b) => (a.code < b.code ? -1 : 1));
}
