/**
 * Wind setup as a function of stress, tabulated per (shelf segment, fetch in 5-km steps): the integration
 * (wind-setup.ts) costs 80 steps, and a storm meets the same few fetches over millions of (step, cell)
 * pairs. A step has one fetch (its Rmax), so it fetches its segments' tables once (SetupTables) and reads
 * them for every cell.
 */
import { SHELF_SEGMENTS } from './shelf-profiles.js';
import { windSetupM } from './wind-setup.js';

const STRESS_STEP_PA = 0.25;
const STRESS_POINTS = 161; // 0..40 Pa; the strongest Atlantic winds give about 25 Pa
const FETCH_STEP_KM = 5;
/** By segment index and fetch step (a number, not a string key). */
const tables = new Map<number, Float32Array>();
const FETCH_STEPS_PER_SEGMENT = 1 << 20;
/** The same keys: each table's running maximum (SetupTables.ceilingOf). */
const ceilings = new Map<number, Float32Array>();

function fetchStep(fetchKm: number): number {
  return Math.max(1, Math.round(fetchKm / FETCH_STEP_KM));
}

function tableOf(segmentIndex: number, f: number): Float32Array {
  const key = segmentIndex * FETCH_STEPS_PER_SEGMENT + f;
  let t = tables.get(key);
  if (!t) {
    t = new Float32Array(STRESS_POINTS);
    const { profile } = SHELF_SEGMENTS[segmentIndex];
    for (let i = 1; i < STRESS_POINTS; i++) t[i] = windSetupM(i * STRESS_STEP_PA, profile, f * FETCH_STEP_KM);
    tables.set(key, t);
  }
  return t;
}

function ceilingOf(segmentIndex: number, f: number): Float32Array {
  const key = segmentIndex * FETCH_STEPS_PER_SEGMENT + f;
  let c = ceilings.get(key);
  if (!c) {
    c = runningMax(tableOf(segmentIndex, f));
    ceilings.set(key, c);
  }
  return c;
}

/** The highest value at or before each point of a table (setup rises with stress, but the bound must not rely on it). */
function runningMax(t: Float32Array): Float32Array {
  const c = new Float32Array(t.length);
  for (let i = 0; i < t.length; i++) c[i] = Math.max(t[i], i > 0 ? c[i - 1] : -Infinity);
  return c;
}

/** Setup (m) from a table by linear interpolation in stress, held at the table's end. */
export function setupOf(t: Float32Array, stressPa: number): number {
  const x = Math.min(stressPa / STRESS_STEP_PA, STRESS_POINTS - 1.000001);
  const i = Math.floor(x);
  return t[i] + (t[i + 1] - t[i]) * (x - i);
}

/**
 * A bound on setupOf at any stress up to stressPa, from the table's running maximum (SetupTables.ceilingOf):
 * interpolated as setupOf interpolates the table, as it lies above the table at every point and never
 * falls with stress.
 */
export function setupCeiling(ceiling: Float32Array, stressPa: number): number {
  return setupOf(ceiling, stressPa);
}

/** By fetch step and set of segments (a bit each): the highest of their running maxima (SetupTables.ceilingOfAny). */
const anyCeilings = new Map<number, Float32Array>();

/** One step's tables (one fetch), each fetched the first time a cell of its segment asks. */
export class SetupTables {
  private readonly f: number;
  private readonly bySegment: (Float32Array | undefined)[] = new Array(SHELF_SEGMENTS.length);
  private readonly ceilingBySegment: (Float32Array | undefined)[] = new Array(SHELF_SEGMENTS.length);

  constructor(fetchKm: number) {
    this.f = fetchStep(fetchKm);
  }

  of(segmentIndex: number): Float32Array {
    return (this.bySegment[segmentIndex] ??= tableOf(segmentIndex, this.f));
  }

  /**
   * The highest running maximum of the segments in `segments` (bit s for segment s) at this fetch, for
   * setupCeiling: a bound for a cell of any of them.
   */
  ceilingOfAny(segments: number): Float32Array {
    const key = this.f * (1 << SHELF_SEGMENTS.length) + segments;
    let c = anyCeilings.get(key);
    if (!c) {
      c = new Float32Array(STRESS_POINTS);
      for (let s = 0; s < SHELF_SEGMENTS.length; s++) {
        if (!(segments & (1 << s))) continue;
        const own = this.ceilingOf(s);
        for (let i = 0; i < STRESS_POINTS; i++) c[i] = Math.max(c[i], own[i]);
      }
      anyCeilings.set(key, c);
    }
    return c;
  }

  /** The running maximum of a segment's table at this fetch, for setupCeiling. */
  ceilingOf(segmentIndex: number): Float32Array {
    return (this.ceilingBySegment[segmentIndex] ??= ceilingOf(segmentIndex, this.f));
  }
}
