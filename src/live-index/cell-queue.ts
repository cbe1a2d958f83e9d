/**
 * Grid cells by the nearest their events can be (the haversine a of that point), lowest first: a binary heap
 * over two scratch columns, reused by every search (searches are synchronous). A cell is any integer; the
 * radius search queues counted cells as ~c.
 */
let scratchCells = new Int32Array(0);
let scratchLowA = new Float64Array(0);

/** A queue of cells over the scratch columns, empty, with room for `capacity` (a class: a search makes one object, no closures). */
export class CellQueue {
  size = 0;
  /** The queued cells in heap order, [0, size): read in any order once the search stops taking them by distance. */
  readonly cells: Int32Array;
  private readonly lowA: Float64Array;

  constructor(capacity: number) {
    if (scratchCells.length < capacity) {
      scratchCells = new Int32Array(capacity * 2);
      scratchLowA = new Float64Array(capacity * 2);
    }
    this.cells = scratchCells;
    this.lowA = scratchLowA;
  }

  /** The lowest a queued (size > 0). */
  lowest(): number {
    return this.lowA[0];
  }

  push(cell: number, a: number): void {
    const { cells, lowA } = this;
    let k = this.size++;
    while (k > 0) {
      const parent = (k - 1) >> 1;
      if (lowA[parent] <= a) break;
      cells[k] = cells[parent];
      lowA[k] = lowA[parent];
      k = parent;
    }
    cells[k] = cell;
    lowA[k] = a;
  }

  /** Takes the cell of the lowest a (size > 0). */
  pop(): number {
    const { cells, lowA } = this;
    const top = cells[0];
    const size = --this.size;
    const cell = cells[size];
    const a = lowA[size];
    let k = 0;
    for (;;) {
      let child = 2 * k + 1;
      if (child >= size) break;
      if (child + 1 < size && lowA[child + 1] < lowA[child]) child++;
      if (lowA[child] >= a) break;
      cells[k] = cells[child];
      lowA[k] = lowA[child];
      k = child;
    }
    cells[k] = cell;
    lowA[k] = a;
    return top;
  }
}
