/**
 * Consequence rings per peril (docs/contract.md#events, docs/methods.md#earthquake-shaking). Each peril's builder is
 * a pure function from the source's RingInput to rings ordered innermost first, outermost last.
 */
import type { Ring, RingInput } from '../event.js';
import { earthquakeRings } from './earthquake.js';
import { hurricaneRings, type RadiusScale } from './hurricane.js';
import { polygonRings, splitAtAntimeridian } from './polygon.js';
import { wildfireRings } from './wildfire.js';
import { gaugeRings } from './gauge.js';

/** What the builders need beyond the record: the calibration the hurricane fallback shares with scoring. */
export interface RingOptions {
  hurricaneRadiusScale?: RadiusScale;
}

/** Every builder's rings, with any ring that crosses the antimeridian cut there into a MultiPolygon. */
export function buildRings(input: RingInput, center: { lat: number; lng: number }, opts: RingOptions = {}): Ring[] {
  return perilRings(input, center, opts).map((r) => {
    const geometry = splitAtAntimeridian(r.geometry);
    return geometry === r.geometry ? r : { ...r, geometry };
  });
}

function perilRings(input: RingInput, center: { lat: number; lng: number }, opts: RingOptions): Ring[] {
  switch (input.kind) {
    case 'earthquake':
      return earthquakeRings(input, center);
    case 'hurricane':
      return hurricaneRings(input, center, opts.hurricaneRadiusScale);
    case 'polygon':
      return polygonRings(input);
    case 'wildfire':
      return wildfireRings(input, center);
    case 'gauge':
      return gaugeRings(input, center);
    case 'none':
      return [];
  }
}
