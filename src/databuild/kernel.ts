/**
 * Mass-conserving Gaussian smoothing of point events onto covered cells: each event's amount (a damage
 * area in km²) is shared among the covered cells within 3σ in proportion to exp(−d²/2σ²)·cell area, then
 * divided by the cell's area, so the result is an areal density (km² per km²) and nothing leaks into the
 * ocean or abroad along coasts and borders. Divided by the record length this is the annual probability
 * that a point is inside a damage footprint (docs/methods.md#score-mappings: λ = Σ(L·W)/(A·years)).
 */
import type { CellQuery } from '../reference-data/cell-query.js';
import { CELL_DEG } from '../reference-data/regions.js';
import { EARTH_RADIUS_KM } from '../lib/geo.js';

const KM_PER_DEG = (Math.PI / 180) * EARTH_RADIUS_KM;

export function cellAreaKm2(latDeg: number): number {
  return (CELL_DEG * KM_PER_DEG) ** 2 * Math.cos((latDeg * Math.PI) / 180);
}

export class DensityAccumulator {
  readonly density: Float64Array; // km² per km², summed over events
  private readonly scratchCells: number[] = [];
  private readonly scratchW: number[] = [];

  constructor(
    private readonly query: CellQuery,
    private readonly cellLat: Float64Array,
  ) {
    this.density = new Float64Array(cellLat.length);
  }

  /**
   * Returns false when no covered cell lies within 3σ (the event is dropped). `cap`, when given, scales the
   * kernel weight of every cell but the event's own by cap.factor[cell] (0–1) before normalising, so mass
   * meant for those cells goes to the others (the wildfire urban cap, wildfire.ts).
   */
  add(
    lat: number,
    lng: number,
    amountKm2: number,
    sigmaKm: number,
    cap?: { factor: Float64Array; origin: number },
  ): boolean {
    const cells = this.scratchCells;
    const ws = this.scratchW;
    cells.length = 0;
    ws.length = 0;
    let total = 0;
    this.query.within(lat, lng, 3 * sigmaKm, (cell, d) => {
      const f = cap && cell !== cap.origin ? cap.factor[cell] : 1;
      const w = f * Math.exp((-d * d) / (2 * sigmaKm * sigmaKm)) * cellAreaKm2(this.cellLat[cell]);
      cells.push(cell);
      ws.push(w);
      total += w;
    });
    if (!(total > 0)) return false;
    for (let k = 0; k < cells.length; k++) {
      this.density[cells[k]] += (amountKm2 * ws[k]) / total / cellAreaKm2(this.cellLat[cells[k]]);
    }
    return true;
  }
}

/** Count of events within radiusKm of each cell, for score_components.frequency.events_used. */
export class NearbyCounter {
  readonly counts: Float64Array;
  constructor(
    private readonly query: CellQuery,
    nCells: number,
    private readonly radiusKm: number,
  ) {
    this.counts = new Float64Array(nCells);
  }
  add(lat: number, lng: number): void {
    this.query.within(lat, lng, this.radiusKm, (cell) => {
      this.counts[cell] += 1;
    });
  }
}

/**
 * Gaussian-weighted average of per-cell fields over covered cells within 2.5σ (each field smoothed with
 * the same weights). Averaging over covered cells only keeps coastal values from being diluted by sea.
 */
export function smoothFields(
  fields: Float64Array[],
  query: CellQuery,
  cellLat: Float64Array,
  cellLng: Float64Array,
  sigmaKm: number,
): Float64Array[] {
  const out = fields.map((f) => new Float64Array(f.length));
  const acc = new Float64Array(fields.length);
  for (let i = 0; i < cellLat.length; i++) {
    acc.fill(0);
    let wsum = 0;
    query.within(cellLat[i], cellLng[i], 2.5 * sigmaKm, (j, d) => {
      const w = Math.exp((-d * d) / (2 * sigmaKm * sigmaKm));
      wsum += w;
      for (let k = 0; k < fields.length; k++) acc[k] += w * fields[k][j];
    });
    for (let k = 0; k < fields.length; k++) out[k][i] = wsum > 0 ? acc[k] / wsum : fields[k][i];
  }
  return out;
}
