/**
 * The stochastic event catalog and its event loss table (ELT) for one portfolio (docs/ep-curves.md). Pure: the
 * hazard baseline grid, the portfolio's exposure and a seed in, events with annual rates and losses out.
 *
 * Exposure is aggregated per (grid cell, peril, vulnerability class): a location sits at its baseline cell's
 * centre (0.25 degrees), as the scores do. Three kinds of peril:
 *  - regional (hurricane wind, storm surge, earthquake): events centred on every cell with a damaging rate,
 *    a disc footprint of radius R whose intensity falls linearly from the centre value to the damaging
 *    threshold at R. A cell's centre rate is lambda_damaging(cell) x cell area / (pi R^2), so a site is inside
 *    a footprint (at damaging intensity or more) at the rate lambda_damaging of its neighbourhood. The centre
 *    intensity is the damaging threshold plus an exponential excess whose scale puts lambda_severe /
 *    lambda_damaging of the events above the severe threshold; K strata of that distribution, one event each.
 *  - local (tornado, wildfire): footprints far smaller than a cell. An event damages a share phi of the
 *    cell's value (a tornado outbreak's paths, a fire and its ember zone) at rate lambda_damaging / phi, so
 *    each location's expected annual damage is lambda_damaging x MDR.
 *  - state seasons (riverine flood, winter storm): the baseline holds FEMA NRI rates, state-level; a year's
 *    loss in a state is its expected annual loss (NRI building loss rate x value) times an Exp(1) draw, one
 *    occurrence per state and year. They are drawn in the year loss table (ylt.ts), not here.
 * Extreme heat and drought damage no buildings in NRI (damage-ratio.ts) and are not modelled.
 */
import type { ClimateCase } from '../../domain/climate.js';
import { perilMultipliers } from '../../domain/scoring/climate-multipliers.js';
import type { HazardGrid } from '../../domain/scoring/grid.js';
import type { Peril } from '../../domain/scoring/perils.js';
import { mulberry32 } from '../../lib/random.js';
import {
  GUST_TO_SUSTAINED,
  KT_TO_MS,
  MPH_TO_MS,
  VULN_CLASSES,
  WILDFIRE_MDR_EMBER,
  WILDFIRE_MDR_PERIMETER,
  WIND_V_HALF_MS,
  emanuelMdr,
  floodMdr,
  pagerMdr,
} from './vulnerability.js';

export const EARTH_RADIUS_KM = 6371.0088; // docs/methods.md#trigger-observations
const DEG_KM = (Math.PI / 180) * EARTH_RADIUS_KM;

export type ModelledPeril = 'hurricane_wind' | 'storm_surge' | 'earthquake' | 'tornado' | 'wildfire' | 'riverine_flood' | 'winter_storm';
export const MODELLED_PERILS: readonly ModelledPeril[] = ['hurricane_wind', 'storm_surge', 'earthquake', 'tornado', 'wildfire', 'riverine_flood', 'winter_storm'];
export const NOT_MODELLED: Readonly<Partial<Record<Peril, string>>> = {
  extreme_heat: 'no building damage: NRI heat-wave losses are to people',
  drought: 'no building damage: NRI drought losses are to agriculture',
};

interface Regional {
  kind: 'regional';
  /** Intensity unit, damaging and severe thresholds (the baseline's lambda_damaging / lambda_severe), cap. */
  unit: string;
  damaging: number;
  severe: number;
  cap: number;
  /** Footprint radius (km) at which the intensity has fallen to the damaging threshold; by longitude for quakes. */
  radiusKm: (lng: number) => number;
  mdr: (intensity: number, vulnClass: number) => number;
}
interface Local {
  kind: 'local';
  unit: string;
  damaging: number;
  severe: number;
  cap: number;
  phi: number;
  mdr: (intensity: number, vulnClass: number) => number;
}
interface Season {
  kind: 'season';
}
export type PerilModel = Regional | Local | Season;

const cls = (v: number) => VULN_CLASSES[v];
/** Water level above MHHW at which surge starts to flood buildings (m) [judgement, docs/ep-curves.md]. */
export const SURGE_ENTRY_M = 0.9;

