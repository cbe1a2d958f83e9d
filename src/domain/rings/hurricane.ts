/**
 * Tropical-cyclone wind rings: the 64/50/34-kt wind fields (docs/methods.md#hurricane-wind,
 * docs/rings-earthquake-hurricane.md). With NHC/ATCF quadrant radii we draw them as published; without
 * radii we fall back to the parametric (Holland) profile that the hazard baseline runs along every
 * HURDAT2 track, with the same calibration (its `hurricane_wind.radius_scale`, fitted by `catintel data
 * build` to the reported 64-kt radii), drawn as circles and labelled as an estimate. One profile for
 * rings and scores: src/databuild/wind-field.ts uses windField/radiusOfKm from here.
 */
import type { Position } from 'geojson';
import type { QuadrantRadiiNm, Ring, RingInput } from '../event.js';
import { KM_PER_NM, circlePolygon, destination } from '../../lib/geo.js';
import { KT_TO_MS } from '../../lib/numerics/units.js';

type HurricaneInput = Extract<RingInput, { kind: 'hurricane' }>;
type WindThresholdKt = 64 | 50 | 34;

/** Innermost first. Words follow NHC usage ("tropical-storm-force", "hurricane-force"). */
const THRESHOLDS: ReadonlyArray<{ kt: WindThresholdKt; label: string }> = [
  { kt: 64, label: '64 kt (hurricane-force) winds' },
  { kt: 50, label: '50 kt (strong tropical-storm-force) winds' },
  { kt: 34, label: '34 kt (tropical-storm-force) winds' },
];

/** Arc resolution: 16 segments per 90° quadrant (5.6° per step). */
const STEPS_PER_QUADRANT = 16;
/** Environmental (outer) pressure for Δp (hPa); docs/methods.md#hurricane-wind example. */
const ENVIRONMENTAL_PRESSURE_HPA = 1010;
/** Storm translation speed assumed in Holland (2008) B_s (m/s): the feeds' RingInput carries none. */
const ASSUMED_TRANSLATION_SPEED_MS = 5;

export function hurricaneRings(
  input: HurricaneInput,
  center: { lat: number; lng: number },
  radiusScale?: RadiusScale,
): Ring[] {
  const rings: Ring[] = [];
  for (const t of THRESHOLDS) {
    const radii = input.windRadiiNm[t.kt];
    if (!radii || !hasExtent(radii)) continue;
    rings.push({
      kind: 'wind_kt',
      label: t.label,
      threshold: t.kt,
      unit: 'kt',
      radiusKm: round1(Math.max(radii.ne, radii.se, radii.sw, radii.nw) * KM_PER_NM),
      geometry: { type: 'Polygon', coordinates: [quadrantRing(center, radii)] },
    });
  }
  return rings.length > 0 ? rings : parametricRings(input, center, radiusScale);
}

function hasExtent(r: QuadrantRadiiNm): boolean {
  return r.ne > 0 || r.se > 0 || r.sw > 0 || r.nw > 0;
}

/**
 * Four quadrant arcs (NE 0–90°, SE 90–180°, SW 180–270°, NW 270–360° bearing), each at its own radius,
 * joined by radial steps where neighbouring radii differ. A zero radius collapses that quadrant to the
 * centre. Bearings run clockwise, so we walk them downwards (NW, SW, SE, NE) for a counter-clockwise
 * exterior ring (RFC 7946), closed by repeating the first position.
 */
export function quadrantRing(center: { lat: number; lng: number }, r: QuadrantRadiiNm): Position[] {
  const quadrants: Array<[number, number]> = [
    [r.nw, 360],
    [r.sw, 270],
    [r.se, 180],
    [r.ne, 90],
  ];
  const out: Position[] = [];
  const push = (p: Position) => {
    const last = out[out.length - 1];
    if (!last || last[0] !== p[0] || last[1] !== p[1]) out.push(p);
  };
  for (const [radiusNm, startDeg] of quadrants) {
    if (radiusNm <= 0) {
      push([center.lng, center.lat]);
      continue;
    }
    for (let i = 0; i <= STEPS_PER_QUADRANT; i++) {
      const bearing = startDeg - (i * 90) / STEPS_PER_QUADRANT;
      push(destination(center.lat, center.lng, radiusNm * KM_PER_NM, bearing));
    }
  }
  const first = out[0];
  const last = out[out.length - 1];
  if (first[0] !== last[0] || first[1] !== last[1]) out.push([first[0], first[1]]);
  return out;
}

/** Radius of maximum wind (km), Willoughby, Darling & Rahn (2006): Rm = 46.4 exp(−0.0155 Vmax + 0.0169 |φ|), Vmax in m/s. */
export function willoughbyRmKm(maxWindKt: number, latDeg: number): number {
  return 46.4 * Math.exp(-0.0155 * maxWindKt * KT_TO_MS + 0.0169 * Math.abs(latDeg));
}

/**
 * Holland (2008) surface profile parameter, with ∂p/∂t = 0 (one advisory gives no trend) and an assumed
 * translation speed v_t (m/s):  B_s = −4.4e-5 Δp² + 0.01 Δp + 0.03 ∂p/∂t − 0.014 |φ| + 0.15 v_t^x + 1,
 * x = 0.6 (1 − Δp/215), Δp in hPa. Clamped to Holland's (1980) physical range 1.0–2.5.
 */
