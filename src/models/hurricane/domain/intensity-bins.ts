/**
 * The hurricane model's intensity measure and its Oasis intensity bins, shared by the wind footprint
 * (which writes bin probabilities per cell) and the vulnerability (which gives a damage distribution
 * per bin). The measure is the one HAZUS-MH hurricane's building curves are indexed by: the peak 3-second
 * gust at 10 m in open terrain (z0 = 0.03 m), in miles per hour, so that the HAZUS curves are read at
 * the intensity they were derived for.
 *
 * Bin 1 holds every gust below 40 mph (no building damage in HAZUS, whose curves start at 50 mph);
 * bins 2..45 are 5 mph wide from 40 to 260 mph (fine enough that one bin moves a mean damage ratio by
 * well under a percentage point below 100 mph); bin 46 is everything at or above 260 mph.
 */
export const FIRST_EDGE_MPH = 40;
export const BIN_WIDTH_MPH = 5;
export const LAST_EDGE_MPH = 260;
/** Number of intensity bins, 1-based ids 1..INTENSITY_BIN_COUNT. */
export const INTENSITY_BIN_COUNT = 2 + (LAST_EDGE_MPH - FIRST_EDGE_MPH) / BIN_WIDTH_MPH;

export interface IntensityBin {
  id: number;
  fromMph: number; // inclusive
  toMph: number; // exclusive; Infinity for the last bin
  /** The gust a vulnerability reads for this bin: the midpoint, 0 below the first edge, the edge above the last. */
  representativeMph: number;
}

/** The bin (1-based id) holding a gust. */
export function binOfGust(mph: number): number {
  if (!(mph >= FIRST_EDGE_MPH)) return 1;
  if (mph >= LAST_EDGE_MPH) return INTENSITY_BIN_COUNT;
  return 2 + Math.floor((mph - FIRST_EDGE_MPH) / BIN_WIDTH_MPH);
}

export function intensityBins(): IntensityBin[] {
  const bins: IntensityBin[] = [{ id: 1, fromMph: 0, toMph: FIRST_EDGE_MPH, representativeMph: 0 }];
  for (let from = FIRST_EDGE_MPH; from < LAST_EDGE_MPH; from += BIN_WIDTH_MPH) {
    bins.push({ id: bins.length + 1, fromMph: from, toMph: from + BIN_WIDTH_MPH, representativeMph: from + BIN_WIDTH_MPH / 2 });
  }
  bins.push({ id: bins.length + 1, fromMph: LAST_EDGE_MPH, toMph: Infinity, representativeMph: LAST_EDGE_MPH });
  return bins;
}
