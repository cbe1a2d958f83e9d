/**
 * What the ring builders (src/domain/rings/) take besides the record, for ingest, the trigger evaluation,
 * the backtest and the scenarios alike. The hurricane fallback (a storm without
 * published radii) runs the hazard baseline's own calibrated wind profile, so rings and scores agree:
 * the factor is read from the baseline grid scoring reads (`hurricane_wind.radius_scale`, fitted by
 * `catintel data build` to the HURDAT2 64-kt radii), and only when a record needs it.
 */
import { loadBaselineGrid } from './load-baseline.js';
import type { RingOptions } from '../domain/rings/index.js';
import { CatintelError } from '../errors.js';

const PARAM = 'hurricane_wind.radius_scale';

export function baselineRingOptions(baselineDir?: string): RingOptions {
  let scale: number | undefined;
  return {
    hurricaneRadiusScale: () => (scale ??= radiusScaleOf(baselineDir)),
  };
}

function radiusScaleOf(baselineDir: string | undefined): number {
  let value: number | undefined;
  try {
    value = loadBaselineGrid(baselineDir).header.params[PARAM];
  } catch (err) {
    throw new CatintelError(
      'internal_error',
      `the hurricane wind rings of a storm without radii need the hazard baseline (${(err as Error).message})`,
    );
  }
  if (!(typeof value === 'number' && value > 0)) {
    throw new CatintelError(
      'internal_error',
      `the hazard baseline has no ${PARAM}; rebuild it with \`catintel data build\``,
    );
  }
  return value;
}
