/**
 * The stochastic event set: ruptures drawn from the rupture set's annual rates over N simulated years.
 * Each year holds a Poisson number of events with mean Λ, the rupture set's total rate (gridded M ≥ 5 and
 * fault ruptures); each event is a source chosen with probability rate / Λ. A gridded event takes a
 * magnitude bin of its cell's truncated Gutenberg–Richter distribution (the bins the hazard curves use)
 * and a strike uniform over 0–180°; a fault event is that fault's rupture. Dates are uniform over a
 * 365-day year (earthquakes have no season). Same source model, years and seed: the same events.
 */
import { mulberry32 } from '../../../lib/random.js';
import type { SourceModel } from '../domain/hazard-curve.js';
import { magnitudeBins, type FaultRupture, type MagnitudeBin, type PointRupture } from '../domain/rupture-set.js';
import type { OccurrenceRow } from '../../shared/package/occurrence-row.js';

export interface StochasticEvent {
  eventId: number;
  rupture: PointRupture | FaultRupture;
  /** 'gridded' or the fault rupture's name. */
  source: string;
}

export interface EventSet {
  events: StochasticEvent[];
  occurrences: OccurrenceRow[];
  years: number;
  seed: number;
  /** Λ, the rupture set's total annual rate the events were drawn from. */
  annualRate: number;
}

const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Knuth's Poisson draw (the mean here is under 10, so the product loop is short). */
function poisson(mean: number, rand: () => number): number {
  const limit = Math.exp(-mean);
  let k = 0;
  let p = rand();
  while (p > limit) {
    k++;
    p *= rand();
  }
  return k;
}

/** Index of the first cumulative value above u (binary search). */
function pick(cumulative: Float64Array, u: number): number {
  let lo = 0;
  let hi = cumulative.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cumulative[mid] > u) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

export function sampleEventSet(model: SourceModel, years: number, seed: number): EventSet {
  const rand = mulberry32(seed ^ 0x0e9a7e5e);
  const sources = model.grid.length + model.faults.length;
  const cumulative = new Float64Array(sources);
  let total = 0;
  model.grid.forEach((s, i) => (cumulative[i] = total += s.rateM5));
  model.faults.forEach((f, i) => (cumulative[model.grid.length + i] = total += f.rate));
  const binsOf = new Map<string, MagnitudeBin[]>();

  const events: StochasticEvent[] = [];
  const occurrences: OccurrenceRow[] = [];
  for (let year = 1; year <= years; year++) {
    const n = poisson(total, rand);
    const drawn: { day: number; rupture: PointRupture | FaultRupture; source: string }[] = [];
    for (let k = 0; k < n; k++) {
      const i = pick(cumulative, rand() * total);
      const day = Math.floor(rand() * 365);
      if (i >= model.grid.length) {
        const f = model.faults[i - model.grid.length];
        drawn.push({ day, rupture: f, source: f.name });
        continue;
      }
      const s = model.grid[i];
      const mMax = Math.round(s.mMax * 10) / 10;
      const key = `${s.b}|${mMax}`;
      let bins = binsOf.get(key);
      if (!bins) binsOf.set(key, (bins = magnitudeBins(s.b, mMax)));
      let u = rand();
      let bin = bins[bins.length - 1];
      for (const b of bins) {
        if (u < b.share) {
          bin = b;
          break;
        }
        u -= b.share;
      }
      const rupture: PointRupture = { lat: s.lat, lng: s.lng, magnitude: Math.round(bin.magnitude * 1000) / 1000, rate: s.rateM5 * bin.share, tectonic: s.tectonic, strikeDeg: Math.round(rand() * 1800) / 10 };
      drawn.push({ day, rupture, source: 'gridded' });
    }
    drawn.sort((a, b) => a.day - b.day);
    for (const d of drawn) {
      const eventId = events.length + 1;
      events.push({ eventId, rupture: d.rupture, source: d.source });
      let month = 0;
      let day = d.day;
      while (day >= MONTH_DAYS[month]) day -= MONTH_DAYS[month++];
      occurrences.push({ eventId, periodNo: year, occYear: year, occMonth: month + 1, occDay: day + 1 });
    }
  }
  return { events, occurrences, years, seed, annualRate: total };
}
