/**
 * Earthquake fault sources for the hazard build (docs/scoring.md §4.2):
 *  - western US crustal faults: the USGS NSHM 2023 fault sections (NSHM23_FSD_v3: trace, dip, dip direction,
 *    rake, upper and lower seismogenic depth) with their geologic slip rates (NSHM23_GeolDefMod_v1p4), each
 *    section rupturing alone and, for the groups of special_faults.json, the group rupturing together;
 *  - the Cascadia subduction interface and the CEUS characteristic sources (New Madrid, Charleston), which the
 *    shared data does not hold: magnitudes and recurrence from the published NSHM documentation, cited below.
 * Every rupture is characteristic: one magnitude from its rupture area (Wells & Coppersmith 1994, all slip
 * types: M = 4.07 + 0.98 log10 A), and a rate from moment balance, rate = μ·A·v / M0(M), μ = 3.0e10 Pa,
 * M0 = 10^(1.5 M + 9.05) N·m (Hanks & Kanamori 1979). Shaking uses the same AWW14 equation as the gridded
 * sources with the rupture distance (AWW14 use it for finite faults) and the regional site term.
 */
import { aww14Mmi } from '../domain/rings/earthquake.js';
import { normalCdf } from '../lib/numerics/normal.js';
import { flatDistanceKm } from './cell-query.js';
import type { Region } from './eq-region.js';

/** Crustal shear modulus (Pa) for moment balance [standard value, Hanks & Kanamori 1979 use 3e10]. */
export const SHEAR_MODULUS_PA = 3.0e10;
/**
 * Share of a special group's moment released in whole-group ruptures; the rest goes to single-section
 * ruptures [judgement: the groups are faults that have ruptured over several sections (1857, 1906,
 * Landers), but most of their earthquakes are shorter; NSHM's inversion spreads moment over many lengths].
 */
export const GROUP_MOMENT_SHARE = 1 / 3;
/** Sections whose slip is mostly aseismic creep: seismic share of the slip rate [judgement, after UCERF3's aseismicity of about 0.9 on the creeping San Andreas]. */
const CREEP_SEISMIC_SHARE = 0.1;
/** Faults beyond this rupture distance add nothing at MMI ≥ V worth integrating [judgement: an M8 in the west gives a median MMI of about IV at 300 km]. */
export const FAULT_CUTOFF_KM = 300;
const SIGMA_MMI = 0.7;

export interface Rupture {
  name: string;
  magnitude: number;
  /** Annual rate of the characteristic event. */
  rate: number;
  region: Region;
  /** Rupture planes: each a polyline trace with its dip geometry. */
  planes: Plane[];
  /** Where the numbers come from, for the docs and the manifest. */
  basis: string;
}

export interface Plane {
  trace: Array<[number, number]>; // [lng, lat]
  dipDeg: number;
  /** Unit vector (east, north) of the dip direction at the surface. */
  dipDir: [number, number];
  upKm: number;
  lowKm: number;
}

/** Wells & Coppersmith (1994), BSSA 84:974, Table 2A, rupture area, all slip types. */
export function magnitudeFromArea(areaKm2: number): number {
  return 4.07 + 0.98 * Math.log10(areaKm2);
}

/** Seismic moment (N·m), Hanks & Kanamori (1979). */
export function momentOf(magnitude: number): number {
  return 10 ** (1.5 * magnitude + 9.05);
}

const COMPASS: Record<string, number> = {
  N: 0,
  NNE: 22.5,
  NE: 45,
  ENE: 67.5,
  E: 90,
  ESE: 112.5,
  SE: 135,
  SSE: 157.5,
  S: 180,
  SSW: 202.5,
  SW: 225,
  WSW: 247.5,
  W: 270,
  WNW: 292.5,
  NW: 315,
  NNW: 337.5,
};

function dipVector(dir: string | null | undefined): [number, number] {
  const az = dir ? COMPASS[dir.trim().toUpperCase()] : undefined;
  if (az === undefined) return [0, 0];
  const a = (az * Math.PI) / 180;
  return [Math.sin(a), Math.cos(a)];
}

