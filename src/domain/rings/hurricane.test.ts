import { describe, expect, it } from 'vitest';
import type { Position } from 'geojson';
import { KM_PER_NM, haversineKm } from '../../lib/geo.js';
import { hollandB2008, hollandRadiusKm, hurricaneRings, willoughbyRmKm } from './hurricane.js';

const signedArea = (ring: Position[]) =>
  ring.slice(1).reduce((a, p, i) => a + (ring[i][0] * p[1] - p[0] * ring[i][1]), 0) / 2;
/** Initial bearing (degrees clockwise from north) from the centre to a vertex. */
function bearingDeg(c: { lat: number; lng: number }, [lng, lat]: Position): number {
  const r = Math.PI / 180;
  const y = Math.sin((lng - c.lng) * r) * Math.cos(lat * r);
  const x =
    Math.cos(c.lat * r) * Math.sin(lat * r) - Math.sin(c.lat * r) * Math.cos(lat * r) * Math.cos((lng - c.lng) * r);
  return (Math.atan2(y, x) / r + 360) % 360;
}

// Ian's best-track radii at the 2022-09-28 19:05 UTC landfall (bal092022.dat line 55-57).
const landfall = { lat: 26.7, lng: -82.2 };
const ianRadii = {
  34: { ne: 130, se: 150, sw: 100, nw: 150 },
  50: { ne: 50, se: 60, sw: 70, nw: 80 },
  64: { ne: 30, se: 40, sw: 30, nw: 45 },
};

describe('hurricaneRings from quadrant radii', () => {
  const rings = hurricaneRings({ kind: 'hurricane', windRadiiNm: ianRadii, maxWindKt: 130, pressureMb: 941 }, landfall);

  it('one ring per threshold, 64 kt innermost, 34 kt outermost, radius = largest quadrant', () => {
    expect(rings.map((r) => [r.kind, r.threshold, r.unit, r.label, r.radiusKm])).toEqual([
      ['wind_kt', 64, 'kt', '64 kt (hurricane-force) winds', 83.3],
      ['wind_kt', 50, 'kt', '50 kt (strong tropical-storm-force) winds', 148.2],
      ['wind_kt', 34, 'kt', '34 kt (tropical-storm-force) winds', 277.8],
    ]);
  });

  it("each quadrant arc lies at that quadrant's radius; rings are closed and counter-clockwise [lng, lat]", () => {
    for (const ring of rings) {
      const coords = (ring.geometry.coordinates as Position[][])[0];
      expect(coords[0]).toEqual(coords[coords.length - 1]);
      expect(signedArea(coords)).toBeGreaterThan(0);
      const radii = ianRadii[ring.threshold as 34 | 50 | 64];
      for (const p of coords) {
        const b = bearingDeg(landfall, p);
        // Strictly inside a quadrant (away from the radial steps at 0/90/180/270°).
        if (b % 90 < 1 || b % 90 > 89) continue;
        const nm = b < 90 ? radii.ne : b < 180 ? radii.se : b < 270 ? radii.sw : radii.nw;
        expect(haversineKm(landfall.lat, landfall.lng, p[1], p[0])).toBeCloseTo(nm * KM_PER_NM, 1);
      }
    }
  });

  it('a zero quadrant collapses to the centre (Ian at the South Carolina landfall: 64 kt only SE/SW)', () => {
    const sc = { lat: 33.3, lng: -79.2 };
    const [ring] = hurricaneRings({ kind: 'hurricane', windRadiiNm: { 64: { ne: 0, se: 30, sw: 40, nw: 0 } } }, sc);
    const coords = (ring.geometry.coordinates as Position[][])[0];
    expect(coords).toContainEqual([sc.lng, sc.lat]);
    // NW and NE both collapse, so the centre starts the ring (and closes it) and appears nowhere else.
    expect(coords.slice(0, -1).filter((p) => p[0] === sc.lng && p[1] === sc.lat)).toHaveLength(1);
    expect(signedArea(coords)).toBeGreaterThan(0);
    expect(ring.radiusKm).toBeCloseTo(40 * KM_PER_NM, 1);
  });

  it('skips thresholds whose four radii are all zero', () => {
    const out = hurricaneRings(
      { kind: 'hurricane', windRadiiNm: { 34: { ne: 60, se: 0, sw: 0, nw: 40 }, 50: { ne: 0, se: 0, sw: 0, nw: 0 } } },
      landfall,
    );
    expect(out.map((r) => r.threshold)).toEqual([34]);
  });
});