/** Sources of every number: docs/ep-curves.md (docs/methods.md#earthquake-shaking, #damage-functions; [judgement] where marked there). */
export const PERIL_MODELS: Record<ModelledPeril, PerilModel> = {
  hurricane_wind: {
    kind: 'regional',
    unit: 'kt',
    damaging: 64,
    severe: 96,
    cap: 165,
    radiusKm: () => 124,
    mdr: (kt, v) => emanuelMdr(kt * KT_TO_MS, WIND_V_HALF_MS[cls(v).construction]),
  },
  storm_surge: {
    kind: 'regional',
    unit: 'm above MHHW',
    damaging: 0.9,
    severe: 1.2,
    cap: 6,
    radiusKm: () => 50,
    // Water level above MHHW to depth at the structure: water enters buildings from the moderate level, 0.9 m
    // (NOAA: moderate = some structures inundated) [judgement].
    mdr: (level, v) => floodMdr(level - SURGE_ENTRY_M, cls(v).occupancy),
  },
  earthquake: {
    kind: 'regional',
    unit: 'MMI',
    damaging: 6,
    severe: 8,
    cap: 10,
    // AWW14 MMI VI radius of a Mw 6.5: 29 km west, 47 km east (docs/methods.md#earthquake-shaking); west of 104 W is "west".
    radiusKm: (lng) => (lng < -104 ? 29 : 47),
    mdr: (mmi, v) => pagerMdr(mmi, cls(v).construction),
  },
  tornado: {
    kind: 'local',
    unit: 'mph 3-s gust',
    damaging: 86,
    severe: 136,
    cap: 230,
    phi: 0.01,
    mdr: (mph, v) => emanuelMdr((mph * MPH_TO_MS) / GUST_TO_SUSTAINED, WIND_V_HALF_MS[cls(v).construction]),
  },
  wildfire: {
    kind: 'local',
    unit: 'zone',
    // Intensity 1 = in the 100 m ember zone, 2 = inside the perimeter (within 30 m).
    damaging: 1,
    severe: 2,
    cap: 2,
    phi: 0.05,
    mdr: (zone) => (zone >= 2 ? WILDFIRE_MDR_PERIMETER : zone >= 1 ? WILDFIRE_MDR_EMBER : 0),
  },
  riverine_flood: { kind: 'season' },
  winter_storm: { kind: 'season' },
};

/** Intensity strata per centre cell (regional, tornado). */
export const STRATA = 8;
/** Share of damaging events that are severe, kept inside (0.001, 0.9) so the exponential excess is defined. */
const Q_MIN = 0.001;
const Q_MAX = 0.9;

export interface Exposure {
  /** Per modelled peril: cell -> TIV per vulnerability class (only classes with value). */
  byPeril: Map<ModelledPeril, Map<number, { classes: Int32Array; tiv: Float64Array; total: number }>>;
}

export interface CatalogEvent {
  peril: ModelledPeril;
  cell: number;
  intensity: number;
  rate: number;
  loss: number;
}

export interface Elt {
  /** Events with a loss (zero-loss events never change a year's losses and are dropped; Poisson thinning). */
  peril: Uint8Array; // index into MODELLED_PERILS
  rate: Float64Array;
  loss: Float64Array;
  /** Events generated before dropping the zero-loss ones, per peril. */
  generated: Record<string, number>;
  /** State seasons: expected annual loss per (peril, state). */
  seasons: { peril: ModelledPeril; state: string; expectedLoss: number }[];
}

export interface CellGeometry {
  lat: Float64Array;
  lng: Float64Array;
  areaKm2: Float64Array;
  state: string[];
}

const geometryCache = new WeakMap<HazardGrid, CellGeometry>();

/** Centre, area and state (FIPS) of every baseline cell. */
export function cellGeometry(grid: HazardGrid): CellGeometry {
  const hit = geometryCache.get(grid);
  if (hit) return hit;
  const n = grid.nCells;
  const lat = new Float64Array(n).fill(NaN);
  const lng = new Float64Array(n).fill(NaN);
  const areaKm2 = new Float64Array(n);
  const d = grid.header.cellDeg;
  for (const r of grid.regions) {
    for (let i = 0; i < r.rows; i++) {
      for (let j = 0; j < r.cols; j++) {
        const c = r.index[i * r.cols + j];
        if (c >= n || !Number.isNaN(lat[c])) continue;
        lat[c] = r.south + (i + 0.5) * d;
        lng[c] = r.west + (j + 0.5) * d;
        areaKm2[c] = d * DEG_KM * d * DEG_KM * Math.cos((lat[c] * Math.PI) / 180);
      }
    }
  }
  const state = Array.from(grid.county, (k) => grid.header.counties.fips[k]?.slice(0, 2) ?? '');
  const g = { lat, lng, areaKm2, state };
  geometryCache.set(grid, g);
  return g;
}