function traceLengthKm(trace: Array<[number, number]>): number {
  let s = 0;
  for (let i = 1; i < trace.length; i++)
    s += flatDistanceKm(trace[i - 1][1], trace[i - 1][0], trace[i][1], trace[i][0]);
  return s;
}

function planeArea(p: Plane): number {
  const w = (p.lowKm - p.upKm) / Math.sin((Math.max(p.dipDeg, 5) * Math.PI) / 180);
  return traceLengthKm(p.trace) * w;
}

interface FsdFeature {
  properties: {
    FaultID: number;
    FaultName: string;
    DipDeg: number;
    DipDir: string | null;
    Rake: number;
    LowDepth: number;
    UpDepth: number;
  };
  geometry: { type: 'MultiLineString' | 'LineString'; coordinates: number[][][] | number[][] } | null;
}

/** Build the western crustal ruptures from the three NSHM 2023 fault files (texts). */
export function nshmFaultRuptures(
  fsdText: string,
  defModText: string,
  specialText: string,
): { ruptures: Rupture[]; sections: number; momentRate: number } {
  const fsd = JSON.parse(fsdText) as { features: FsdFeature[] };
  const def = JSON.parse(defModText) as { features: { properties: { FaultID: number; SlipRate: number | null } }[] };
  const special = JSON.parse(specialText) as Record<string, number[]>;
  const slip = new Map(def.features.map((f) => [f.properties.FaultID, f.properties.SlipRate]));
  const groupOf = new Map<number, string>();
  for (const [name, ids] of Object.entries(special)) for (const id of ids) groupOf.set(id, name);

  const sections = new Map<number, { name: string; plane: Plane; area: number; momentRate: number }>();
  for (const f of [...fsd.features].sort((a, b) => a.properties.FaultID - b.properties.FaultID)) {
    const p = f.properties;
    const v = slip.get(p.FaultID);
    if (!f.geometry || !(v !== null && v !== undefined && v > 0)) continue;
    const lines = (
      f.geometry.type === 'LineString' ? [f.geometry.coordinates] : f.geometry.coordinates
    ) as number[][][];
    const trace = lines.flat().map((c) => [c[0], c[1]] as [number, number]);
    if (trace.length < 2) continue;
    const plane: Plane = { trace, dipDeg: p.DipDeg, dipDir: dipVector(p.DipDir), upKm: p.UpDepth, lowKm: p.LowDepth };
    const area = planeArea(plane);
    if (!(area > 0)) continue;
    const seismic = /creeping/i.test(p.FaultName) ? CREEP_SEISMIC_SHARE : 1;
    sections.set(p.FaultID, {
      name: p.FaultName,
      plane,
      area,
      momentRate: SHEAR_MODULUS_PA * area * 1e6 * (v / 1000) * seismic,
    });
  }

  const ruptures: Rupture[] = [];
  let momentRate = 0;
  for (const [id, s] of sections) {
    momentRate += s.momentRate;
    const share = groupOf.has(id) ? 1 - GROUP_MOMENT_SHARE : 1;
    const m = magnitudeFromArea(s.area);
    ruptures.push({
      name: s.name,
      magnitude: m,
      rate: (share * s.momentRate) / momentOf(m),
      region: 'west',
      planes: [s.plane],
      basis: 'NSHM23 section',
    });
  }
  for (const name of Object.keys(special).sort()) {
    const members = special[name]
      .map((id) => sections.get(id))
      .filter((s): s is NonNullable<typeof s> => s !== undefined);
    if (members.length === 0) continue;
    const area = members.reduce((t, s) => t + s.area, 0);
    const mo = members.reduce((t, s) => t + s.momentRate, 0) * GROUP_MOMENT_SHARE;
    const m = magnitudeFromArea(area);
    ruptures.push({
      name: `${name} (multi-section)`,
      magnitude: m,
      rate: mo / momentOf(m),
      region: 'west',
      planes: members.map((s) => s.plane),
      basis: 'special_faults.json group',
    });
  }
  return { ruptures, sections: sections.size, momentRate };
}

