/**
 * The earthquake model's intensity measure and its Oasis intensity bins, shared by the footprint (which
 * gives each site probabilities over these bins from the ground motion's median and σ) and the
 * vulnerability (which gives a damage distribution per bin). The measure is peak ground acceleration in
 * g, the demand HAZUS's PGA-based building fragilities are written in.
 *
 * Bin 1 holds every PGA below 0.01 g (no building damage: HAZUS's lowest slight-damage median is 0.08 g
 * and its probability at 0.01 g is 1e-7); bins 2..51 are log-spaced, 20 to a decade, from 0.01 g
 * to 10^0.5 ≈ 3.16 g (each edge 12 % above the last: a bin spans 0.115 in ln PGA, under a third
 * of the dispersion of 0.4 every HAZUS PGA fragility has); bin 52 is everything at or above 3.16 g.
 */
export const FIRST_EDGE_G = 0.01;
export const BINS_PER_DECADE = 20;
export const DECADES = 2.5;
const STEPS = BINS_PER_DECADE * DECADES;

/** The bin edges (g), FIRST_EDGE_G .. 10^0.5, as the footprint's binProbabilities takes them. */
export const PGA_BIN_EDGES_G: readonly number[] = Array.from({ length: STEPS + 1 }, (_, k) => FIRST_EDGE_G * 10 ** (k / BINS_PER_DECADE));
export const LAST_EDGE_G = PGA_BIN_EDGES_G[STEPS];

/** Number of intensity bins, 1-based ids 1..INTENSITY_BIN_COUNT. */
export const INTENSITY_BIN_COUNT = STEPS + 2;

export interface IntensityBin {
  id: number;
  fromG: number; // inclusive
  toG: number; // exclusive; Infinity for the last bin
  /** The PGA a vulnerability reads for this bin: the geometric midpoint (the bins are log-spaced), 0 below the first edge, the edge above the last. */
  representativeG: number;
}

/** The bin (1-based id) holding a PGA in g. */
export function binOfPga(g: number): number {
  if (!(g >= FIRST_EDGE_G)) return 1;
  if (g >= LAST_EDGE_G) return INTENSITY_BIN_COUNT;
  const k = Math.floor(Math.log10(g / FIRST_EDGE_G) * BINS_PER_DECADE + 1e-12);
  // Guard the rounding at an edge: the bin's lower edge is at most g.
  return 2 + (PGA_BIN_EDGES_G[k] > g ? k - 1 : k);
}

export function intensityBins(): IntensityBin[] {
  const bins: IntensityBin[] = [{ id: 1, fromG: 0, toG: FIRST_EDGE_G, representativeG: 0 }];
  for (let k = 0; k < STEPS; k++) {
    const fromG = PGA_BIN_EDGES_G[k];
    const toG = PGA_BIN_EDGES_G[k + 1];
    bins.push({ id: bins.length + 1, fromG, toG, representativeG: Math.sqrt(fromG * toG) });
  }
  bins.push({ id: bins.length + 1, fromG: LAST_EDGE_G, toG: Infinity, representativeG: LAST_EDGE_G });
  return bins;
}