export function hollandB2008(deltaPHpa: number, latDeg: number, translationMs = ASSUMED_TRANSLATION_SPEED_MS): number {
  const x = 0.6 * (1 - deltaPHpa / 215);
  const b = -4.4e-5 * deltaPHpa ** 2 + 0.01 * deltaPHpa - 0.014 * Math.abs(latDeg) + 0.15 * translationMs ** x + 1;
  return Math.min(2.5, Math.max(1.0, b));
}

/**
 * Radius (km) at which the Vmax-anchored Holland profile V(r) = Vmax · sqrt((Rm/r)^B · e^{1 − (Rm/r)^B})
 * falls to thresholdKt, outside the eye wall. With s = (Rm/r)^B, V²/Vmax² = s·e^{1−s} rises monotonically
 * on s ∈ (0, 1], so we bisect on s and return r = Rm · s^(−1/B). Null when Vmax does not exceed the threshold.
 */
export function hollandRadiusKm(maxWindKt: number, thresholdKt: number, rmKm: number, b: number): number | null {
  if (!(maxWindKt > thresholdKt) || thresholdKt <= 0) return null;
  return rmKm * hollandS((thresholdKt / maxWindKt) ** 2) ** (-1 / b);
}

/**
 * The s = (Rm/r)^B in (0, 1] outside the eye where the Holland profile's (V/Vmax)² = s·e^(1−s) equals
 * `target`, by bisection (the function rises monotonically on (0, 1]).
 */
export function hollandS(target: number): number {
  let lo = 0;
  let hi = 1;
  for (let i = 0; i < 60; i++) {
    const s = (lo + hi) / 2;
    if (s * Math.exp(1 - s) < target) lo = s;
    else hi = s;
  }
  return hi;
}

/** The parametric profile of one fix: Vmax (kt), radius of maximum wind (km) and Holland B. */
export interface WindField {
  windKt: number;
  rmKm: number;
  b: number;
}

/**
 * The calibrated profile (docs/methods.md#hurricane-wind): Rm from Willoughby et al. (2006) times radiusScale, B from
 * Holland (2008) with Δp from the central pressure, or when that is missing from the Atkinson & Holliday
 * (1977) wind–pressure relation Vmax = 6.7·(1010 − pc)^0.644 (kt, hPa).
 */
export function windField(
  windKt: number,
  latDeg: number,
  pressureMb: number | null,
  translationMs: number,
  radiusScale: number,
): WindField {
  const fromPressure = pressureMb !== null ? ENVIRONMENTAL_PRESSURE_HPA - pressureMb : NaN;
  const deltaPHpa = fromPressure > 0 ? fromPressure : (windKt / 6.7) ** (1 / 0.644);
  return {
    windKt,
    rmKm: willoughbyRmKm(windKt, latDeg) * radiusScale,
    b: hollandB2008(deltaPHpa, latDeg, translationMs),
  };
}

/** Outermost radius (km) of winds >= thresholdKt; the RMW itself when Vmax equals the threshold; null below it. */
export function radiusOfKm(f: WindField, thresholdKt: number): number | null {
  if (f.windKt < thresholdKt) return null;
  if (f.windKt === thresholdKt) return f.rmKm;
  return hollandRadiusKm(f.windKt, thresholdKt, f.rmKm, f.b);
}

/**
 * The calibration factor on Rm. Ingest reads it from the hazard baseline (the grid scoring uses), only
 * when a record needs the fallback, hence a function.
 */
export type RadiusScale = () => number;

/**
 * Circles from the calibrated profile; none without Vmax. The factor matters: uncalibrated, the profile
 * gave Ian a 64-kt radius of 136 km against 67 km observed (the mean of the b-deck quadrants); the table
 * over Ian's whole track is in docs/rings-earthquake-hurricane.md.
 */
function parametricRings(
  input: HurricaneInput,
  center: { lat: number; lng: number },
  radiusScale: RadiusScale | undefined,
): Ring[] {
  const { maxWindKt, pressureMb } = input;
  if (maxWindKt === undefined || !Number.isFinite(maxWindKt) || maxWindKt < THRESHOLDS[THRESHOLDS.length - 1].kt)
    return [];
  if (!radiusScale)
    throw new Error(
      'the parametric wind profile needs its calibrated radius scale (hazard baseline hurricane_wind.radius_scale)',
    );
  const field = windField(
    maxWindKt,
    center.lat,
    pressureMb !== undefined && Number.isFinite(pressureMb) ? pressureMb : null,
    ASSUMED_TRANSLATION_SPEED_MS,
    radiusScale(),
  );
  const rings: Ring[] = [];
  for (const t of THRESHOLDS) {
    const rKm = radiusOfKm(field, t.kt);
    if (rKm === null || !(rKm > 0)) continue;
    const radiusKm = round1(rKm);
    rings.push({
      kind: 'wind_kt',
      label: `${t.label} (parametric estimate)`,
      threshold: t.kt,
      unit: 'kt',
      radiusKm,
      geometry: circlePolygon(center.lat, center.lng, radiusKm),
    });
  }
  return rings;
}

const round1 = (x: number) => Math.round(x * 10) / 10;