/**
 * Sources the shared data does not hold, from the published NSHM documentation:
 *  - Cascadia interface, full-margin rupture M9.0 every 526 years (Goldfinger et al. 2012, USGS PP 1661-F:
 *    19 full-margin turbidites in ~10,000 yr; NSHM 2014, Petersen et al. 2014, USGS OFR 2014-1091, and NSHM
 *    2023 weight M8.8–9.3 around 9.0 with this recurrence), and southern partial ruptures M8.3 adding one in
 *    ~480 years south of 44°N (Goldfinger et al. 2012: ~40 events in the south against 19 full-margin ones).
 *    Geometry: the down-dip edge of the locked and transition zone, 15–30 km deep, near the coast (NSHM 2014
 *    Fig. 12), as a rupture plane dipping east from the trench.
 *  - New Madrid: 1811–1812-type sequences of M7.5 on the Reelfoot rift strands every 500 years (NSHM 2008
 *    and 2014: characteristic M7.1–8.0, mean recurrence 500 yr from paleoliquefaction, Tuttle et al. 2002);
 *    each sequence ruptures the southern, Reelfoot and northern strands.
 *  - Charleston, SC: M7.3 every 550 years (NSHM 2014: M6.8–7.5, recurrence 550 yr, Talwani & Schaeffer 2001)
 *    on the Woodstock zone.
 * Single central values where NSHM uses weighted branches [judgement]; the traces are simplified.
 */
export const CHARACTERISTIC_SOURCES: Rupture[] = [
  {
    name: 'Cascadia interface, full margin',
    magnitude: 9.0,
    rate: 1 / 526,
    region: 'west',
    basis: 'Goldfinger et al. 2012; NSHM 2014/2023',
    planes: [
      {
        trace: [
          [-125.0, 40.3],
          [-125.1, 42.0],
          [-125.2, 44.0],
          [-125.2, 46.0],
          [-125.4, 47.0],
          [-126.0, 48.2],
          [-127.0, 49.0],
        ],
        dipDeg: 12,
        dipDir: [1, 0],
        upKm: 5,
        lowKm: 30,
      },
    ],
  },
  {
    name: 'Cascadia interface, southern partial',
    magnitude: 8.3,
    rate: 1 / 480,
    region: 'west',
    basis: 'Goldfinger et al. 2012; NSHM 2014/2023',
    planes: [
      {
        trace: [
          [-125.0, 40.3],
          [-125.1, 42.0],
          [-125.2, 44.0],
        ],
        dipDeg: 12,
        dipDir: [1, 0],
        upKm: 5,
        lowKm: 30,
      },
    ],
  },
  {
    name: 'New Madrid (southern, Reelfoot and northern strands)',
    magnitude: 7.5,
    rate: 1 / 500,
    region: 'east',
    basis: 'NSHM 2008/2014; Tuttle et al. 2002',
    planes: [
      {
        trace: [
          [-90.55, 35.55],
          [-90.05, 35.95],
          [-89.6, 36.25],
        ],
        dipDeg: 90,
        dipDir: [0, 0],
        upKm: 0,
        lowKm: 15,
      },
      {
        trace: [
          [-89.55, 36.2],
          [-89.45, 36.6],
        ],
        dipDeg: 40,
        dipDir: [-1, 0],
        upKm: 0,
        lowKm: 15,
      },
      {
        trace: [
          [-89.55, 36.55],
          [-89.15, 37.0],
        ],
        dipDeg: 90,
        dipDir: [0, 0],
        upKm: 0,
        lowKm: 15,
      },
    ],
  },
  {
    name: 'Charleston',
    magnitude: 7.3,
    rate: 1 / 550,
    region: 'east',
    basis: 'NSHM 2014; Talwani & Schaeffer 2001',
    planes: [
      {
        trace: [
          [-80.3, 32.7],
          [-80.1, 33.2],
        ],
        dipDeg: 90,
        dipDir: [0, 0],
        upKm: 0,
        lowKm: 15,
      },
    ],
  },
];