/** No calibration: the profile as published (scale 1 on Rm). */
const unscaled = () => 1;

describe('parametric fallback (no radii): Willoughby 2006 Rm + Holland 2008 B_s, Vmax-anchored profile', () => {
  it('reproduces the docs/methods.md#hurricane-wind worked example (100 kt, 960 hPa, 28° N, v_t 5 m/s) before calibration', () => {
    expect(willoughbyRmKm(100, 28)).toBeCloseTo(33.6, 1);
    expect(hollandB2008(50, 28)).toBeCloseTo(1.31, 2);
    const rings = hurricaneRings(
      { kind: 'hurricane', windRadiiNm: {}, maxWindKt: 100, pressureMb: 960 },
      { lat: 28, lng: -80 },
      unscaled,
    );
    expect(rings.map((r) => r.threshold)).toEqual([64, 50, 34]);
    const [r64, r50, r34] = rings.map((r) => r.radiusKm as number);
    expect(Math.abs(r64 - 124)).toBeLessThan(2);
    expect(Math.abs(r50 - 191)).toBeLessThan(2);
    expect(Math.abs(r34 - 359)).toBeLessThan(2);
    expect(rings[2].label).toBe('34 kt (tropical-storm-force) winds (parametric estimate)');
  });

  it('the profile returns the threshold wind at the found radius', () => {
    const rm = willoughbyRmKm(80, 20);
    const b = hollandB2008(1010 - 970, 20);
    const r = hollandRadiusKm(80, 34, rm, b) as number;
    const s = (rm / r) ** b;
    expect(80 * Math.sqrt(s * Math.exp(1 - s))).toBeCloseTo(34, 3);
  });

  it('draws nothing it cannot defend: no threshold above Vmax, nothing without Vmax', () => {
    expect(
      hurricaneRings({ kind: 'hurricane', windRadiiNm: {}, maxWindKt: 45, pressureMb: 1000 }, landfall, unscaled).map(
        (r) => r.threshold,
      ),
    ).toEqual([34]);
    expect(
      hurricaneRings({ kind: 'hurricane', windRadiiNm: {}, maxWindKt: 30, pressureMb: 1006 }, landfall, unscaled),
    ).toEqual([]);
    expect(hurricaneRings({ kind: 'hurricane', windRadiiNm: {} }, landfall, unscaled)).toEqual([]);
  });

  it('without a central pressure, Δp comes from the Atkinson-Holliday wind-pressure relation, as in the baseline', () => {
    const withP = hurricaneRings(
      { kind: 'hurricane', windRadiiNm: {}, maxWindKt: 100, pressureMb: 1010 - (100 / 6.7) ** (1 / 0.644) },
      landfall,
      unscaled,
    );
    const withoutP = hurricaneRings({ kind: 'hurricane', windRadiiNm: {}, maxWindKt: 100 }, landfall, unscaled);
    expect(withoutP.map((r) => r.radiusKm)).toEqual(withP.map((r) => r.radiusKm));
    expect(withoutP).toHaveLength(3);
  });

  it('the calibration scales every radius with Rm, and is required', () => {
    const ian = { kind: 'hurricane' as const, windRadiiNm: {}, maxWindKt: 130, pressureMb: 941 };
    const half = hurricaneRings(ian, landfall, () => 0.5).map((r) => r.radiusKm as number);
    const full = hurricaneRings(ian, landfall, unscaled).map((r) => r.radiusKm as number);
    half.forEach((r, i) => expect(r).toBeCloseTo(full[i] / 2, 0));
    expect(() => hurricaneRings(ian, landfall)).toThrow(/calibrated radius scale/);
  });
});
