/**
 * A hurricane track as the model runs it: the stochastic event set produces these, the wind and surge
 * footprints consume them. Historical HURDAT2 storms convert to the same shape, so the footprint code
 * runs the record and the catalog alike.
 */
export interface TrackFix {
  /** Hours since the track's first fix. */
  hours: number;
  lat: number;
  /** Degrees east (negative in the Atlantic). */
  lng: number;
  /** Maximum sustained 1-minute wind at 10 m (kt), as HURDAT2 reports it. */
  windKt: number;
  /** Central pressure (hPa). */
  pressureMb: number;
  /** Radius of maximum wind (km): the record's where it has one, else a cited statistical model's. */
  rmwKm: number;
  /** Whether the centre is over land at this fix (decay and surge use it). */
  overLand: boolean;
}

export interface Track {
  /** Oasis event_id, 1-based and dense within a catalog. */
  eventId: number;
  /** The HURDAT2 storm this track was derived from (e.g. AL122005), or itself for a historical track. */
  parentId: string;
  fixes: TrackFix[];
}
