/**
 * The Oasis model and input, held in typed arrays (column per field) so the kernel runs without
 * per-row objects. Field meanings follow the Oasis file formats (docs/loss-engine.md).
 */

/** damage_bin_dict: one entry per damage bin, indexed by bin_index (1-based, no gaps). */
export interface DamageBins {
  /** interpolation (the bin's representative damage ratio), indexed by bin_index; [0] unused. */
  interp: Float64Array;
  binTo: Float64Array;
}

/** Per vulnerability id, per intensity bin: the mean and the maximum damage ratio of its distribution. */
export interface VulnerabilityMoments {
  /** vulnerability_id -> arrays indexed by intensity_bin_id. */
  mean: Map<number, Float64Array>;
  max: Map<number, Float64Array>;
}

/** footprint rows sorted by event then areaperil; `byEvent` gives each event's row range. */
export interface Footprint {
  areaperil: Float64Array;
  intensityBin: Int32Array;
  prob: Float64Array;
  byEvent: Map<number, [number, number]>;
}

export interface Items {
  itemId: Int32Array;
  coverageId: Int32Array;
  areaperil: Float64Array;
  vulnerability: Int32Array;
  groupId: Float64Array;
}

/** The risk of each item (a location's building, as Oasis counts affected risks). */
export interface RiskMap {
  /** The dense risk index (0-based) of each item, by item index; -1 for an item the map does not name. */
  riskOf: Int32Array;
  risks: number;
}

export interface Occurrence {
  eventId: Int32Array;
  period: Int32Array;
  year: Int32Array;
  month: Int32Array;
  day: Int32Array;
  /** P, the number of periods: the denominator of every return period. */
  periods: number;
}