/**
 * The nearest point of a plane's trace to a surface point: its distance (km) and the side the point lies on
 * (positive on the hanging wall, the side the plane dips towards).
 */
export function nearestTracePoint(lat: number, lng: number, p: Plane): { distanceKm: number; side: number } {
  let best = Infinity;
  let side = 0;
  const kx = 111.19 * Math.cos((lat * Math.PI) / 180);
  const ky = 111.19;
  for (let i = 1; i < p.trace.length; i++) {
    const ax = (p.trace[i - 1][0] - lng) * kx;
    const ay = (p.trace[i - 1][1] - lat) * ky;
    const dx = (p.trace[i][0] - lng) * kx - ax;
    const dy = (p.trace[i][1] - lat) * ky - ay;
    const len2 = dx * dx + dy * dy;
    const t = len2 > 0 ? Math.min(1, Math.max(0, -(ax * dx + ay * dy) / len2)) : 0;
    const px = ax + t * dx;
    const py = ay + t * dy;
    const d = Math.hypot(px, py);
    if (d < best) {
      best = d;
      // Site relative to the nearest trace point is (-px, -py).
      side = -px * p.dipDir[0] - py * p.dipDir[1];
    }
  }
  return { distanceKm: best, side };
}

/**
 * Rupture distance (km) from a surface point to a plane: in the cross-section through the nearest point of
 * the trace, the point's signed horizontal offset (positive on the hanging wall) against the down-dip segment.
 */
export function ruptureDistanceKm(lat: number, lng: number, p: Plane): number {
  const { distanceKm: best, side } = nearestTracePoint(lat, lng, p);
  const dip = (Math.max(p.dipDeg, 5) * Math.PI) / 180;
  const w = (p.lowKm - p.upKm) / Math.sin(dip);
  // Cross-section: the plane runs from (0, up) to (w cos δ, up + w sin δ); the site is at (x, 0).
  const x = side >= 0 ? best : -best;
  const ex = w * Math.cos(dip);
  const ez = w * Math.sin(dip);
  const t = Math.min(1, Math.max(0, (x * ex - p.upKm * ez) / (ex * ex + ez * ez)));
  return Math.hypot(x - t * ex, p.upKm + t * ez);
}

export interface FaultSiteOptions {
  levels: readonly number[];
  /** Added to AWW14's median MMI per source region (the site term, docs/scoring.md §4.3). */
  siteTermMmi: Record<Region, number>;
}

/** Add every rupture's λ(MMI ≥ level) at the site to `acc` (one entry per level). */
export function addFaultRates(
  lat: number,
  lng: number,
  ruptures: readonly Rupture[],
  o: FaultSiteOptions,
  acc: Float64Array,
): void {
  for (const r of ruptures) {
    let d = Infinity;
    for (const p of r.planes) d = Math.min(d, ruptureDistanceKm(lat, lng, p));
    if (d > FAULT_CUTOFF_KM) continue;
    const mu = aww14Mmi(r.magnitude, d, 0, r.region) + o.siteTermMmi[r.region];
    for (let k = 0; k < o.levels.length; k++) acc[k] += r.rate * (1 - normalCdf((o.levels[k] - mu) / SIGMA_MMI));
  }
}

/** A coarse box test so the per-cell loop skips faults far away. */
export function ruptureBox(r: Rupture): [number, number, number, number] {
  let s = Infinity;
  let n = -Infinity;
  let w = Infinity;
  let e = -Infinity;
  for (const p of r.planes) {
    for (const [x, y] of p.trace) {
      s = Math.min(s, y);
      n = Math.max(n, y);
      w = Math.min(w, x);
      e = Math.max(e, x);
    }
    // The dipping plane reaches this far from its trace at depth.
    const reach = (p.lowKm - p.upKm) / Math.tan((Math.max(p.dipDeg, 5) * Math.PI) / 180) / 80;
    w -= reach;
    e += reach;
    s -= reach;
    n += reach;
  }
  return [s, w, n, e];
}
