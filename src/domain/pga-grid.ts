/**
 * A ShakeMap grid's peak ground acceleration and its uncertainty node by node (docs/event-loss.md
 * "Earthquake"): read from a grid.xml (src/sources/shakemap.ts), kept by ingest beside the earthquake it
 * belongs to (src/store/shakemap-grids.ts), made into a loss footprint (src/event-loss/earthquake-footprints.ts).
 */
import type { GridGeometry } from './grid-geometry.js';

export interface PgaGrid extends GridGeometry {
  /** PGA (g), row 0 the northernmost. */
  pgaG: Float64Array;
  /** σ of ln PGA (the grid's STDPGA). */
  sigmaLn: Float64Array;
  version: string | null;
  processedAt: string | null;
  eventId: string | null;
  event: { lat: number; lng: number; magnitude: number; depthKm: number } | null;
}