export function haversineKm(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const r = Math.PI / 180;
  const dLat = (lat2 - lat1) * r;
  const dLng = (lng2 - lng1) * r;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * r) * Math.cos(lat2 * r) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(a)));
}

/**
 * Centre intensity of stratum u in (0, 1): the damaging threshold plus an exponential excess with
 * P(I >= severe) = q, capped.
 */
export function centreIntensity(m: { damaging: number; severe: number; cap: number }, q: number, u: number): number {
  const qq = Math.min(Q_MAX, Math.max(Q_MIN, q));
  const scale = (m.severe - m.damaging) / Math.log(1 / qq);
  return Math.min(m.cap, m.damaging - scale * Math.log(1 - u));
}

/** A class's MDR at intensities tabulated on a fine grid between the damaging threshold and the cap. */
class MdrTable {
  private readonly steps = 1024;
  private readonly table: Float64Array;
  constructor(private readonly m: Regional | Local) {
    this.table = new Float64Array(VULN_CLASSES.length * (this.steps + 1));
    for (let v = 0; v < VULN_CLASSES.length; v++) {
      for (let s = 0; s <= this.steps; s++) this.table[v * (this.steps + 1) + s] = m.mdr(m.damaging + ((m.cap - m.damaging) * s) / this.steps, v);
    }
  }
  at(intensity: number, v: number): number {
    const f = ((intensity - this.m.damaging) / (this.m.cap - this.m.damaging)) * this.steps;
    const s = f <= 0 ? 0 : f >= this.steps ? this.steps : Math.round(f);
    return this.table[v * (this.steps + 1) + s];
  }
}

function channel(grid: HazardGrid, peril: Peril, field: string): Float64Array | undefined {
  return grid.channels.get(`${peril}.${field}`);
}

/** Buckets of exposed cells by integer degree square, for the footprint search. */
function bucketsOf(cells: Iterable<number>, geo: CellGeometry): Map<number, number[]> {
  const b = new Map<number, number[]>();
  for (const c of cells) {
    const key = (Math.floor(geo.lat[c]) + 90) * 1000 + (Math.floor(geo.lng[c]) + 360);
    const list = b.get(key);
    if (list) list.push(c);
    else b.set(key, [c]);
  }
  return b;
}

export interface CatalogOptions {
  perils: readonly ModelledPeril[];
  climate: ClimateCase;
  seed: number;
}

