/**
 * Where a ShakeMap grid's nodes lie, as grid.xml lays them out: nx columns west to east starting at lonMin,
 * ny rows north to south starting at latMax, dLonDeg and dLatDeg apart (row-major, north row first). The
 * MMI grid of the rings and the PGA grid of the live loss share it.
 */
export interface GridGeometry {
  nx: number;
  ny: number;
  lonMin: number;
  latMax: number;
  dLonDeg: number;
  dLatDeg: number;
}
