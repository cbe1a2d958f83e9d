/**
 * The parametric surface wind field we run along every HURDAT2 track (docs/methods.md#hurricane-wind): the Vmax-anchored
 * Holland profile V(r) = Vmax·sqrt((Rm/r)^B·e^{1−(Rm/r)^B}), Rm from Willoughby et al. (2006), B from
 * Holland (2008) with Δp from the best-track central pressure, or when that is missing (most fixes before
 * the 1970s) from the Atkinson & Holliday (1977) wind–pressure relation Vmax = 6.7·(1010 − pc)^0.644
 * (kt, hPa). windField and radiusOfKm live in src/domain/rings/hurricane.ts: the live hurricane rings
 * fall back to this same calibrated profile when a storm has no published radii.
 *
 * Calibration: with these defaults the 64-kt radius comes out about twice the mean of the four R64
 * quadrant radii HURDAT2 reports since 2004, so we scale every radius (i.e. Rm) by the median ratio
 * observed/parametric over those fixes (calibrateRadiusScale; the build records the factor). HURDAT2's
 * own RMW (2021+) is not used, so that all years share one calibrated profile. No forward-motion
 * asymmetry [judgement: the best-track Vmax already includes storm motion].
 */
import { radiusOfKm, windField, type WindField } from '../domain/rings/hurricane.js';
import { KM_PER_NM } from '../lib/geo.js';
import type { Storm } from '../reference-data/hurdat2.js';

// The profile lives with the live rings, which use it (with this calibration) when a storm has no radii.
export { radiusOfKm, windField, type WindField };

/** Surface 1-min wind (kt) at distance rKm from the centre. */
export function windAtKm(f: WindField, rKm: number): number {
  if (rKm <= 0) return 0;
  const s = (f.rmKm / rKm) ** f.b;
  return f.windKt * Math.sqrt(s * Math.exp(1 - s));
}

/**
 * Median over fixes from 2004 on with Vmax >= 70 kt and all four 64-kt radii reported of
 * (mean quadrant R64) / (unscaled parametric R64). Translation speed from the neighbouring fixes.
 */
export function calibrateRadiusScale(storms: Storm[]): { scale: number; fixes: number } {
  const ratios: number[] = [];
  for (const s of storms) {
    if (s.year < 2004) continue;
    s.fixes.forEach((f, i) => {
      if (f.windKt < 70 || f.r64Nm === null) return;
      const g = s.fixes[Math.min(i + 1, s.fixes.length - 1)];
      const h = s.fixes[Math.max(i - 1, 0)];
      const dt = (g.hours - h.hours) * 3600;
      const vt =
        dt > 0 ? (Math.hypot(g.lat - h.lat, (g.lng - h.lng) * Math.cos((f.lat * Math.PI) / 180)) * 111_195) / dt : 5;
      const r = radiusOfKm(windField(f.windKt, f.lat, f.pressureMb, vt, 1), 64);
      if (r !== null && r > 0) ratios.push((f.r64Nm * KM_PER_NM) / r);
    });
  }
  ratios.sort((a, b) => a - b);
  const m = ratios.length;
  const scale = m === 0 ? 1 : m % 2 ? ratios[(m - 1) / 2] : (ratios[m / 2 - 1] + ratios[m / 2]) / 2;
  return { scale, fixes: m };
}