/** The ELT of a portfolio's exposure: every catalog event with a loss, its rate and loss; and the state seasons. */
export function buildElt(grid: HazardGrid, exposure: Exposure, o: CatalogOptions): Elt {
  const geo = cellGeometry(grid);
  const rand = mulberry32(o.seed ^ 0x5eed1234);
  const peril: number[] = [];
  const rate: number[] = [];
  const loss: number[] = [];
  const generated: Record<string, number> = {};
  const seasons: Elt['seasons'] = [];
  const push = (p: ModelledPeril, r: number, l: number) => {
    if (!(l > 0) || !(r > 0)) return;
    peril.push(MODELLED_PERILS.indexOf(p));
    rate.push(r);
    loss.push(l);
  };
  for (const p of o.perils) {
    const exp = exposure.byPeril.get(p);
    generated[p] = 0;
    if (!exp || exp.size === 0) continue;
    const m = PERIL_MODELS[p];
    const lamD = channel(grid, p, 'lambda_damaging');
    if (m.kind === 'season') {
      const lossRate = channel(grid, p, 'loss_rate');
      const byState = new Map<string, number>();
      for (const [cell, e] of exp) {
        const mult = perilMultipliers(grid, cell, p, o.climate).damaging;
        const lr = lossRate?.[cell] ?? NaN;
        if (!(lr > 0)) continue;
        const st = geo.state[cell];
        byState.set(st, (byState.get(st) ?? 0) + lr * mult * e.total);
      }
      for (const [state, expectedLoss] of [...byState].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))) {
        if (expectedLoss > 0) seasons.push({ peril: p, state, expectedLoss });
      }
      generated[p] = seasons.filter((s) => s.peril === p).length;
      continue;
    }
    const lamS = channel(grid, p, 'lambda_severe');
    const table = new MdrTable(m);
    const strata = p === 'wildfire' ? 2 : STRATA;
    if (m.kind === 'local') {
      const cells = [...exp.keys()].sort((a, b) => a - b);
      for (const cell of cells) {
        const e = exp.get(cell)!;
        const mult = perilMultipliers(grid, cell, p, o.climate);
        const ld = (lamD?.[cell] ?? NaN) * mult.damaging;
        if (!(ld > 0)) continue;
        const ls = (lamS?.[cell] ?? 0) * mult.severe;
        const q = Number.isFinite(ls) ? ls / ld : 0;
        for (let k = 0; k < strata; k++) {
          let intensity: number;
          let r: number;
          if (p === 'wildfire') {
            // Two events: inside the perimeter (share q) and in the ember zone only (1 - q).
            const qq = Math.min(1, Math.max(0, q));
            intensity = k === 0 ? 2 : 1;
            r = (ld / m.phi) * (k === 0 ? qq : 1 - qq);
          } else {
            intensity = centreIntensity(m, q, (k + rand()) / strata);
            r = ld / m.phi / strata;
          }
          let l = 0;
          for (let i = 0; i < e.classes.length; i++) l += e.tiv[i] * table.at(intensity, e.classes[i]);
          generated[p]++;
          push(p, r, m.phi * l);
        }
      }
      continue;
    }
    // Regional: centres near exposure only (a centre further than R from every exposed cell has no loss).
    const buckets = bucketsOf(exp.keys(), geo);
    for (let c = 0; c < grid.nCells; c++) {
      const ld0 = lamD?.[c] ?? NaN;
      if (!(ld0 > 0) || Number.isNaN(geo.lat[c])) continue;
      const R = m.radiusKm(geo.lng[c]);
      const dLat = R / DEG_KM;
      const dLng = R / (DEG_KM * Math.max(0.05, Math.cos((geo.lat[c] * Math.PI) / 180)));
      const near: number[] = [];
      const dist: number[] = [];
      for (let a = Math.floor(geo.lat[c] - dLat); a <= Math.floor(geo.lat[c] + dLat); a++) {
        for (let b = Math.floor(geo.lng[c] - dLng); b <= Math.floor(geo.lng[c] + dLng); b++) {
          const list = buckets.get((a + 90) * 1000 + (b + 360));
          if (!list) continue;
          for (const e of list) {
            const d = haversineKm(geo.lat[c], geo.lng[c], geo.lat[e], geo.lng[e]);
            if (d < R) {
              near.push(e);
              dist.push(d);
            }
          }
        }
      }
      if (near.length === 0) continue;
      const mult = perilMultipliers(grid, c, p, o.climate);
      const ld = ld0 * mult.damaging;
      const ls = (lamS?.[c] ?? 0) * mult.severe;
      const q = Number.isFinite(ls) ? ls / ld : 0;
      const centreRate = (ld * geo.areaKm2[c]) / (Math.PI * R * R);
      for (let k = 0; k < strata; k++) {
        const i0 = Math.min(m.cap, centreIntensity(m, q, (k + rand()) / strata) * mult.intensity);
        let l = 0;
        for (let j = 0; j < near.length; j++) {
          const e = exp.get(near[j])!;
          const intensity = m.damaging + (i0 - m.damaging) * (1 - dist[j] / R);
          for (let i = 0; i < e.classes.length; i++) l += e.tiv[i] * table.at(intensity, e.classes[i]);
        }
        generated[p]++;
        push(p, centreRate / strata, l);
      }
    }
  }
  return { peril: Uint8Array.from(peril), rate: Float64Array.from(rate), loss: Float64Array.from(loss), generated, seasons };
}
